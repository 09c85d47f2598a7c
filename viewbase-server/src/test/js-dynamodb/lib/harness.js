// What every scenario shares: the DynamoDB endpoint it is pointed at, clients of the AWS SDK for
// JavaScript v3 built the way a DynamoDB Local user builds them, ElectroDB's single table, and the
// two ways a scenario talks back to DynamoDbJsTest.
//
//   node scenarios/<name>.js <endpoint> <accessKeyId> <secretAccessKey>
//
// A scenario checks what the client shows with node:assert and exits 0 when all held; a failed
// assertion or any other error is printed to stderr and exits 1. Its last line on stdout is its
// report: one JSON object naming what it left in the database, which the Java side then reads
// through Database to check the server stored what the client was told.
import {
  CreateTableCommand,
  DynamoDBClient,
  DynamoDBServiceException,
} from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import assert from "node:assert/strict";

const [endpoint, accessKeyId, secretAccessKey] = process.argv.slice(2);
if (!endpoint || !accessKeyId || !secretAccessKey) {
  console.error("usage: node <scenario>.js <endpoint> <accessKeyId> <secretAccessKey>");
  process.exit(2);
}

export { endpoint };

/**
 * A client of the low-level SDK. One attempt per call: a throttled or failed request fails at once
 * with the answer that failed, instead of after seconds of back-off that would hide it.
 */
export function client() {
  return new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId, secretAccessKey },
    maxAttempts: 1,
  });
}

/** The document client ElectroDB is given, as its documentation builds it. */
export function documentClient() {
  return DynamoDBDocumentClient.from(client());
}

/**
 * A table name of this run. Letters and digits only, so that it is also the table's Viewbase name
 * (docs/dynamodb.md, "Names") and the Java side finds the items under it.
 */
export function uniqueTableName(prefix) {
  return `${prefix}${process.pid}x${Date.now() % 1_000_000}`;
}

/**
 * Creates ElectroDB's single table: string keys pk and sk, and global indexes gsi1 (gsi1pk,
 * gsi1sk) and gsi2 (gsi2pk, gsi2sk) projecting everything, as ElectroDB's own examples define it.
 */
export async function createSingleTable(prefix) {
  const name = uniqueTableName(prefix);
  const S = (n) => ({ AttributeName: n, AttributeType: "S" });
  const key = (h, r) => [
    { AttributeName: h, KeyType: "HASH" },
    { AttributeName: r, KeyType: "RANGE" },
  ];
  const gsi = (n) => ({
    IndexName: n,
    KeySchema: key(`${n}pk`, `${n}sk`),
    Projection: { ProjectionType: "ALL" },
  });
  await client().send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: ["pk", "sk", "gsi1pk", "gsi1sk", "gsi2pk", "gsi2sk"].map(S),
      KeySchema: key("pk", "sk"),
      GlobalSecondaryIndexes: [gsi("gsi1"), gsi("gsi2")],
    }),
  );
  return name;
}

/**
 * Awaits the call and asserts that it was rejected with an error of this class; then runs check on
 * the error, when given. Returns the error.
 */
export async function assertRejects(call, errorClass, check) {
  let thrown;
  try {
    await call();
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown, `expected a ${errorClass.name}, but the call succeeded`);
  assert.ok(
    thrown instanceof errorClass,
    `expected a ${errorClass.name}, got ${thrown?.stack ?? thrown}`,
  );
  if (check) {
    check(thrown);
  }
  return thrown;
}

/** Sorts copies of the items by the given attributes' values, for order-free comparisons. */
export function sortedBy(items, ...names) {
  const key = (i) => JSON.stringify(names.map((n) => i[n]));
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Runs the scenario: its resolved value is printed as the report (the last stdout line); a failure
 * is printed with its stack, and with the service's answer where there is one.
 */
export function run(scenario) {
  scenario().then(
    (report) => {
      console.log(JSON.stringify(report ?? {}));
    },
    (e) => {
      console.error(e?.stack ?? String(e));
      const service = e instanceof DynamoDBServiceException ? e : e?.cause;
      if (service instanceof DynamoDBServiceException) {
        console.error(
          `service error: ${service.name} (HTTP ${service.$metadata?.httpStatusCode}): ${service.message}`,
        );
      }
      if (typeof e?.params === "function" && e.params()) {
        console.error(`ElectroDB's request: ${JSON.stringify(e.params())}`);
      }
      process.exitCode = 1;
    },
  );
}
