// A table SAS made by generateTableSas with permissions and a PartitionKey range, used as a JS
// user does: new TableClient(url, table, new AzureSASCredential(sas)). Reads and writes inside
// the range and permissions work; outside they are 403 and change nothing.
import assert from "node:assert/strict";
import { AzureSASCredential, TableClient, generateTableSas } from "@azure/data-tables";
import {
  all, assertRestError, clientOptions, credential, endpoint, newTable, run,
} from "../lib/harness.js";

run(async () => {
  const owner = await newTable("JsSas");
  for (const partitionKey of ["a", "b", "c", "m", "z"]) {
    await owner.createEntity({ partitionKey, rowKey: "1", where: partitionKey });
  }

  const sas = generateTableSas(owner.tableName, credential, {
    permissions: { query: true, add: true },
    expiresOn: new Date(Date.now() + 60 * 60 * 1000),
    startPartitionKey: "b",
    endPartitionKey: "m",
  });
  assert.match(sas, /(^|&)spk=b(&|$)/);
  assert.match(sas, /(^|&)epk=m(&|$)/);
  const guest = new TableClient(endpoint, owner.tableName, new AzureSASCredential(sas), clientOptions);

  // Inside the range, both ends included.
  assert.equal((await guest.getEntity("b", "1")).where, "b");
  assert.equal((await guest.getEntity("c", "1")).where, "c");
  assert.equal((await guest.getEntity("m", "1")).where, "m");
  await assertRestError(() => guest.getEntity("c", "absent"), 404);

  // Outside the range.
  await assertRestError(() => guest.getEntity("a", "1"), 403);
  await assertRestError(() => guest.getEntity("z", "1"), 403);

  // A query returns what lies in the range.
  const listed = (await all(guest.listEntities())).map((e) => e.partitionKey);
  assert.deepEqual(listed, ["b", "c", "m"]);

  // add: inserts inside the range; outside it, and any update (no "u" in the SAS), are refused.
  await guest.createEntity({ partitionKey: "c", rowKey: "2", where: "added with the SAS" });
  await assertRestError(() => guest.createEntity({ partitionKey: "z", rowKey: "2", where: "outside" }), 403);
  await assertRestError(() => guest.updateEntity({ partitionKey: "c", rowKey: "1", where: "changed" }), 403);
  await assertRestError(() => guest.deleteEntity("c", "1"), 403);

  // A SAS for another table opens nothing here.
  const other = generateTableSas("SomeOtherTable", credential, { permissions: { query: true } });
  const stranger = new TableClient(endpoint, owner.tableName, new AzureSASCredential(other), clientOptions);
  await assertRestError(() => stranger.getEntity("b", "1"), 403);

  assert.equal((await owner.getEntity("c", "1")).where, "c");
  return {
    table: owner.tableName,
    present: [["c", "2"], ["c", "1"]],
    absent: [["z", "2"]],
    unchanged: { partitionKey: "c", id: "1", where: "c" },
  };
});
