// The values a JS user stores, as the SDK sends them, and what getEntity gives back:
//
//   JS value written                         | on the wire                  | read back as
//   -----------------------------------------+------------------------------+--------------------------------
//   string, true/false                       | plain JSON                   | string, boolean
//   integer number in Int32 range            | plain JSON number            | number
//   fractional number                        | plain JSON number            | number
//   { value: "1.0", type: "Double" }         | "1.0" + Edm.Double           | number
//   bigint, { value: "…", type: "Int64" }    | decimal string + Edm.Int64   | bigint
//   Date                                     | ISO string + Edm.DateTime    | Date
//   { value: "…", type: "Guid" }             | string + Edm.Guid            | { value, type: "Guid" }
//   Uint8Array                               | base64 + Edm.Binary          | Uint8Array
//
// With disableTypeConversion the SDK gives every value as { value, type } instead.
import assert from "node:assert/strict";
import { newTable, run } from "../lib/harness.js";

run(async () => {
  const table = await newTable("JsTypes");
  const when = new Date("2026-03-01T12:34:56.789Z");
  const guid = "0f8fad5b-d9cb-469f-a165-70867728950e";
  const bytes = Uint8Array.from([0, 1, 2, 250, 255]);

  await table.createEntity({
    partitionKey: "types",
    rowKey: "all",
    text: "héllo, 世界 \u{1F600}",
    yes: true,
    no: false,
    int32: 2147483647,
    negative: -42,
    fraction: 1.5,
    tiny: -2.5e-300,
    wholeDouble: { value: "1.0", type: "Double" },
    int64: { value: "9007199254740993", type: "Int64" },
    bigint: -9223372036854775808n,
    when,
    guid: { value: guid, type: "Guid" },
    bytes,
    empty: new Uint8Array(0),
  });

  const e = await table.getEntity("types", "all");
  assert.equal(e.text, "héllo, 世界 \u{1F600}");
  assert.equal(e.yes, true);
  assert.equal(e.no, false);
  assert.equal(e.int32, 2147483647);
  assert.equal(e.negative, -42);
  assert.equal(e.fraction, 1.5);
  assert.equal(e.tiny, -2.5e-300);
  assert.equal(e.wholeDouble, 1);
  assert.equal(e.int64, 9007199254740993n, "Int64 reads back as a bigint, beyond 2^53 exactly");
  assert.equal(e.bigint, -9223372036854775808n);
  assert.ok(e.when instanceof Date, `DateTime reads back as a Date: ${e.when}`);
  assert.equal(e.when.toISOString(), when.toISOString());
  assert.deepEqual(e.guid, { value: guid, type: "Guid" });
  assert.ok(e.bytes instanceof Uint8Array, "Binary reads back as a Uint8Array");
  assert.deepEqual([...e.bytes], [...bytes]);
  assert.deepEqual([...e.empty], []);

  const raw = await table.getEntity("types", "all", { disableTypeConversion: true });
  assert.deepEqual(raw.int64, { value: "9007199254740993", type: "Int64" });
  assert.equal(raw.when.type, "DateTime");
  assert.equal(raw.bytes.type, "Binary");

  return { table: table.tableName, partitionKey: "types", id: "all", when: when.toISOString(), guid };
});
