// The low-level SDK's multi-item operations: BatchWriteItem (puts and deletes over two tables),
// BatchGetItem with a projection, TransactWriteItems committed, canceled with its
// CancellationReasons, and repeated with a ClientRequestToken, and TransactGetItems.
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  CreateTableCommand,
  DynamoDBServiceException,
  GetItemCommand,
  IdempotentParameterMismatchException,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { assertRejects, client, run, uniqueTableName } from "../lib/harness.js";

run(async () => {
  const dynamo = client();
  const accounts = uniqueTableName("SdkAccounts");
  const ledger = uniqueTableName("SdkLedger");
  await dynamo.send(
    new CreateTableCommand({
      TableName: accounts,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [{ AttributeName: "account", AttributeType: "S" }],
      KeySchema: [{ AttributeName: "account", KeyType: "HASH" }],
    }),
  );
  await dynamo.send(
    new CreateTableCommand({
      TableName: ledger,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [
        { AttributeName: "account", AttributeType: "S" },
        { AttributeName: "entry", AttributeType: "N" },
      ],
      KeySchema: [
        { AttributeName: "account", KeyType: "HASH" },
        { AttributeName: "entry", KeyType: "RANGE" },
      ],
    }),
  );
  const account = (name) => ({ account: { S: name } });
  const balance = async (name) => {
    const got = await dynamo.send(new GetItemCommand({ TableName: accounts, Key: account(name) }));
    return got.Item?.balance?.N;
  };

  // BatchWriteItem: puts on two tables at once, then puts and deletes mixed
  const written = await dynamo.send(
    new BatchWriteItemCommand({
      RequestItems: {
        [accounts]: ["alice", "bob", "carol", "dave"].map((name) => ({
          PutRequest: { Item: { ...account(name), balance: { N: "100" }, owner: { S: name } } },
        })),
        [ledger]: [1, 2, 3].map((n) => ({
          PutRequest: { Item: { ...account("alice"), entry: { N: String(n) }, amount: { N: "1" } } },
        })),
      },
    }),
  );
  assert.deepEqual(written.UnprocessedItems, {});
  await dynamo.send(
    new BatchWriteItemCommand({
      RequestItems: {
        [accounts]: [{ DeleteRequest: { Key: account("dave") } }],
        [ledger]: [
          { DeleteRequest: { Key: { ...account("alice"), entry: { N: "3" } } } },
          { PutRequest: { Item: { ...account("bob"), entry: { N: "1" }, amount: { N: "5" } } } },
        ],
      },
    }),
  );
  await assertRejects(
    () =>
      dynamo.send(
        new BatchWriteItemCommand({
          RequestItems: {
            [accounts]: [
              { PutRequest: { Item: account("erin") } },
              { DeleteRequest: { Key: account("erin") } },
            ],
          },
        }),
      ),
    DynamoDBServiceException,
    (e) => {
      assert.equal(e.name, "ValidationException");
      assert.match(e.message, /duplicates/);
    },
  );

  // BatchGetItem over both tables, with a projection on one
  const got = await dynamo.send(
    new BatchGetItemCommand({
      RequestItems: {
        [accounts]: {
          Keys: ["alice", "bob", "dave", "nobody"].map(account),
          ProjectionExpression: "account, balance",
        },
        [ledger]: {
          Keys: [
            { ...account("alice"), entry: { N: "1" } },
            { ...account("alice"), entry: { N: "3" } },
            { ...account("bob"), entry: { N: "1" } },
          ],
        },
      },
    }),
  );
  assert.deepEqual(got.UnprocessedKeys, {});
  const byAccount = (items) => [...items].sort((a, b) => (a.account.S < b.account.S ? -1 : 1));
  assert.deepEqual(byAccount(got.Responses[accounts]), [
    { account: { S: "alice" }, balance: { N: "100" } },
    { account: { S: "bob" }, balance: { N: "100" } },
  ]);
  assert.deepEqual(byAccount(got.Responses[ledger]), [
    { account: { S: "alice" }, entry: { N: "1" }, amount: { N: "1" } },
    { account: { S: "bob" }, entry: { N: "1" }, amount: { N: "5" } },
  ]);

  // A transfer: condition, update, put and check in one commit
  const transfer = (from, to, amount, entry) => [
    {
      Update: {
        TableName: accounts,
        Key: account(from),
        UpdateExpression: "SET balance = balance - :a",
        ConditionExpression: "balance >= :a",
        ExpressionAttributeValues: { ":a": { N: String(amount) } },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      },
    },
    {
      Update: {
        TableName: accounts,
        Key: account(to),
        UpdateExpression: "SET balance = balance + :a",
        ConditionExpression: "attribute_exists(account)",
        ExpressionAttributeValues: { ":a": { N: String(amount) } },
      },
    },
    {
      Put: {
        TableName: ledger,
        Item: { ...account(from), entry: { N: String(entry) }, amount: { N: String(-amount) } },
        ConditionExpression: "attribute_not_exists(entry)",
      },
    },
    {
      ConditionCheck: {
        TableName: accounts,
        Key: account("carol"),
        ConditionExpression: "attribute_exists(account)",
      },
    },
  ];
  await dynamo.send(new TransactWriteItemsCommand({ TransactItems: transfer("alice", "bob", 30, 10) }));
  assert.equal(await balance("alice"), "70");
  assert.equal(await balance("bob"), "130");

  // Canceled: too little money, and an account that does not exist; nothing is written
  await assertRejects(
    () =>
      dynamo.send(new TransactWriteItemsCommand({ TransactItems: transfer("alice", "dave", 500, 11) })),
    TransactionCanceledException,
    (e) => {
      assert.equal(e.name, "TransactionCanceledException");
      assert.match(e.message, /^Transaction cancelled, please refer cancellation reasons for specific reasons \[ConditionalCheckFailed, ConditionalCheckFailed, None, None\]$/);
      assert.deepEqual(
        e.CancellationReasons.map((r) => r.Code),
        ["ConditionalCheckFailed", "ConditionalCheckFailed", "None", "None"],
      );
      assert.deepEqual(e.CancellationReasons[0].Item, {
        account: { S: "alice" },
        balance: { N: "70" },
        owner: { S: "alice" },
      });
      assert.equal(e.CancellationReasons[1].Item, undefined);
      assert.equal(e.CancellationReasons[0].Message, "The conditional request failed");
    },
  );
  assert.equal(await balance("alice"), "70");
  const entry11 = await dynamo.send(
    new GetItemCommand({ TableName: ledger, Key: { ...account("alice"), entry: { N: "11" } } }),
  );
  assert.equal(entry11.Item, undefined);
  await assertRejects(
    () =>
      dynamo.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: accounts, Item: account("x") } },
            { Delete: { TableName: accounts, Key: account("x") } },
          ],
        }),
      ),
    DynamoDBServiceException,
    (e) => {
      assert.equal(e.name, "ValidationException");
      assert.match(e.message, /multiple operations on one item/);
    },
  );

  // ClientRequestToken: a repeat is answered without applying again; other content is refused
  const token = randomUUID();
  const deposit = {
    Update: {
      TableName: accounts,
      Key: account("carol"),
      UpdateExpression: "ADD balance :one",
      ExpressionAttributeValues: { ":one": { N: "1" } },
    },
  };
  for (let i = 0; i < 3; i++) {
    await dynamo.send(new TransactWriteItemsCommand({ ClientRequestToken: token, TransactItems: [deposit] }));
  }
  assert.equal(await balance("carol"), "101");
  await assertRejects(
    () =>
      dynamo.send(
        new TransactWriteItemsCommand({
          ClientRequestToken: token,
          TransactItems: [{ ...deposit, Update: { ...deposit.Update, Key: account("bob") } }],
        }),
      ),
    IdempotentParameterMismatchException,
  );

  // TransactGetItems: in the order asked, an absent item as an empty response
  const read = await dynamo.send(
    new TransactGetItemsCommand({
      TransactItems: [
        { Get: { TableName: accounts, Key: account("bob"), ProjectionExpression: "balance" } },
        { Get: { TableName: accounts, Key: account("nobody") } },
        { Get: { TableName: ledger, Key: { ...account("alice"), entry: { N: "10" } } } },
      ],
    }),
  );
  assert.deepEqual(
    read.Responses.map((r) => r.Item),
    [
      { balance: { N: "130" } },
      undefined,
      { account: { S: "alice" }, entry: { N: "10" }, amount: { N: "-30" } },
    ],
  );

  return {
    accounts,
    ledger,
    balances: { alice: "70", bob: "130", carol: "101" },
    absent: ["dave", "erin", "x"],
  };
});
