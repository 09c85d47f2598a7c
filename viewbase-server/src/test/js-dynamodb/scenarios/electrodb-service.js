// An ElectroDB Service over one table, modelled on ElectroDB's RFC on namespacing partitions
// (organizations, their users, the users' sessions): scoped partitions on the table and on an
// index, a collection of two entities sharing a global index, batch put/get/delete, and the
// service's write and get transactions, committed and canceled.
import { QueryCommand } from "@aws-sdk/client-dynamodb";
import { Entity, Service } from "electrodb";
import assert from "node:assert/strict";
import { client, createSingleTable, documentClient, run, sortedBy } from "../lib/harness.js";

run(async () => {
  const table = await createSingleTable("ElectroService");
  const requests = [];
  const config = {
    table,
    client: documentClient(),
    listeners: [
      (event) => {
        if (event.type === "query") {
          requests.push(event.method);
        }
      },
    ],
  };
  const organization = new Entity(
    {
      model: { entity: "organization", version: "1", service: "platform" },
      attributes: {
        organizationId: { type: "string", required: true },
        name: { type: "string", required: true },
        seats: { type: "number", default: 0 },
      },
      indexes: {
        byId: {
          scope: "organization",
          pk: { field: "pk", composite: ["organizationId"] },
          sk: { field: "sk", composite: [] },
        },
        members: {
          index: "gsi1",
          collection: "members",
          pk: { field: "gsi1pk", composite: ["organizationId"] },
          sk: { field: "gsi1sk", composite: [] },
        },
        all: {
          index: "gsi2",
          scope: "organizations",
          pk: { field: "gsi2pk", composite: [] },
          sk: { field: "gsi2sk", composite: ["name"] },
        },
      },
    },
    config,
  );
  const user = new Entity(
    {
      model: { entity: "user", version: "1", service: "platform" },
      attributes: {
        organizationId: { type: "string", required: true },
        userId: { type: "string", required: true },
        name: { type: "string", required: true },
      },
      indexes: {
        byOrganization: {
          scope: "user",
          pk: { field: "pk", composite: ["organizationId"] },
          sk: { field: "sk", composite: ["userId"] },
        },
        members: {
          index: "gsi1",
          collection: "members",
          pk: { field: "gsi1pk", composite: ["organizationId"] },
          sk: { field: "gsi1sk", composite: ["userId"] },
        },
      },
    },
    config,
  );
  const session = new Entity(
    {
      model: { entity: "session", version: "1", service: "platform" },
      attributes: {
        userId: { type: "string", required: true },
        sessionId: { type: "string", required: true },
        expires: { type: "number", required: true },
      },
      indexes: {
        byUser: {
          scope: "session",
          pk: { field: "pk", composite: ["userId"] },
          sk: { field: "sk", composite: ["sessionId"] },
        },
      },
    },
    config,
  );
  const platform = new Service({ organization, user, session });

  await organization.create({ organizationId: "acme", name: "Acme" }).go();
  await organization.create({ organizationId: "bolt", name: "Bolt" }).go();
  await organization.create({ organizationId: "core", name: "Core" }).go();

  // Batch put: 30 users in BatchWriteItem requests of at most 25
  const users = [];
  for (let i = 0; i < 30; i++) {
    users.push({
      organizationId: i < 20 ? "acme" : "bolt",
      userId: `u${String(i).padStart(2, "0")}`,
      name: `User ${i}`,
    });
  }
  const putAll = await user.put(users).go();
  assert.deepEqual(putAll.unprocessed, []);
  await session.put({ userId: "u00", sessionId: "s1", expires: 1700000000 }).go();

  // The collection: one query of the shared index, its items sorted out by entity
  requests.length = 0;
  const acme = await platform.collections.members({ organizationId: "acme" }).go({ pages: "all" });
  assert.deepEqual(Object.keys(acme.data).sort(), ["organization", "user"]);
  assert.deepEqual(acme.data.organization, [{ organizationId: "acme", name: "Acme", seats: 0 }]);
  assert.deepEqual(
    acme.data.user,
    users.filter((u) => u.organizationId === "acme"),
  );
  assert.deepEqual(requests, ["query"], "a collection is one query");
  const bolt = await platform.collections.members({ organizationId: "bolt" }).go();
  assert.equal(bolt.data.organization.length, 1);
  assert.deepEqual(
    bolt.data.user.map((u) => u.userId),
    ["u20", "u21", "u22", "u23", "u24", "u25", "u26", "u27", "u28", "u29"],
  );

  // Namespaces: the scope is a static prefix of the partition key that no caller passes
  const partition = async (pk, index) => {
    const field = index ? `${index}pk` : "pk";
    const answer = await client().send(
      new QueryCommand({
        TableName: table,
        IndexName: index,
        KeyConditionExpression: "#pk = :pk",
        ExpressionAttributeNames: { "#pk": field },
        ExpressionAttributeValues: { ":pk": { S: pk } },
      }),
    );
    return answer.Items.map((i) => [i.__edb_e__.S, i.sk.S]);
  };
  assert.deepEqual(await partition("$platform#organizationid_acme"), [], "no unscoped partition");
  assert.deepEqual(await partition("$platform_organization#organizationid_acme"), [
    ["organization", "$organization_1"],
  ]);
  const acmeUsers = await partition("$platform_user#organizationid_acme");
  assert.equal(acmeUsers.length, 20);
  assert.deepEqual(acmeUsers[0], ["user", "$user_1#userid_u00"]);
  assert.deepEqual(await partition("$platform_session#userid_u00"), [
    ["session", "$session_1#sessionid_s1"],
  ]);
  assert.deepEqual(
    (await partition("$platform_organizations", "gsi2")).map(([e]) => e),
    ["organization", "organization", "organization"],
  );
  assert.deepEqual(
    (await organization.query.all({}).go()).data.map((o) => o.name),
    ["Acme", "Bolt", "Core"],
  );
  assert.deepEqual(
    (await organization.query.all({}).begins({ name: "B" }).go()).data.map((o) => o.name),
    ["Bolt"],
  );
  assert.deepEqual(
    (await session.query.byUser({ userId: "u00" }).go()).data,
    [{ userId: "u00", sessionId: "s1", expires: 1700000000 }],
  );

  // Batch get: found items in any order; a missing key is simply not there
  const keys = ["u03", "u21", "u07", "nobody"].map((userId) => ({
    organizationId: userId === "u21" ? "bolt" : "acme",
    userId,
  }));
  const got = await user.get(keys).go();
  assert.deepEqual(got.unprocessed, []);
  assert.deepEqual(
    sortedBy(got.data, "userId"),
    users.filter((u) => ["u03", "u07", "u21"].includes(u.userId)),
  );

  // Batch delete
  const deleted = await user
    .delete(users.filter((u) => u.organizationId === "bolt").slice(5))
    .go();
  assert.deepEqual(deleted.unprocessed, []);
  assert.deepEqual(
    (await user.query.byOrganization({ organizationId: "bolt" }).go()).data.map((u) => u.userId),
    ["u20", "u21", "u22", "u23", "u24"],
  );

  // A write transaction commits all of its actions...
  const committed = await platform.transaction
    .write(({ user, organization, session }) => [
      user.create({ organizationId: "core", userId: "u90", name: "Linus" }).commit(),
      organization.patch({ organizationId: "core" }).add({ seats: 1 }).commit(),
      session.delete({ userId: "u00", sessionId: "s1" }).commit(),
      user
        .check({ organizationId: "acme", userId: "u00" })
        .where(({ name }, { eq }) => eq(name, "User 0"))
        .commit(),
    ])
    .go();
  assert.equal(committed.canceled, false);
  assert.deepEqual(
    (await organization.get({ organizationId: "core" }).go()).data,
    { organizationId: "core", name: "Core", seats: 1 },
  );
  assert.deepEqual((await session.query.byUser({ userId: "u00" }).go()).data, []);

  // ...or none: one failed condition cancels them all, with a reason per action
  const canceled = await platform.transaction
    .write(({ user, organization }) => [
      user.create({ organizationId: "core", userId: "u91", name: "Ken" }).commit(),
      organization.patch({ organizationId: "core" }).add({ seats: 1 }).commit(),
      user
        .create({ organizationId: "core", userId: "u90", name: "Linus again" })
        .commit({ response: "all_old" }),
      organization.patch({ organizationId: "nowhere" }).set({ name: "Nowhere" }).commit(),
    ])
    .go();
  assert.equal(canceled.canceled, true);
  assert.deepEqual(
    canceled.data.map((d) => [d.rejected, d.code]),
    [
      [false, "None"],
      [false, "None"],
      [true, "ConditionalCheckFailed"],
      [true, "ConditionalCheckFailed"],
    ],
  );
  assert.deepEqual(canceled.data[2].item, { organizationId: "core", userId: "u90", name: "Linus" });
  assert.equal((await user.get({ organizationId: "core", userId: "u91" }).go()).data, null);
  assert.equal((await organization.get({ organizationId: "core" }).go()).data.seats, 1);
  assert.equal((await organization.get({ organizationId: "nowhere" }).go()).data, null);

  // A get transaction reads its items as one snapshot, in the order asked
  const read = await platform.transaction
    .get(({ user, organization }) => [
      organization.get({ organizationId: "core" }).commit(),
      user.get({ organizationId: "core", userId: "u90" }).commit(),
      user.get({ organizationId: "core", userId: "u91" }).commit(),
    ])
    .go();
  assert.equal(read.canceled, false);
  assert.deepEqual(
    read.data.map((d) => d.item),
    [
      { organizationId: "core", name: "Core", seats: 1 },
      { organizationId: "core", userId: "u90", name: "Linus" },
      null,
    ],
  );

  return {
    table,
    present: [
      ["$platform_organization#organizationid_core", "$organization_1"],
      ["$platform_user#organizationid_core", "$user_1#userid_u90"],
      ["$platform_user#organizationid_bolt", "$user_1#userid_u24"],
    ],
    absent: [
      ["$platform_user#organizationid_core", "$user_1#userid_u91"],
      ["$platform_user#organizationid_bolt", "$user_1#userid_u25"],
      ["$platform_session#userid_u00", "$session_1#sessionid_s1"],
      ["$platform_organization#organizationid_nowhere", "$organization_1"],
    ],
  };
});
