// A JS number is a double: Date.now() and other integers beyond Int32 are sent as plain JSON numbers,
// without an annotation, as the SDK sends every number. Azure stores such a number as Edm.Double and
// gives it back as a plain number, so getEntity answers the same JS number that was written.
import assert from "node:assert/strict";
import { newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsNumbers");
  const millis = 1767225600123; // 2026-01-01T00:00:00.123Z as Date.now() gives it
  await table.createEntity({ partitionKey: "n", rowKey: "1", millis, big: 2 ** 40, negative: -(2 ** 35) });

  const e = await table.getEntity("n", "1");
  const raw = await table.getEntity("n", "1", { disableTypeConversion: true });
  assert.equal(typeof e.millis, "number",
    `millis reads back as a ${typeof e.millis}, from the server's ${JSON.stringify(raw.millis)}`);
  assert.equal(e.millis, millis);
  assert.equal(e.big, 2 ** 40);
  assert.equal(e.negative, -(2 ** 35));
  JSON.stringify(e); // what an application does next; it throws on a bigint

  return { table: table.tableName, partitionKey: "n", id: "1" };
});
