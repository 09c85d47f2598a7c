// The low-level SDK's reads of many items: Query on the table and on a global index with Limit and
// ExclusiveStartKey (by hand and with the SDK's paginators), descending, filtered, counted; and
// Scan, whole and by segments.
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  QueryCommand,
  ScanCommand,
  paginateQuery,
  paginateScan,
} from "@aws-sdk/client-dynamodb";
import assert from "node:assert/strict";
import { client, run, uniqueTableName } from "../lib/harness.js";

const CUSTOMERS = 6;
const ORDERS = 15; // per customer

run(async () => {
  const dynamo = client();
  const table = uniqueTableName("SdkQueries");
  await dynamo.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "customer", AttributeType: "S" },
        { AttributeName: "orderNo", AttributeType: "N" },
        { AttributeName: "state", AttributeType: "S" },
        { AttributeName: "placed", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "customer", KeyType: "HASH" },
        { AttributeName: "orderNo", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: "byState",
          KeySchema: [
            { AttributeName: "state", KeyType: "HASH" },
            { AttributeName: "placed", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["total"] },
        },
      ],
    }),
  );

  // 6 customers x 15 orders, numbered -7..7 so that numeric order is not text order
  const orders = [];
  for (let c = 0; c < CUSTOMERS; c++) {
    for (let o = 0; o < ORDERS; o++) {
      orders.push({
        customer: { S: `c${c}` },
        orderNo: { N: String(o - 7) },
        state: { S: o % 3 === 0 ? "open" : "shipped" },
        placed: { S: `2024-0${1 + (o % 9)}-${String(10 + c).padStart(2, "0")}T0${o % 10}` },
        total: { N: String(o * 10 + c) },
        note: { S: "x".repeat(o) },
      });
    }
  }
  for (let i = 0; i < orders.length; i += 25) {
    const answer = await dynamo.send(
      new BatchWriteItemCommand({
        RequestItems: { [table]: orders.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
    assert.deepEqual(answer.UnprocessedItems, {});
  }
  const numbers = (items) => items.map((i) => Number(i.orderNo.N));
  const c2 = orders.filter((o) => o.customer.S === "c2");

  // Limit and ExclusiveStartKey by hand: 15 items, 4 a page
  const pages = [];
  let start;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: "customer = :c",
        ExpressionAttributeValues: { ":c": { S: "c2" } },
        Limit: 4,
        ExclusiveStartKey: start,
      }),
    );
    assert.equal(page.ScannedCount, page.Count);
    pages.push(numbers(page.Items));
    start = page.LastEvaluatedKey;
    if (start) {
      assert.deepEqual(start, { customer: { S: "c2" }, orderNo: page.Items[page.Items.length - 1].orderNo });
    }
  } while (start && pages.length < 20);
  assert.deepEqual(pages, [
    [-7, -6, -5, -4],
    [-3, -2, -1, 0],
    [1, 2, 3, 4],
    [5, 6, 7],
  ]);
  // a page stopped by Limit carries a key even when no item follows it: DynamoDB does not look ahead
  const exact = await dynamo.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "customer = :c",
      ExpressionAttributeValues: { ":c": { S: "c2" } },
      Limit: ORDERS,
    }),
  );
  assert.equal(exact.Count, ORDERS);
  assert.deepEqual(exact.LastEvaluatedKey, { customer: { S: "c2" }, orderNo: { N: "7" } });
  const past = await dynamo.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "customer = :c",
      ExpressionAttributeValues: { ":c": { S: "c2" } },
      Limit: ORDERS,
      ExclusiveStartKey: exact.LastEvaluatedKey,
    }),
  );
  assert.deepEqual([past.Count, past.LastEvaluatedKey], [0, undefined]);
  const full = await dynamo.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "customer = :c",
      ExpressionAttributeValues: { ":c": { S: "c2" } },
    }),
  );
  assert.deepEqual(full.Items, c2, "every attribute, in key order");

  // a start key of the caller's own making, descending, with a range
  const down = await dynamo.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "customer = :c AND orderNo BETWEEN :lo AND :hi",
      ExpressionAttributeValues: { ":c": { S: "c2" }, ":lo": { N: "-3" }, ":hi": { N: "5" } },
      ExclusiveStartKey: { customer: { S: "c2" }, orderNo: { N: "2" } },
      ScanIndexForward: false,
      ProjectionExpression: "orderNo",
    }),
  );
  assert.deepEqual(down.Items, [1, 0, -1, -2, -3].map((n) => ({ orderNo: { N: String(n) } })));

  // a filter is applied after Limit: a page can be short, or empty, and still go on
  const filtered = await dynamo.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "customer = :c AND orderNo >= :z",
      FilterExpression: "#s = :open",
      ExpressionAttributeNames: { "#s": "state" },
      ExpressionAttributeValues: { ":c": { S: "c2" }, ":z": { N: "0" }, ":open": { S: "open" } },
      Limit: 3,
    }),
  );
  // orders 0, 1, 2 were evaluated (o = 7, 8, 9); only o = 9 is open
  assert.deepEqual(numbers(filtered.Items), [2]);
  assert.equal(filtered.ScannedCount, 3);
  assert.deepEqual(filtered.LastEvaluatedKey, { customer: { S: "c2" }, orderNo: { N: "2" } });
  const counted = await dynamo.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "customer = :c AND orderNo < :z",
      ExpressionAttributeValues: { ":c": { S: "c2" }, ":z": { N: "0" } },
      Select: "COUNT",
    }),
  );
  assert.equal(counted.Count, 7);
  assert.equal(counted.Items, undefined);

  // the global index, through the SDK's paginator: open orders placed in 2024-04, 2 a page
  const fromIndex = [];
  let indexPages = 0;
  for await (const page of paginateQuery(
    { client: dynamo, pageSize: 2 },
    {
      TableName: table,
      IndexName: "byState",
      KeyConditionExpression: "#s = :open AND begins_with(placed, :april)",
      ExpressionAttributeNames: { "#s": "state" },
      ExpressionAttributeValues: { ":open": { S: "open" }, ":april": { S: "2024-04" } },
    },
  )) {
    indexPages++;
    fromIndex.push(...page.Items);
    for (const item of page.Items) {
      assert.deepEqual(Object.keys(item).sort(), ["customer", "orderNo", "placed", "state", "total"]);
    }
  }
  const april = orders
    .filter((o) => o.state.S === "open" && o.placed.S.startsWith("2024-04"))
    .sort((a, b) => (a.placed.S < b.placed.S ? -1 : 1));
  assert.equal(april.length, 2 * CUSTOMERS); // o = 3 and o = 12
  assert.deepEqual(
    fromIndex.map((i) => i.placed.S),
    april.map((o) => o.placed.S),
  );
  assert.ok(indexPages >= 6, `${indexPages} pages of 2 for ${april.length} items`);

  // Scan: everything once; then 3 segments, each paged by 7, that together read everything once
  const everything = [];
  for await (const page of paginateScan({ client: dynamo, pageSize: 20 }, { TableName: table })) {
    everything.push(...page.Items);
  }
  assert.equal(everything.length, orders.length);
  const key = (i) => `${i.customer.S}/${i.orderNo.N}`;
  assert.deepEqual(new Set(everything.map(key)), new Set(orders.map(key)));
  const perSegment = [];
  const segmented = [];
  for (let segment = 0; segment < 3; segment++) {
    let count = 0;
    let from;
    do {
      const page = await dynamo.send(
        new ScanCommand({
          TableName: table,
          Segment: segment,
          TotalSegments: 3,
          Limit: 7,
          ExclusiveStartKey: from,
        }),
      );
      assert.ok(page.Items.length <= 7);
      count += page.Items.length;
      segmented.push(...page.Items.map(key));
      from = page.LastEvaluatedKey;
    } while (from);
    perSegment.push(count);
  }
  assert.equal(segmented.length, orders.length);
  assert.deepEqual(new Set(segmented), new Set(orders.map(key)));
  const filteredScan = await dynamo.send(
    new ScanCommand({
      TableName: table,
      FilterExpression: "#t > :t AND contains(note, :xs)",
      ExpressionAttributeNames: { "#t": "total" }, // TOTAL is reserved
      ExpressionAttributeValues: { ":t": { N: "140" }, ":xs": { S: "xxxxxxxxxxxxxx" } },
    }),
  );
  // o = 14 (note of 14 x) and total 140 + c > 140: customers 1..5
  assert.deepEqual(
    filteredScan.Items.map((i) => i.customer.S).sort(),
    ["c1", "c2", "c3", "c4", "c5"],
  );
  const indexScan = await dynamo.send(
    new ScanCommand({ TableName: table, IndexName: "byState", Select: "COUNT" }),
  );
  assert.equal(indexScan.Count, orders.length);

  return { table, items: orders.length, perSegment };
});
