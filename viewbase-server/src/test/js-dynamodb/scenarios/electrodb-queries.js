// ElectroDB's reads of many items: queries by access pattern on the table and on a global index with
// each sort-key operator (begins, between, gt, gte, lt, lte), descending order, where clauses,
// paging by DynamoDB's Limit with pages: "all" and with cursors, and scan.
import { CreateTableCommand, DynamoDBServiceException } from "@aws-sdk/client-dynamodb";
import { ElectroError, Entity } from "electrodb";
import assert from "node:assert/strict";
import {
  assertRejects,
  client,
  createSingleTable,
  documentClient,
  run,
  uniqueTableName,
} from "../lib/harness.js";

const DAYS = 30;

/** 2024-01-01 .. 2024-01-30: the day of reading i, 1-based. */
function day(i) {
  return `2024-01-${String(i).padStart(2, "0")}`;
}

/** The days from..to, inclusive, as the readings' `at`. */
function days(from, to) {
  const out = [];
  for (let i = from; i <= to; i++) {
    out.push(day(i));
  }
  return out;
}

run(async () => {
  const table = await createSingleTable("ElectroQueries");
  const requests = [];
  const readings = new Entity(
    {
      model: { entity: "reading", version: "1", service: "telemetry" },
      attributes: {
        deviceId: { type: "string", required: true },
        at: { type: "string", required: true },
        seq: { type: "number", required: true, padding: { length: 4, char: "0" } },
        celsius: { type: "number", required: true },
        kind: { type: ["normal", "alarm"], required: true },
      },
      indexes: {
        byDevice: {
          pk: { field: "pk", composite: ["deviceId"] },
          sk: { field: "sk", composite: ["at"] },
        },
        byKind: {
          index: "gsi1",
          pk: { field: "gsi1pk", composite: ["kind"] },
          sk: { field: "gsi1sk", composite: ["seq"] },
        },
      },
    },
    {
      table,
      client: documentClient(),
      listeners: [
        (event) => {
          if (event.type === "query" && event.method) {
            requests.push(event.method);
          }
        },
      ],
    },
  );

  const written = [];
  for (let i = 1; i <= DAYS; i++) {
    written.push({
      deviceId: "d1",
      at: day(i),
      seq: i,
      celsius: i % 7 === 0 ? 80 + i : 20 + (i % 5) / 2,
      kind: i % 7 === 0 ? "alarm" : "normal",
    });
  }
  // a second device in its own partition, and a sparse neighbour: queries on d1 never see them
  written.push({ deviceId: "d2", at: day(3), seq: 1000, celsius: 1, kind: "normal" });
  for (const r of written) {
    await readings.put(r).go();
  }

  const ats = (result) => result.data.map((r) => r.at);
  const d1 = readings.query.byDevice({ deviceId: "d1" });

  assert.deepEqual(ats(await d1.go()), days(1, DAYS));
  assert.deepEqual(ats(await d1.go({ order: "desc" })), days(1, DAYS).reverse());
  assert.deepEqual(ats(await readings.query.byDevice({ deviceId: "d1" }).begins({ at: "2024-01-1" }).go()), days(10, 19));
  assert.deepEqual(
    ats(await readings.query.byDevice({ deviceId: "d1" }).between({ at: day(5) }, { at: day(8) }).go()),
    days(5, 8),
  );
  assert.deepEqual(ats(await readings.query.byDevice({ deviceId: "d1" }).gt({ at: day(27) }).go()), days(28, 30));
  assert.deepEqual(ats(await readings.query.byDevice({ deviceId: "d1" }).gte({ at: day(27) }).go()), days(27, 30));
  assert.deepEqual(ats(await readings.query.byDevice({ deviceId: "d1" }).lt({ at: day(3) }).go()), days(1, 2));
  assert.deepEqual(ats(await readings.query.byDevice({ deviceId: "d1" }).lte({ at: day(3) }).go()), days(1, 3));
  assert.deepEqual(
    ats(await readings.query.byDevice({ deviceId: "d1" }).gt({ at: "2024-01-3" }).go()),
    days(30, 30),
    "a partial value is a prefix of the key: 2024-01-30 > 2024-01-3, 2024-01-29 < it",
  );
  const one = await readings.get({ deviceId: "d1", at: day(14) }).go();
  assert.deepEqual(one.data, written[13]);

  // The global index: padded numbers order as numbers; where clauses are the filter
  const alarms = await readings.query.byKind({ kind: "alarm" }).go();
  assert.deepEqual(
    alarms.data.map((r) => r.seq),
    [7, 14, 21, 28],
  );
  assert.deepEqual(
    (await readings.query.byKind({ kind: "normal" }).gt({ seq: 25 }).go()).data.map((r) => r.seq),
    [26, 27, 29, 30, 1000],
  );
  assert.deepEqual(
    (await readings.query.byKind({ kind: "normal" }).between({ seq: 2 }, { seq: 4 }).go()).data.map((r) => r.seq),
    [2, 3, 4],
  );
  const warm = await readings.query
    .byDevice({ deviceId: "d1" })
    .where(({ celsius }, { gte }) => gte(celsius, 22))
    .where(({ kind }, { eq }) => eq(kind, "normal"))
    .go();
  assert.deepEqual(
    ats(warm),
    written.filter((r) => r.deviceId === "d1" && r.celsius >= 22 && r.kind === "normal").map((r) => r.at),
  );
  assert.deepEqual(ats(warm), [day(4), day(9), day(19), day(24), day(29)]);

  // Paging: Limit 7 per request. pages: "all" follows LastEvaluatedKey to the end...
  requests.length = 0;
  const all = await readings.query.byDevice({ deviceId: "d1" }).go({ limit: 7, pages: "all" });
  assert.deepEqual(ats(all), days(1, DAYS));
  assert.equal(all.cursor, null);
  assert.deepEqual(requests, ["query", "query", "query", "query", "query"], "30 items at 7 a page");

  // ...and a cursor resumes where a page ended: 7, 7, 7, 7, 2
  const pages = [];
  let cursor = null;
  do {
    const page = await readings.query.byDevice({ deviceId: "d1" }).go({ limit: 7, cursor });
    pages.push(ats(page));
    cursor = page.cursor;
  } while (cursor !== null && pages.length < 20);
  assert.deepEqual(
    pages.map((p) => p.length),
    [7, 7, 7, 7, 2],
  );
  assert.deepEqual(pages.flat(), days(1, DAYS));
  // a cursor on an index resumes there too, descending
  const firstAlarms = await readings.query.byKind({ kind: "alarm" }).go({ limit: 3, order: "desc" });
  assert.deepEqual(
    firstAlarms.data.map((r) => r.seq),
    [28, 21, 14],
  );
  assert.notEqual(firstAlarms.cursor, null);
  const restAlarms = await readings.query
    .byKind({ kind: "alarm" })
    .go({ limit: 3, order: "desc", cursor: firstAlarms.cursor });
  assert.deepEqual(
    restAlarms.data.map((r) => r.seq),
    [7],
  );
  assert.equal(restAlarms.cursor, null);

  // scan reads every reading, once, filtered by entity
  const scanned = await readings.scan.go({ pages: "all" });
  assert.equal(scanned.data.length, DAYS + 1);
  assert.deepEqual(
    new Set(scanned.data.map((r) => `${r.deviceId}/${r.at}`)).size,
    DAYS + 1,
  );
  const hot = await readings.scan.where(({ celsius }, { gt }) => gt(celsius, 50)).go({ pages: "all" });
  assert.deepEqual(
    hot.data.map((r) => r.seq).sort((a, b) => a - b),
    [7, 14, 21, 28],
  );

  // An index keyed by the entity's own attributes: a where clause on its sort key attribute is a
  // filter on a key attribute, which DynamoDB refuses (it belongs in the key condition)
  const byKindTable = uniqueTableName("ElectroAttributeKeys");
  await client().send(
    new CreateTableCommand({
      TableName: byKindTable,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: ["deviceId", "at", "kind"].map((n) => ({ AttributeName: n, AttributeType: "S" })),
      KeySchema: [
        { AttributeName: "deviceId", KeyType: "HASH" },
        { AttributeName: "at", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: "byKind",
          KeySchema: [
            { AttributeName: "kind", KeyType: "HASH" },
            { AttributeName: "at", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        },
      ],
    }),
  );
  const plain = new Entity(
    {
      model: { entity: "reading", version: "1", service: "telemetry" },
      attributes: {
        deviceId: { type: "string", required: true },
        at: { type: "string", required: true },
        kind: { type: "string", required: true },
      },
      indexes: {
        byDevice: {
          pk: { field: "deviceId", composite: ["deviceId"] },
          sk: { field: "at", composite: ["at"] },
        },
        byKind: {
          index: "byKind",
          pk: { field: "kind", composite: ["kind"] },
          sk: { field: "at", composite: ["at"] },
        },
      },
    },
    { table: byKindTable, client: documentClient() },
  );
  for (let i = 1; i <= 4; i++) {
    await plain.put({ deviceId: "d1", at: day(i), kind: "alarm" }).go();
  }
  assert.deepEqual(ats(await plain.query.byKind({ kind: "alarm" }).gt({ at: day(2) }).go()), days(3, 4));
  await assertRejects(
    () =>
      plain.query
        .byKind({ kind: "alarm" })
        .where(({ at }, { gt }) => gt(at, day(2)))
        .go(),
    ElectroError,
    (e) => {
      assert.ok(e.cause instanceof DynamoDBServiceException, e.message);
      assert.equal(e.cause.name, "ValidationException");
      assert.equal(
        e.cause.message,
        "Filter Expression can only contain non-primary key attributes: Primary key attribute: at",
      );
    },
  );
  // the same clause on a scan is an ordinary filter
  assert.deepEqual(
    ats(await plain.scan.where(({ at }, { gt }) => gt(at, day(2))).go()),
    days(3, 4),
  );

  return { table, partitionKey: "$telemetry#deviceid_d1", readings: DAYS };
});
