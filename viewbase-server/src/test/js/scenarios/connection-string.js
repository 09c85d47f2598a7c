// The connection-string form an emulator user copies into their configuration. UseDevelopmentStorage=true
// means the server on port 10002 (DevelopmentStorageSdkTest covers it with the Java SDK); here the
// explicit form names this server's endpoint. Over http the SDK needs allowInsecureConnection, which
// it sets by itself only for UseDevelopmentStorage=true.
import assert from "node:assert/strict";
import { TableClient, TableServiceClient } from "@azure/data-tables";
import { accountKey, accountName, all, clientOptions, endpoint, run, uniqueTableName } from "../lib/harness.js";

run(async () => {
  const connectionString =
    `DefaultEndpointsProtocol=http;AccountName=${accountName};AccountKey=${accountKey};TableEndpoint=${endpoint};`;
  const service = TableServiceClient.fromConnectionString(connectionString, clientOptions);
  const name = uniqueTableName("JsConnection");
  await service.createTable(name);
  assert.ok((await all(service.listTables())).some((t) => t.name === name));

  const table = TableClient.fromConnectionString(connectionString, name, clientOptions);
  await table.createEntity({ partitionKey: "p", rowKey: "r", answer: 42 });
  assert.equal((await table.getEntity("p", "r")).answer, 42);
  await table.submitTransaction([["upsert", { partitionKey: "p", rowKey: "t", answer: 43 }]]);
  assert.equal((await table.getEntity("p", "t")).answer, 43);

  return { table: name, partitionKey: "p", ids: ["r", "t"] };
});
