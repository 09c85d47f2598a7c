// Tables through TableServiceClient and TableClient: create (a second create of the same name is
// swallowed by the SDK), list with and without a TableName filter and in pages, delete (a second
// delete is swallowed too).
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { all, run, serviceClient, tableClient, uniqueTableName } from "../lib/harness.js";

run(async () => {
  const service = serviceClient();
  const kept = uniqueTableName("JsKept");
  const dropped = uniqueTableName("JsDropped");
  const byTableClient = uniqueTableName("JsOwn");

  await service.createTable(kept);
  await service.createTable(dropped);
  await service.createTable(kept); // 409 TableAlreadyExists, which the SDK turns into success
  await tableClient(byTableClient).createTable();

  const names = (await all(service.listTables())).map((t) => t.name);
  for (const name of [kept, dropped, byTableClient]) {
    assert.ok(names.includes(name), `${name} in ${names}`);
  }
  assert.deepEqual(names, [...names].sort(), "tables are listed in name order");

  const filtered = await all(service.listTables({ queryOptions: { filter: odata`TableName eq ${kept}` } }));
  assert.deepEqual(filtered.map((t) => t.name), [kept]);

  const pages = [];
  for await (const page of service.listTables().byPage({ maxPageSize: 1 })) {
    pages.push(page.map((t) => t.name));
  }
  assert.ok(pages.every((p) => p.length <= 1), `pages of at most one table: ${JSON.stringify(pages)}`);
  assert.deepEqual(pages.flat(), names, "the pages together list every table once, in order");

  await service.deleteTable(dropped);
  await service.deleteTable(dropped); // 404, which the SDK swallows
  await tableClient(byTableClient).deleteTable();
  const after = (await all(service.listTables())).map((t) => t.name);
  assert.ok(after.includes(kept), `${kept} in ${after}`);
  assert.ok(!after.includes(dropped) && !after.includes(byTableClient), `deleted tables still listed: ${after}`);

  return { kept, deleted: [dropped, byTableClient] };
});
