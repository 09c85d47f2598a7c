// One ElectroDB entity through its whole life: put, create (a condition: a second create fails),
// get, update with set/add/append/delete/remove and a where clause, patch and remove (which need
// the item), delete; and the keys ElectroDB composes (its own format and a custom template), read
// back raw through the low-level SDK.
import { GetItemCommand } from "@aws-sdk/client-dynamodb";
import { ElectroError, Entity } from "electrodb";
import assert from "node:assert/strict";
import { assertRejects, client, createSingleTable, documentClient, run } from "../lib/harness.js";

/** An ElectroError whose cause is the SDK's ConditionalCheckFailedException. */
function conditionFailed(e) {
  assert.equal(e.cause?.name, "ConditionalCheckFailedException", e.message);
}

run(async () => {
  const table = await createSingleTable("ElectroEntity");
  const config = { table, client: documentClient() };
  const users = new Entity(
    {
      model: { entity: "user", version: "1", service: "platform" },
      attributes: {
        organizationId: { type: "string", required: true },
        userId: { type: "string", required: true },
        name: { type: "string", required: true },
        email: { type: "string" },
        logins: { type: "number", default: 0 },
        roles: { type: "set", items: "string" },
        tags: { type: "list", items: { type: "string" } },
        profile: {
          type: "map",
          properties: { city: { type: "string" }, age: { type: "number" } },
        },
        active: { type: "boolean", default: true },
      },
      indexes: {
        byOrganization: {
          pk: { field: "pk", composite: ["organizationId"] },
          sk: { field: "sk", composite: ["userId"] },
        },
        byEmail: {
          index: "gsi1",
          pk: { field: "gsi1pk", composite: ["email"] },
          sk: { field: "gsi1sk", composite: [] },
        },
      },
    },
    config,
  );
  const products = new Entity(
    {
      model: { entity: "product", version: "1", service: "shop" },
      attributes: {
        storeId: { type: "string", required: true },
        sku: { type: "string", required: true },
        price: { type: "number", required: true },
      },
      indexes: {
        bySku: {
          pk: { field: "pk", composite: ["storeId"], template: "STORE#${storeId}", casing: "none" },
          sk: { field: "sk", composite: ["sku"], template: "SKU#${sku}", casing: "none" },
        },
      },
    },
    config,
  );

  const ada = {
    organizationId: "o1",
    userId: "ada",
    name: "Ada",
    email: "ada@example.com",
    roles: ["dev"],
    tags: ["first"],
    profile: { city: "London", age: 36 },
  };
  const put = await users.put(ada).go();
  assert.deepEqual(put.data, { ...ada, logins: 0, active: true });

  // The keys ElectroDB composed, as the server stored them
  const raw = await client().send(
    new GetItemCommand({
      TableName: table,
      Key: { pk: { S: "$platform#organizationid_o1" }, sk: { S: "$user_1#userid_ada" } },
    }),
  );
  assert.deepEqual(raw.Item, {
    organizationId: { S: "o1" },
    userId: { S: "ada" },
    name: { S: "Ada" },
    email: { S: "ada@example.com" },
    logins: { N: "0" },
    roles: { SS: ["dev"] },
    tags: { L: [{ S: "first" }] },
    profile: { M: { city: { S: "London" }, age: { N: "36" } } },
    active: { BOOL: true },
    pk: { S: "$platform#organizationid_o1" },
    sk: { S: "$user_1#userid_ada" },
    gsi1pk: { S: "$platform#email_ada@example.com" },
    gsi1sk: { S: "$user_1" },
    __edb_e__: { S: "user" },
    __edb_v__: { S: "1" },
  });

  // create is a put on the condition that the item is absent
  await assertRejects(
    () => users.create({ organizationId: "o1", userId: "ada", name: "Impostor" }).go(),
    ElectroError,
    conditionFailed,
  );
  const grace = await users
    .create({ organizationId: "o1", userId: "grace", name: "Grace", email: "grace@example.com" })
    .go();
  assert.equal(grace.data.name, "Grace");

  const got = await users.get({ organizationId: "o1", userId: "ada" }).go();
  assert.deepEqual(got.data, { ...ada, logins: 0, active: true });
  const nobody = await users.get({ organizationId: "o1", userId: "nobody" }).go();
  assert.equal(nobody.data, null);
  const byEmail = await users.query.byEmail({ email: "grace@example.com" }).go();
  assert.deepEqual(
    byEmail.data.map((u) => u.userId),
    ["grace"],
  );

  const updated = await users
    .update({ organizationId: "o1", userId: "ada" })
    .set({ name: "Ada Lovelace", "profile.city": "Marylebone" })
    .add({ logins: 3, roles: ["admin"] })
    .append({ tags: ["second"] })
    .go({ response: "all_new" });
  assert.deepEqual(updated.data, {
    ...ada,
    name: "Ada Lovelace",
    logins: 3,
    roles: ["dev", "admin"],
    tags: ["first", "second"],
    profile: { city: "Marylebone", age: 36 },
    active: true,
  });
  const old = await users
    .update({ organizationId: "o1", userId: "ada" })
    .delete({ roles: ["dev"] })
    .subtract({ logins: 1 })
    .remove(["tags", "active"])
    .go({ response: "updated_old" });
  // ElectroDB sets the key's composite attributes on every update, so they are "updated" too
  assert.deepEqual(old.data, {
    organizationId: "o1",
    userId: "ada",
    logins: 3,
    roles: ["dev", "admin"],
    tags: ["first", "second"],
    active: true,
  });
  // a where clause is the update's condition
  await assertRejects(
    () =>
      users
        .update({ organizationId: "o1", userId: "ada" })
        .set({ name: "Too many logins" })
        .where(({ logins }, { gt }) => gt(logins, 100))
        .go(),
    ElectroError,
    conditionFailed,
  );
  await users
    .update({ organizationId: "o1", userId: "ada" })
    .add({ logins: 1 })
    .where(({ logins }, { eq }) => eq(logins, 2))
    .go();

  // patch and remove need the item; update and delete do not
  const patched = await users
    .patch({ organizationId: "o1", userId: "grace" })
    .set({ name: "Grace Hopper" })
    .go({ response: "all_new" });
  assert.equal(patched.data.name, "Grace Hopper");
  await assertRejects(
    () => users.patch({ organizationId: "o1", userId: "nobody" }).set({ name: "x" }).go(),
    ElectroError,
    conditionFailed,
  );
  await assertRejects(
    () => users.remove({ organizationId: "o1", userId: "nobody" }).go(),
    ElectroError,
    conditionFailed,
  );
  await users.delete({ organizationId: "o1", userId: "nobody" }).go();
  const deleted = await users
    .delete({ organizationId: "o1", userId: "grace" })
    .go({ response: "all_old" });
  assert.equal(deleted.data.name, "Grace Hopper");
  assert.equal((await users.get({ organizationId: "o1", userId: "grace" }).go()).data, null);
  assert.deepEqual((await users.query.byEmail({ email: "grace@example.com" }).go()).data, []);

  const final = await users.get({ organizationId: "o1", userId: "ada" }).go();
  assert.deepEqual(final.data, {
    organizationId: "o1",
    userId: "ada",
    name: "Ada Lovelace",
    email: "ada@example.com",
    logins: 3,
    roles: ["admin"],
    profile: { city: "Marylebone", age: 36 },
  });

  // a custom template: the key is the template, in its own casing
  await products.put({ storeId: "Berlin", sku: "A-17", price: 12.5 }).go();
  const product = await client().send(
    new GetItemCommand({
      TableName: table,
      Key: { pk: { S: "STORE#Berlin" }, sk: { S: "SKU#A-17" } },
      ProjectionExpression: "price, storeId",
    }),
  );
  assert.deepEqual(product.Item, { price: { N: "12.5" }, storeId: { S: "Berlin" } });
  assert.deepEqual(
    (await products.get({ storeId: "Berlin", sku: "A-17" }).go()).data,
    { storeId: "Berlin", sku: "A-17", price: 12.5 },
  );

  return {
    table,
    present: [
      ["$platform#organizationid_o1", "$user_1#userid_ada"],
      ["STORE#Berlin", "SKU#A-17"],
    ],
    absent: [
      ["$platform#organizationid_o1", "$user_1#userid_grace"],
      ["$platform#organizationid_o1", "$user_1#userid_nobody"],
    ],
    name: "Ada Lovelace",
    logins: 3,
  };
});
