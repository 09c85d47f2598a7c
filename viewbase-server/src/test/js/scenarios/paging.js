// listEntities().byPage({ maxPageSize }) across several pages, with and without a filter, and
// resuming from a page's continuationToken as a web page's "next" link does.
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsPaging");
  const keys = [];
  for (const partitionKey of ["a", "b"]) {
    for (let i = 0; i < (partitionKey === "a" ? 23 : 6); i++) {
      const rowKey = String(i).padStart(3, "0");
      await table.createEntity({ partitionKey, rowKey, n: i });
      keys.push(`${partitionKey}/${rowKey}`);
    }
  }

  const pagesOf = async (iterator, max) => {
    const pages = [];
    for await (const page of iterator) {
      assert.ok(page.length <= max, `a page of ${page.length} entities, more than maxPageSize ${max}`);
      pages.push(page.map((e) => `${e.partitionKey}/${e.rowKey}`));
      assert.ok(pages.length <= 100, "paging ends");
    }
    return pages;
  };

  const pages = await pagesOf(table.listEntities().byPage({ maxPageSize: 7 }), 7);
  assert.deepEqual(pages.flat(), keys, "every entity once, in key order, across the pages");
  assert.ok(pages.length >= 5, `29 entities in pages of 7 take at least 5 pages, got ${pages.length}`);

  const filter = odata`PartitionKey eq ${"a"} and n ge ${3}`;
  const filtered = await pagesOf(table.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 5 }), 5);
  assert.deepEqual(filtered.flat(), keys.filter((k) => k.startsWith("a/")).slice(3));
  assert.ok(filtered.length >= 4, `20 entities in pages of 5 take at least 4 pages, got ${filtered.length}`);

  // The first page's token, handed to a new iterator, goes on where that page stopped.
  const first = (await table.listEntities().byPage({ maxPageSize: 10 }).next()).value;
  assert.equal(first.length, 10);
  assert.ok(first.continuationToken, "a page with more behind it carries a continuationToken");
  const { continuationToken } = first;
  const rest = await pagesOf(table.listEntities().byPage({ maxPageSize: 10, continuationToken }), 10);
  assert.deepEqual([...first.map((e) => `${e.partitionKey}/${e.rowKey}`), ...rest.flat()], keys);

  return { table: table.tableName, entities: keys.length, pageSizes: pages.map((p) => p.length) };
});
