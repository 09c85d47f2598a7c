// A table SAS whose PartitionKey range is one partition, az0, among neighbours that sort just before
// and after it, used as a JS user does. A filter written to escape a range joined to it as text,
// such as "x) or (x", is refused with 400 and returns nothing; balanced filters that match
// everything return the range only; point reads and a transaction outside the range are 403.
import assert from "node:assert/strict";
import { AzureSASCredential, TableClient, generateTableSas, odata } from "@azure/data-tables";
import {
  all, assertRestError, clientOptions, credential, endpoint, newTable, run,
} from "../lib/harness.js";

run(async () => {
  const owner = await newTable("JsSasEscape");
  for (const partitionKey of ["", "a", "az", "az0", "az00", "az1", "b"]) {
    for (const rowKey of ["j", "k"]) {
      await owner.createEntity({ partitionKey, rowKey, x: "a", n: 1 });
    }
  }

  // The JS SDK takes a PartitionKey bound without a row key (the Java SDK does not); the range is
  // then every row of az0.
  const sasFor = (permissions) => generateTableSas(owner.tableName, credential, {
    permissions,
    expiresOn: new Date(Date.now() + 60 * 60 * 1000),
    startPartitionKey: "az0",
    endPartitionKey: "az0",
  });
  const reader = sasFor({ query: true });
  assert.match(reader, /(^|&)spk=az0(&|$)/);
  assert.match(reader, /(^|&)epk=az0(&|$)/);
  assert.doesNotMatch(reader, /(^|&)(srk|erk)=/);
  const guest = new TableClient(endpoint, owner.tableName, new AzureSASCredential(reader), clientOptions);
  const keys = async (filter) =>
    (await all(guest.listEntities({ queryOptions: { filter } }))).map((e) => `${e.partitionKey}/${e.rowKey}`);

  // Each closes a group it did not open: joined as text, "(range) and (filter)" would let it out.
  for (const escape of [
    "PartitionKey ge '') or (PartitionKey ge ''",
    "true) or (true",
    "x ne 'a') or (x ne 'a'",
    "RowKey eq 'k') or not (RowKey eq 'k'",
  ]) {
    const seen = [];
    await assertRestError(async () => {
      for await (const e of guest.listEntities({ queryOptions: { filter: escape } })) {
        seen.push(`${e.partitionKey}/${e.rowKey}`);
      }
    }, 400);
    assert.deepEqual(seen, [], `entities returned for: ${escape}`);
  }

  // Balanced filters that hold for every entity return the range and nothing else.
  for (const everything of [
    "PartitionKey ge '' or PartitionKey ge ''",
    "true or true",
    "not (RowKey eq 'k') or RowKey eq 'k'",
  ]) {
    assert.deepEqual(await keys(everything), ["az0/j", "az0/k"], everything);
  }
  assert.deepEqual(await keys(undefined), ["az0/j", "az0/k"]);
  // The template doubles the quote, so the hostile value is one string that no row key equals.
  assert.deepEqual(await keys(odata`RowKey eq ${"k') or (true"}`), []);
  assert.deepEqual(await keys(odata`PartitionKey eq ${"az0') or (PartitionKey ge '"}`), []);

  assert.equal((await guest.getEntity("az0", "k")).x, "a");
  await assertRestError(() => guest.getEntity("az00", "j"), 403);
  await assertRestError(() => guest.getEntity("az1", "j"), 403);

  // Transactions through a SAS that may write the range: inside it, one commits.
  const writerSas = sasFor({ query: true, add: true, update: true, delete: true });
  const writer = new TableClient(endpoint, owner.tableName, new AzureSASCredential(writerSas), clientOptions);
  const committed = await writer.submitTransaction([
    ["upsert", { partitionKey: "az0", rowKey: "j", n: 2 }, "Merge"],
    ["create", { partitionKey: "az0", rowKey: "l", n: 2 }],
  ]);
  assert.equal(committed.status, 202);
  // The SDK sends one partition per transaction, so one that ends in az00 is wholly outside the
  // range: 403 for the sub-request, as the SDK reports a transaction's failure, and nothing written.
  await assert.rejects(() => writer.submitTransaction([
    ["upsert", { partitionKey: "az0", rowKey: "k", n: 3 }],
    ["upsert", { partitionKey: "az00", rowKey: "j", n: 3 }],
  ]), /same partitionKey/);
  await assertRestError(() => writer.submitTransaction([
    ["create", { partitionKey: "az00", rowKey: "m", n: 3 }],
    ["update", { partitionKey: "az00", rowKey: "k", n: 3 }, "Replace"],
    ["delete", { partitionKey: "az00", rowKey: "k" }],
    ["upsert", { partitionKey: "az00", rowKey: "j", n: 3 }, "Merge"],
  ]), 403);
  await assertRestError(() => writer.getEntity("az00", "j"), 403);
  assert.equal((await owner.getEntity("az00", "j")).n, 1);
  assert.equal((await owner.getEntity("az0", "j")).n, 2);

  return {
    table: owner.tableName,
    committed: [["az0", "j"], ["az0", "l"]],
    refused: [["az00", "m"]],
    unchanged: [["az00", "j"], ["az00", "k"], ["az0", "k"]],
  };
});
