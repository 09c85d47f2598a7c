// submitTransaction: a batch of actions on one partition commits together, with one sub-response
// per action; a batch with an action that fails writes nothing, and the SDK reports the failing
// action's status.
import assert from "node:assert/strict";
import { TableTransaction } from "@azure/data-tables";
import { assertRestError, newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsTransactions");
  const partitionKey = "orders";
  await table.createEntity({ partitionKey, rowKey: "existing", state: "open", note: "kept by Merge" });
  await table.createEntity({ partitionKey, rowKey: "replaced", state: "open", note: "dropped by Replace" });
  await table.createEntity({ partitionKey, rowKey: "obsolete", state: "open" });

  const result = await table.submitTransaction([
    ["create", { partitionKey, rowKey: "new1", state: "new" }],
    ["create", { partitionKey, rowKey: "new2", state: "new", amount: 12.5 }],
    ["upsert", { partitionKey, rowKey: "upserted", state: "new" }, "Replace"],
    ["update", { partitionKey, rowKey: "existing", state: "shipped" }],
    ["update", { partitionKey, rowKey: "replaced", state: "shipped" }, "Replace"],
    ["delete", { partitionKey, rowKey: "obsolete" }],
  ]);
  assert.equal(result.status, 202);
  assert.equal(result.subResponses.length, 6);
  // 204 for the creates too: the SDK asks for no content (Prefer: return-no-content).
  assert.deepEqual(result.subResponses.map((r) => r.status), [204, 204, 204, 204, 204, 204]);
  assert.ok(result.subResponses.slice(0, 5).every((r) => r.etag), "every write's sub-response has an ETag");

  assert.equal((await table.getEntity(partitionKey, "new2")).amount, 12.5);
  const existing = await table.getEntity(partitionKey, "existing");
  assert.deepEqual([existing.state, existing.note], ["shipped", "kept by Merge"]);
  const replaced = await table.getEntity(partitionKey, "replaced");
  assert.deepEqual([replaced.state, replaced.note], ["shipped", undefined]);
  await assertRestError(() => table.getEntity(partitionKey, "obsolete"), 404);

  // The TableTransaction helper builds the same actions.
  const helper = new TableTransaction();
  helper.createEntity({ partitionKey, rowKey: "new3", state: "new" });
  helper.updateEntity({ partitionKey, rowKey: "new1", state: "paid" }, "Merge");
  helper.deleteEntity(partitionKey, "new2");
  assert.equal((await table.submitTransaction(helper.actions)).status, 202);
  assert.equal((await table.getEntity(partitionKey, "new1")).state, "paid");

  // The second action creates an entity that exists: 409, and the first action is not written.
  await assertRestError(() => table.submitTransaction([
    ["create", { partitionKey, rowKey: "refused1", state: "new" }],
    ["create", { partitionKey, rowKey: "existing", state: "duplicate" }],
    ["upsert", { partitionKey, rowKey: "refused2", state: "new" }],
  ]), 409, "EntityAlreadyExists");
  // An update of a missing entity: 404, and the delete before it is not done either.
  await assertRestError(() => table.submitTransaction([
    ["delete", { partitionKey, rowKey: "new3" }],
    ["update", { partitionKey, rowKey: "missing", state: "x" }],
  ]), 404);
  await assertRestError(() => table.getEntity(partitionKey, "refused1"), 404);
  await assertRestError(() => table.getEntity(partitionKey, "refused2"), 404);
  assert.equal((await table.getEntity(partitionKey, "existing")).state, "shipped");
  assert.equal((await table.getEntity(partitionKey, "new3")).state, "new");

  // The SDK itself refuses actions on two partitions before sending anything.
  await assert.rejects(() => table.submitTransaction([
    ["create", { partitionKey, rowKey: "p1" }],
    ["create", { partitionKey: "elsewhere", rowKey: "p2" }],
  ]), /same partitionKey/);

  return {
    table: table.tableName,
    partitionKey,
    present: ["existing", "replaced", "new1", "new3", "upserted"],
    absent: ["obsolete", "new2", "refused1", "refused2", "missing", "p1"],
  };
});
