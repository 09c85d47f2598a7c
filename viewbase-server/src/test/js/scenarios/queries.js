// listEntities with filters built by the SDK's odata template (which quotes and escapes strings
// and writes a Date as datetime'…') and with select.
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { all, assertRestError, newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsQueries");
  const person = (partitionKey, rowKey, name, born, active, when) =>
    ({ partitionKey, rowKey, name, born, active, when: new Date(when) });
  const people = [
    person("north", "1", "Ada", 1815, false, "1843-01-01T00:00:00Z"),
    person("north", "2", "Grace", 1906, true, "1952-01-01T00:00:00Z"),
    person("north", "3", "Katherine", 1918, true, "1961-05-05T00:00:00Z"),
    person("o'hara", "1", "Scarlett", 1845, true, "1861-04-12T00:00:00Z"),
    person("o'hara", "2", "Gerald", 1801, false, "1830-01-01T00:00:00Z"),
    person("south", "1", "Alan", 1912, true, "1936-11-12T00:00:00Z"),
  ];
  for (const p of people) {
    await table.createEntity(p);
  }
  const names = async (queryOptions) =>
    (await all(table.listEntities({ queryOptions }))).map((e) => e.name);

  assert.deepEqual(await names(undefined), people.map((p) => p.name), "all, by PartitionKey then RowKey");

  const pk = "o'hara"; // the template doubles the quote: PartitionKey eq 'o''hara'
  assert.deepEqual(await names({ filter: odata`PartitionKey eq ${pk}` }), ["Scarlett", "Gerald"]);
  assert.deepEqual(await names({ filter: odata`PartitionKey eq ${"north"} and born lt ${1910}` }),
    ["Ada", "Grace"]);
  assert.deepEqual(await names({ filter: odata`active eq ${true} and PartitionKey ne ${"north"}` }),
    ["Scarlett", "Alan"]);
  assert.deepEqual(await names({ filter: odata`when ge ${new Date("1900-01-01T00:00:00Z")}` }),
    ["Grace", "Katherine", "Alan"]);
  assert.deepEqual(await names({ filter: odata`RowKey eq ${"2"} or name eq ${"Alan"}` }), ["Grace", "Gerald", "Alan"]);
  assert.deepEqual(await names({ filter: odata`PartitionKey eq ${"nowhere"}` }), []);

  const selected = await all(table.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${"south"}`, select: ["name", "born"] },
  }));
  assert.equal(selected.length, 1);
  assert.equal(selected[0].name, "Alan");
  assert.equal(selected[0].born, 1912);
  assert.equal(selected[0].active, undefined, "select leaves out the other properties");
  assert.equal(selected[0].when, undefined, "select leaves out the other properties");

  // A bare integer beyond Int32 in a filter is an error, as on Azure (an Int64 literal ends in L).
  const tooBig = odata`born lt ${5000000000}`;
  await assertRestError(() => all(table.listEntities({ queryOptions: { filter: tooBig } })), 400);
  assert.deepEqual(await names({ filter: `born lt 5000000000L and PartitionKey eq 'south'` }), ["Alan"]);

  return { table: table.tableName, entities: people.length };
});
