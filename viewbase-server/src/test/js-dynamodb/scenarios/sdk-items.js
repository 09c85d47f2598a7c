// The low-level AWS SDK for JavaScript v3 on tables and single items: CreateTable with a global
// index, DescribeTable, ListTables; PutItem, GetItem, UpdateItem and DeleteItem with conditions and
// ReturnValues; every attribute type as the SDK sends it; and the SDK's exception classes for the
// errors it names.
import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBServiceException,
  GetItemCommand,
  ListTablesCommand,
  PutItemCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateItemCommand,
  paginateListTables,
} from "@aws-sdk/client-dynamodb";
import assert from "node:assert/strict";
import { assertRejects, client, run, uniqueTableName } from "../lib/harness.js";

run(async () => {
  const dynamo = client();
  const table = uniqueTableName("SdkItems");
  const created = await dynamo.send(
    new CreateTableCommand({
      TableName: table,
      AttributeDefinitions: [
        { AttributeName: "id", AttributeType: "S" },
        { AttributeName: "version", AttributeType: "N" },
        { AttributeName: "owner", AttributeType: "S" },
      ],
      KeySchema: [
        { AttributeName: "id", KeyType: "HASH" },
        { AttributeName: "version", KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: "byOwner",
          KeySchema: [{ AttributeName: "owner", KeyType: "HASH" }],
          Projection: { ProjectionType: "KEYS_ONLY" },
          ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
        },
      ],
      ProvisionedThroughput: { ReadCapacityUnits: 5, WriteCapacityUnits: 5 },
    }),
  );
  assert.equal(created.TableDescription.TableName, table);
  assert.equal(created.TableDescription.TableStatus, "ACTIVE");
  assert.match(created.TableDescription.TableArn, new RegExp(`^arn:aws:dynamodb:us-east-1:\\d{12}:table/${table}$`));
  await assertRejects(
    () =>
      dynamo.send(
        new CreateTableCommand({
          TableName: table,
          AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
          BillingMode: "PAY_PER_REQUEST",
        }),
      ),
    ResourceInUseException,
  );
  const described = (await dynamo.send(new DescribeTableCommand({ TableName: table }))).Table;
  assert.deepEqual(described.KeySchema, [
    { AttributeName: "id", KeyType: "HASH" },
    { AttributeName: "version", KeyType: "RANGE" },
  ]);
  assert.deepEqual(
    described.GlobalSecondaryIndexes.map((i) => [i.IndexName, i.IndexStatus, i.Projection.ProjectionType]),
    [["byOwner", "ACTIVE", "KEYS_ONLY"]],
  );
  const names = [];
  for await (const page of paginateListTables({ client: dynamo, pageSize: 2 }, {})) {
    names.push(...page.TableNames);
  }
  assert.ok(names.includes(table), `${table} in ${names}`);

  // Every type, as the SDK marshals it, reads back exactly
  const item = {
    id: { S: "doc-1" },
    version: { N: "1" },
    owner: { S: "ada" },
    title: { S: "Notes ü \u{1F600}" },
    big: { N: "12345678901234567890123456789012345678" },
    small: { N: "-0.000000000000000000000000000000000001" },
    blob: { B: new Uint8Array([0, 1, 254, 255]) },
    done: { BOOL: false },
    nothing: { NULL: true },
    tags: { SS: ["a", "b"] },
    scores: { NS: ["1", "2.5"] },
    chunks: { BS: [new Uint8Array([1]), new Uint8Array([2, 3])] },
    meta: { M: { pages: { N: "3" }, authors: { L: [{ S: "ada" }, { N: "7" }] } } },
  };
  await dynamo.send(new PutItemCommand({ TableName: table, Item: item }));
  const key = { id: { S: "doc-1" }, version: { N: "1" } };
  const read = await dynamo.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }));
  assert.deepEqual(read.Item, item);
  const projected = await dynamo.send(
    new GetItemCommand({
      TableName: table,
      Key: key,
      ProjectionExpression: "title, meta.authors[1], #n",
      ExpressionAttributeNames: { "#n": "nothing" },
    }),
  );
  assert.deepEqual(projected.Item, {
    title: item.title,
    meta: { M: { authors: { L: [{ N: "7" }] } } },
    nothing: { NULL: true },
  });
  const absent = await dynamo.send(
    new GetItemCommand({ TableName: table, Key: { id: { S: "doc-1" }, version: { N: "2" } } }),
  );
  assert.equal(absent.Item, undefined);

  // Conditions: the failure carries the item when asked for it
  await assertRejects(
    () =>
      dynamo.send(
        new PutItemCommand({
          TableName: table,
          Item: { ...key, owner: { S: "mallory" } },
          ConditionExpression: "attribute_not_exists(id)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      ),
    ConditionalCheckFailedException,
    (e) => {
      assert.equal(e.name, "ConditionalCheckFailedException");
      assert.equal(e.$metadata.httpStatusCode, 400);
      assert.equal(e.$fault, "client");
      assert.deepEqual(e.Item, item);
    },
  );
  const old = await dynamo.send(
    new PutItemCommand({
      TableName: table,
      Item: { id: { S: "doc-1" }, version: { N: "2" }, owner: { S: "ada" }, title: { S: "v2" } },
      ConditionExpression: "attribute_not_exists(id)",
      ReturnValues: "ALL_OLD",
    }),
  );
  assert.equal(old.Attributes, undefined);

  // Updates: SET, ADD, REMOVE, DELETE, and what ReturnValues asks for
  const updated = await dynamo.send(
    new UpdateItemCommand({
      TableName: table,
      Key: key,
      UpdateExpression:
        "SET title = :t, meta.pages = meta.pages + :one, #v2 = if_not_exists(#v2, :zero) ADD tags :c REMOVE nothing DELETE scores :two",
      ConditionExpression: "#o = :ada AND size(tags) = :two_n",
      ExpressionAttributeNames: { "#o": "owner", "#v2": "views" },
      ExpressionAttributeValues: {
        ":t": { S: "Notes, revised" },
        ":one": { N: "1" },
        ":zero": { N: "0" },
        ":c": { SS: ["c"] },
        ":two": { NS: ["2.5"] },
        ":two_n": { N: "2" },
        ":ada": { S: "ada" },
      },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  assert.deepEqual(updated.Attributes, {
    title: { S: "Notes, revised" },
    meta: { M: { pages: { N: "4" } } },
    views: { N: "0" },
    tags: { SS: ["a", "b", "c"] },
    scores: { NS: ["1"] },
  });
  await assertRejects(
    () =>
      dynamo.send(
        new UpdateItemCommand({
          TableName: table,
          Key: key,
          UpdateExpression: "SET title = :t",
          ConditionExpression: "attribute_exists(nothing)",
          ExpressionAttributeValues: { ":t": { S: "never" } },
        }),
      ),
    ConditionalCheckFailedException,
  );
  const afterUpdate = (await dynamo.send(new GetItemCommand({ TableName: table, Key: key }))).Item;
  assert.equal(afterUpdate.title.S, "Notes, revised");
  assert.equal(afterUpdate.nothing, undefined);
  // an update of an absent item creates it from its key
  const upserted = await dynamo.send(
    new UpdateItemCommand({
      TableName: table,
      Key: { id: { S: "doc-3" }, version: { N: "1" } },
      UpdateExpression: "SET #o = :o ADD hits :one",
      ExpressionAttributeNames: { "#o": "owner" }, // OWNER is one of DynamoDB's reserved words
      ExpressionAttributeValues: { ":o": { S: "grace" }, ":one": { N: "1" } },
      ReturnValues: "ALL_NEW",
    }),
  );
  assert.deepEqual(upserted.Attributes, {
    id: { S: "doc-3" },
    version: { N: "1" },
    owner: { S: "grace" },
    hits: { N: "1" },
  });

  // Deletes: of an absent item succeeds; a failed condition does not delete
  await dynamo.send(
    new DeleteItemCommand({ TableName: table, Key: { id: { S: "nobody" }, version: { N: "1" } } }),
  );
  await assertRejects(
    () =>
      dynamo.send(
        new DeleteItemCommand({
          TableName: table,
          Key: { id: { S: "doc-1" }, version: { N: "2" } },
          ConditionExpression: "title = :x",
          ExpressionAttributeValues: { ":x": { S: "not v2" } },
        }),
      ),
    ConditionalCheckFailedException,
  );
  const gone = await dynamo.send(
    new DeleteItemCommand({
      TableName: table,
      Key: { id: { S: "doc-1" }, version: { N: "2" } },
      ConditionExpression: "title = :x",
      ExpressionAttributeValues: { ":x": { S: "v2" } },
      ReturnValues: "ALL_OLD",
    }),
  );
  assert.deepEqual(gone.Attributes.title, { S: "v2" });

  // The errors the SDK has classes for
  const missing = uniqueTableName("NoSuchTable");
  await assertRejects(
    () => dynamo.send(new GetItemCommand({ TableName: missing, Key: key })),
    ResourceNotFoundException,
    (e) => {
      assert.equal(e.$metadata.httpStatusCode, 400);
      assert.match(e.message, /^Requested resource not found/);
    },
  );
  await assertRejects(
    () => dynamo.send(new DescribeTableCommand({ TableName: missing })),
    ResourceNotFoundException,
  );
  await assertRejects(
    () =>
      dynamo.send(
        new PutItemCommand({ TableName: table, Item: { id: { S: "no version" } } }),
      ),
    DynamoDBServiceException,
    (e) => {
      assert.equal(e.name, "ValidationException");
      assert.match(e.message, /missing in the item|Missing the key/);
    },
  );
  await assertRejects(
    () =>
      dynamo.send(
        new UpdateItemCommand({
          TableName: table,
          Key: key,
          UpdateExpression: "SET #x = :x",
          ExpressionAttributeValues: { ":x": { S: "x" } },
        }),
      ),
    DynamoDBServiceException,
    (e) => assert.equal(e.name, "ValidationException"),
  );

  // DeleteTable answers DELETING and the table is gone
  const scratch = uniqueTableName("SdkScratch");
  await dynamo.send(
    new CreateTableCommand({
      TableName: scratch,
      AttributeDefinitions: [{ AttributeName: "k", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "k", KeyType: "HASH" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  const dropped = await dynamo.send(new DeleteTableCommand({ TableName: scratch }));
  assert.equal(dropped.TableDescription.TableStatus, "DELETING");
  assert.ok(!(await dynamo.send(new ListTablesCommand({}))).TableNames.includes(scratch));

  return {
    table,
    present: [
      ["doc-1", "1"],
      ["doc-3", "1"],
    ],
    absent: [["doc-1", "2"]],
    deletedTable: scratch,
  };
});
