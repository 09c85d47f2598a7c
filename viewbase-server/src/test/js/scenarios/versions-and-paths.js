// The service version as the JS SDK sees it, and endpoints that end in '/'. The SDK sends
// x-ms-version 2019-02-02 (or the client option `version`); every answer, errors included, says
// 2019-02-02, the version the server implements. A version Azure never published is 400
// InvalidHeaderValue. Clients built on "<endpoint>/" work: the SDK drops the slash when it joins
// paths, so no request ends in '/' or has an empty path segment.
import assert from "node:assert/strict";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import {
  all, assertRestError, clientOptions, credential, endpoint, run, uniqueTableName,
} from "../lib/harness.js";

const IMPLEMENTED = "2019-02-02";

/** Client options that record each request's URL, sent x-ms-version, status and answered x-ms-version. */
function recording(exchanges, options = {}) {
  const recorder = {
    name: "recordVersions",
    async sendRequest(request, next) {
      const response = await next(request);
      exchanges.push({
        call: `${request.method} ${request.url}`,
        sent: request.headers.get("x-ms-version"),
        status: response.status,
        answered: response.headers.get("x-ms-version"),
      });
      return response;
    },
  };
  return { ...clientOptions, ...options, additionalPolicies: [{ policy: recorder, position: "perRetry" }] };
}

run(async () => {
  const exchanges = [];
  const name = uniqueTableName("JsSlash");
  const service = new TableServiceClient(`${endpoint}/`, credential, recording(exchanges));
  await service.createTable(name);
  assert.ok((await all(service.listTables())).some((t) => t.name === name), `${name} listed`);

  const table = new TableClient(`${endpoint}/`, name, credential, recording(exchanges));
  const created = await table.createEntity({ partitionKey: "p", rowKey: "r1", value: 1 });
  assert.equal(created.version, IMPLEMENTED, "createEntity's response");

  // getEntity returns the entity only; its response headers reach the caller through onResponse.
  let headers;
  const read = await table.getEntity("p", "r1", {
    onResponse: (rawResponse, flatResponse) => {
      headers = { raw: rawResponse.headers.get("x-ms-version"), flat: flatResponse.version };
    },
  });
  assert.equal(read.value, 1);
  assert.deepEqual(headers, { raw: IMPLEMENTED, flat: IMPLEMENTED }, "getEntity's response");

  const missing = await assertRestError(() => table.getEntity("p", "absent"), 404);
  assert.equal(missing.response.headers.get("x-ms-version"), IMPLEMENTED, "a 404's response");

  const batch = await table.submitTransaction([["upsert", { partitionKey: "p", rowKey: "r2", value: 2 }]]);
  assert.equal(batch.status, 202);
  assert.deepEqual((await all(table.listEntities())).map((e) => e.rowKey), ["r1", "r2"]);

  assert.ok(exchanges.some((e) => e.call.endsWith("/$batch")), `the transaction recorded: ${JSON.stringify(exchanges)}`);
  for (const e of exchanges) {
    assert.equal(e.sent, IMPLEMENTED, `x-ms-version sent by ${e.call}`);
    assert.equal(e.answered, IMPLEMENTED, `x-ms-version answered to ${e.call}`);
    assert.doesNotMatch(e.call, /^\w+ http:\/\/[^/]+\/.*\/\//, `an empty path segment in ${e.call}`);
    assert.doesNotMatch(e.call, /\/(\?|$)/, `a path ending in '/' in ${e.call}`);
  }

  // The client option `version` is what the SDK sends; the answer still names the version served.
  const newer = [];
  const later = new TableClient(endpoint, name, credential, recording(newer, { version: "2020-12-06" }));
  await later.createEntity({ partitionKey: "p", rowKey: "r3", value: 3 });
  assert.equal((await later.getEntity("p", "r3")).value, 3);
  assert.deepEqual(newer.map((e) => [e.sent, e.answered]), [["2020-12-06", IMPLEMENTED], ["2020-12-06", IMPLEMENTED]]);

  const unpublished = new TableClient(endpoint, name, credential, { ...clientOptions, version: "2019-02-03" });
  await assertRestError(() => unpublished.getEntity("p", "r1"), 400, "InvalidHeaderValue");
  await assertRestError(() => unpublished.createEntity({ partitionKey: "p", rowKey: "refused" }), 400,
    "InvalidHeaderValue");

  return { table: name, partitionKey: "p", ids: ["r1", "r2", "r3"], absent: ["refused"] };
});
