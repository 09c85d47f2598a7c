// Optimistic concurrency as a JS user writes it: pass the etag you read; a write with a stale one
// is refused with 412, and the entity keeps the winning write.
import assert from "node:assert/strict";
import { assertRestError, newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsEtags");
  const partitionKey = "counters";
  await table.createEntity({ partitionKey, rowKey: "c1", value: "first" });
  const { etag: readEtag } = await table.getEntity(partitionKey, "c1");

  const won = await table.updateEntity({ partitionKey, rowKey: "c1", value: "second" }, "Merge", { etag: readEtag });
  assert.ok(won.etag && won.etag !== readEtag, "the write answers a new ETag");

  // Another writer still holds readEtag: every conditional write with it is refused.
  const lost = { partitionKey, rowKey: "c1", value: "lost" };
  const stale = { etag: readEtag };
  const refused = "UpdateConditionNotSatisfied";
  await assertRestError(() => table.updateEntity(lost, "Merge", stale), 412, refused);
  await assertRestError(() => table.updateEntity(lost, "Replace", stale), 412, refused);
  await assertRestError(() => table.deleteEntity(partitionKey, "c1", stale), 412, refused);

  const now = await table.getEntity(partitionKey, "c1");
  assert.equal(now.value, "second");
  assert.equal(now.etag, won.etag);

  // With the current ETag, writes go through.
  await table.updateEntity({ partitionKey, rowKey: "c1", value: "third" }, "Replace", { etag: now.etag });
  await table.createEntity({ partitionKey, rowKey: "c2", value: "gone soon" });
  const { etag: c2Etag } = await table.getEntity(partitionKey, "c2");
  await table.deleteEntity(partitionKey, "c2", { etag: c2Etag });
  await assertRestError(() => table.getEntity(partitionKey, "c2"), 404);

  return { table: table.tableName, partitionKey, id: "c1", value: "third" };
});
