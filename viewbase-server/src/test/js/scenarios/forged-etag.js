// An ETag a client made up, shaped like the server's but dated a century ahead, sent as If-Match:
// the write is refused with 412, and the date in it does not become the server's clock, so the
// next write's Timestamp (and its ETag's date) is now, not 2126.
import assert from "node:assert/strict";
import { assertRestError, newTable, run } from "../lib/harness.js";

/** The instant in an ETag such as W/"datetime'2026-12-01T21%3A34%3A14.0330988Z'". */
function etagDate(etag) {
  const inside = /^W\/"datetime'(.+)'"$/.exec(etag);
  assert.ok(inside, `an ETag of the form W/"datetime'…'": ${etag}`);
  return new Date(decodeURIComponent(inside[1]));
}

/** Asserts that the instant lies within a few minutes of this machine's clock. */
function assertNow(date, what) {
  const minutes = Math.abs(date.getTime() - Date.now()) / 60_000;
  assert.ok(minutes < 5, `${what} is ${date.toISOString()}, not within minutes of ${new Date().toISOString()}`);
}

run(async () => {
  const table = await newTable("JsForgedEtag");
  const partitionKey = "p";
  await table.createEntity({ partitionKey, rowKey: "first", value: "original" });
  const before = await table.getEntity(partitionKey, "first");

  const forged = { etag: `W/"datetime'2126-01-01T00%3A00%3A00.0000000Z'"` };
  const refused = "UpdateConditionNotSatisfied";
  await assertRestError(() => table.updateEntity({ partitionKey, rowKey: "first", value: "forged" }, "Replace", forged),
    412, refused);
  await assertRestError(() => table.updateEntity({ partitionKey, rowKey: "first", value: "forged" }, "Merge", forged),
    412, refused);
  await assertRestError(() => table.deleteEntity(partitionKey, "first", forged), 412, refused);

  const created = await table.createEntity({ partitionKey, rowKey: "second", value: "after the forgery" });
  assertNow(etagDate(created.etag), "the new entity's ETag date");
  const second = await table.getEntity(partitionKey, "second");
  assert.equal(second.etag, created.etag);
  assertNow(new Date(second.timestamp), "the new entity's timestamp");
  assert.ok(second.timestamp > before.timestamp, `${second.timestamp} after ${before.timestamp}`);

  const after = await table.getEntity(partitionKey, "first");
  assert.deepEqual([after.value, after.etag, after.timestamp], ["original", before.etag, before.timestamp]);

  return {
    table: table.tableName,
    partitionKey,
    ids: ["first", "second"],
    values: ["original", "after the forgery"],
    firstTimestamp: before.timestamp,
  };
});
