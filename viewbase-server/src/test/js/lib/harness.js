// What every scenario shares: the server it is pointed at, clients of the official SDK built the way
// an emulator user builds them, and the two ways a scenario talks back to JsSdkTest.
//
//   node scenarios/<name>.js <endpoint> <accountName> <accountKey>
//
// A scenario checks what the SDK shows with node:assert and exits 0 when all held; a failed
// assertion or any other error is printed to stderr and exits 1. Its last line on stdout is its
// report: one JSON object naming what it left in the database, which the Java side then reads
// through Database to check the server stored what the SDK was told.
import {
  AzureNamedKeyCredential,
  RestError,
  TableClient,
  TableServiceClient,
} from "@azure/data-tables";
import assert from "node:assert/strict";

const [endpoint, accountName, accountKey] = process.argv.slice(2);
if (!endpoint || !accountName || !accountKey) {
  console.error("usage: node <scenario>.js <endpoint> <accountName> <accountKey>");
  process.exit(2);
}

export { endpoint, accountName, accountKey };

export const credential = new AzureNamedKeyCredential(accountName, accountKey);

/**
 * Options for every client: plain http needs allowInsecureConnection (the SDK refuses http
 * otherwise), and no retries, so that a refused connection or a 5xx fails at once with the answer
 * that failed instead of after seconds of back-off.
 */
export const clientOptions = Object.freeze({
  allowInsecureConnection: true,
  retryOptions: { maxRetries: 0 },
});

export function serviceClient() {
  return new TableServiceClient(endpoint, credential, clientOptions);
}

export function tableClient(tableName) {
  return new TableClient(endpoint, tableName, credential, clientOptions);
}

/** A table name of this run: letters and digits, starting with a letter, as Azure wants. */
export function uniqueTableName(prefix) {
  return `${prefix}${process.pid}x${Date.now() % 1_000_000}`;
}

/** Creates a fresh table through the service client and returns its table client. */
export async function newTable(prefix) {
  const name = uniqueTableName(prefix);
  await serviceClient().createTable(name);
  return tableClient(name);
}

/**
 * The Azure error code of a RestError. The SDK puts it in different places by operation:
 *
 *   operation                          | statusCode        | Azure error code
 *   -----------------------------------+-------------------+------------------------------------------
 *   single entity and table calls,     | the response's    | response.parsedBody.odataError.code (the
 *     list iterators                   |                   |   odata.error body; `code` stays undefined)
 *   submitTransaction                  | the failing       | code (from the sub-response's body)
 *                                      |   sub-response's  |
 */
export function azureErrorCode(e) {
  return e.code ?? e.response?.parsedBody?.odataError?.code;
}

/**
 * Awaits the call and asserts that the SDK rejected it with a RestError of this HTTP status (and,
 * when given, this Azure error code). Returns the error.
 */
export async function assertRestError(call, statusCode, code) {
  let thrown;
  try {
    await call();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown, `expected a RestError ${statusCode}${code ? " " + code : ""}, but the call succeeded`);
  assert.ok(thrown instanceof RestError, `expected a RestError, got ${thrown?.stack ?? thrown}`);
  assert.equal(thrown.statusCode, statusCode, `HTTP status of: ${thrown.message}`);
  if (code !== undefined) {
    assert.equal(azureErrorCode(thrown), code, `error code of: ${thrown.message}`);
  }
  return thrown;
}

/** Drains an entity or table iterator into an array. */
export async function all(iterable) {
  const out = [];
  for await (const x of iterable) {
    out.push(x);
  }
  return out;
}

/**
 * Runs the scenario: its resolved value is printed as the report (the last stdout line); a failure
 * is printed with its stack, and the RestError's request and response where there is one.
 */
export function run(scenario) {
  scenario().then(
    (report) => {
      console.log(JSON.stringify(report ?? {}));
    },
    (e) => {
      console.error(e?.stack ?? String(e));
      if (e instanceof RestError) {
        console.error(`request: ${e.request?.method} ${e.request?.url}`);
        console.error(`response: ${e.statusCode} ${e.response?.bodyAsText ?? ""}`);
      }
      process.exitCode = 1;
    },
  );
}
