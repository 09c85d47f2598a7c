// One entity's life through TableClient: createEntity, getEntity, updateEntity in Merge and
// Replace mode, upsertEntity in both modes (inserting and updating), deleteEntity, and the errors
// a JS user meets on the way (409 on a second create, 404 on a missing entity).
import assert from "node:assert/strict";
import { assertRestError, newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsEntities");
  const partitionKey = "people";

  const created = await table.createEntity({ partitionKey, rowKey: "ada", name: "Ada", born: 1815, city: "London" });
  assert.ok(created.etag, "createEntity answers the new ETag");
  await assertRestError(() => table.createEntity({ partitionKey, rowKey: "ada", name: "again" }),
    409, "EntityAlreadyExists");

  const read = await table.getEntity(partitionKey, "ada");
  assert.equal(read.partitionKey, partitionKey);
  assert.equal(read.rowKey, "ada");
  assert.equal(read.name, "Ada");
  assert.equal(read.born, 1815);
  assert.equal(read.etag, created.etag, "getEntity shows the ETag createEntity answered");
  assert.ok(read.timestamp, "getEntity shows the Timestamp");

  const selected = await table.getEntity(partitionKey, "ada", { queryOptions: { select: ["name"] } });
  assert.equal(selected.name, "Ada");
  assert.equal(selected.city, undefined, "select leaves out the other properties");

  // Merge (the default mode) keeps what the update does not name.
  const merged = await table.updateEntity({ partitionKey, rowKey: "ada", city: "Marylebone" });
  assert.notEqual(merged.etag, created.etag, "every write changes the ETag");
  const afterMerge = await table.getEntity(partitionKey, "ada");
  assert.equal(afterMerge.name, "Ada");
  assert.equal(afterMerge.city, "Marylebone");

  // Replace drops what the update does not name.
  await table.updateEntity({ partitionKey, rowKey: "ada", name: "Ada Lovelace" }, "Replace");
  const afterReplace = await table.getEntity(partitionKey, "ada");
  assert.equal(afterReplace.name, "Ada Lovelace");
  assert.equal(afterReplace.born, undefined, "Replace removed born");
  assert.equal(afterReplace.city, undefined, "Replace removed city");

  await assertRestError(() => table.updateEntity({ partitionKey, rowKey: "nobody", name: "x" }, "Merge"), 404);
  await assertRestError(() => table.updateEntity({ partitionKey, rowKey: "nobody", name: "x" }, "Replace"), 404);

  // upsertEntity inserts what is absent and, in Merge mode (the default), keeps what it does not name.
  await table.upsertEntity({ partitionKey, rowKey: "grace", name: "Grace", born: 1906 });
  await table.upsertEntity({ partitionKey, rowKey: "grace", rank: "Rear Admiral" });
  const grace = await table.getEntity(partitionKey, "grace");
  assert.deepEqual([grace.name, grace.born, grace.rank], ["Grace", 1906, "Rear Admiral"]);
  await table.upsertEntity({ partitionKey, rowKey: "grace", name: "Grace Hopper" }, "Replace");
  const replaced = await table.getEntity(partitionKey, "grace");
  assert.deepEqual([replaced.name, replaced.born, replaced.rank], ["Grace Hopper", undefined, undefined]);
  await table.upsertEntity({ partitionKey, rowKey: "alan", name: "Alan" }, "Replace");

  // The SDK doubles a quote in the keys of the URL (PartitionKey='…',RowKey='o''brien').
  await table.createEntity({ partitionKey, rowKey: "o'brien", name: "Flann" });
  assert.equal((await table.getEntity(partitionKey, "o'brien")).name, "Flann");
  await table.updateEntity({ partitionKey, rowKey: "o'brien", name: "Flann O'Brien" });
  await table.deleteEntity(partitionKey, "o'brien");

  await table.deleteEntity(partitionKey, "alan");
  await assertRestError(() => table.getEntity(partitionKey, "alan"), 404, "ResourceNotFound");
  await assertRestError(() => table.deleteEntity(partitionKey, "alan"), 404, "ResourceNotFound");

  return { table: table.tableName, partitionKey, kept: ["ada", "grace"], deleted: ["alan", "o'brien"] };
});
