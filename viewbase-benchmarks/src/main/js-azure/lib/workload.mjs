// The phases of the workload and the test-suite-like run, through the official JavaScript SDK
// (@azure/data-tables), clients built as an emulator user builds them (the well-known
// devstoreaccount1 key, plain http, no retries).
import { AzureNamedKeyCredential, TableClient, TableServiceClient, odata } from "@azure/data-tables";
import net from "node:net";

export const ACCOUNT = "devstoreaccount1";
const KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const credential = new AzureNamedKeyCredential(ACCOUNT, KEY);
const options = { allowInsecureConnection: true, retryOptions: { maxRetries: 0 } };

export const tableClient = (endpoint, table) => new TableClient(endpoint, table, credential, options);
export const serviceClient = (endpoint) => new TableServiceClient(endpoint, credential, options);

// Connections the driver opens, by server port: every TCP connect goes through Socket#connect.
const connects = new Map();
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const opts = typeof args[0] === "object" && !Array.isArray(args[0]) ? args[0] : Array.isArray(args[0]) ? args[0][0] : { port: args[0] };
  const port = Number(opts?.port);
  if (port) connects.set(port, (connects.get(port) ?? 0) + 1);
  return connect.apply(this, args);
};
export const connectionsTo = (port) => connects.get(port) ?? 0;

export const PARTITIONS = 100;
const pad = (n, w) => String(n).padStart(w, "0");
export const partitionKey = (i) => `p${pad(i % PARTITIONS, 3)}`;
export const rowKey = (i) => `r${pad(i, 7)}`;
/** The non-key property the filter phase asks for: 1,000 values, so ENTITIES/1000 matches each. */
export const code = (i) => `C${pad((i * 7919) % 1000, 4)}`;

/** Entity i: ten properties (strings, an int, a double, a boolean, a date) and its keys. */
export function entity(i) {
  return {
    partitionKey: partitionKey(i),
    rowKey: rowKey(i),
    name: `Customer ${i}`,
    email: `customer${i}@example.com`,
    city: ["Lisbon", "Oslo", "Lyon", "Graz", "Turin"][i % 5],
    country: ["PT", "NO", "FR", "AT", "IT"][i % 5],
    age: { value: String(18 + (i % 60)), type: "Int32" },
    score: i % 1000,
    balance: { value: String(i * 1.25 + 0.5), type: "Double" },
    active: i % 3 !== 0,
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 60_000),
    code: code(i),
  };
}

/** Runs `fn(i, worker)` for i in [0, total) on `concurrency` workers; returns each call's latency (ms). */
export async function pool(total, concurrency, fn) {
  const latencies = new Float64Array(total);
  let next = 0;
  let errors = 0;
  let firstError;
  const worker = async (w) => {
    for (let i = next++; i < total; i = next++) {
      const t0 = performance.now();
      try {
        await fn(i, w);
      } catch (e) {
        errors += 1;
        firstError ??= e;
      }
      latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, (_, w) => worker(w)));
  return { latencies, errors, firstError };
}

async function drain(iterable) {
  let n = 0;
  for await (const page of iterable.byPage({ maxPageSize: 1000 })) n += page.length;
  return n;
}

/**
 * The phases, in order, for one server: each is { name, ops, run(ctx) } where ctx carries the
 * endpoint, the run's table names and the settings; run resolves to pool()'s result.
 */
export function phases({ entities, clients, txClients }) {
  const queries = 50;
  const filters = 20;
  const scans = 3;
  const transactions = 100;
  const txSize = 100;
  return [
    {
      name: "insert",
      ops: entities,
      async setup(ctx) {
        await serviceClient(ctx.endpoint).createTable(ctx.table);
        ctx.clients = Array.from({ length: clients }, () => tableClient(ctx.endpoint, ctx.table));
      },
      run: (ctx) => pool(entities, clients, (i, w) => ctx.clients[w].createEntity(entity(i))),
    },
    {
      name: "point read",
      ops: entities,
      run: (ctx) => {
        const order = shuffled(entities, 7);
        return pool(entities, clients, async (i, w) => {
          const e = await ctx.clients[w].getEntity(partitionKey(order[i]), rowKey(order[i]));
          if (e.rowKey !== rowKey(order[i])) throw new Error(`read ${e.rowKey}, wanted ${rowKey(order[i])}`);
        });
      },
    },
    {
      name: "partition query",
      ops: queries,
      run: (ctx) => pool(queries, 1, async (i) => {
        const pk = partitionKey(i * 37);
        const n = await drain(ctx.clients[0].listEntities({ queryOptions: { filter: odata`PartitionKey eq ${pk}` } }));
        const want = Math.floor(entities / PARTITIONS) + (i * 37 % PARTITIONS < entities % PARTITIONS ? 1 : 0);
        if (n !== want) throw new Error(`partition ${pk}: ${n} entities, wanted ${want}`);
      }),
    },
    {
      name: "non-key filter",
      ops: filters,
      run: (ctx) => pool(filters, 1, async (i) => {
        const c = code(i * 13 + 1);
        const n = await drain(ctx.clients[0].listEntities({ queryOptions: { filter: odata`code eq ${c}` } }));
        if (n === 0) throw new Error(`code ${c}: no entity`);
      }),
    },
    {
      name: "scan",
      ops: scans,
      run: (ctx) => pool(scans, 1, async () => {
        const n = await drain(ctx.clients[0].listEntities());
        if (n !== entities) throw new Error(`scan: ${n} entities, wanted ${entities}`);
      }),
    },
    {
      name: "100-op transaction",
      ops: transactions,
      async setup(ctx) {
        await serviceClient(ctx.endpoint).createTable(ctx.txTable);
        ctx.txClients = Array.from({ length: txClients }, () => tableClient(ctx.endpoint, ctx.txTable));
      },
      run: (ctx) => pool(transactions, txClients, (t, w) => ctx.txClients[w].submitTransaction(
        Array.from({ length: txSize }, (_, k) => ["create", { ...entity(t * txSize + k), partitionKey: `t${pad(t, 4)}` }]),
      )),
    },
  ];
}

/** 0..n-1 in a fixed pseudo-random order (the same for both servers). */
function shuffled(n, seed) {
  const a = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * What a typical application test suite sends an emulator: a table, ~200 writes over a few
 * partitions, ~100 reads, merges and replaces with ETags, a few queries (one on a non-key
 * property), two transactions, deletes, a 404, and the table dropped; at most 4 requests at once.
 * Resolves to the number of requests sent.
 */
export async function testSuite(endpoint) {
  let requests = 0;
  const count = (promise) => {
    requests += 1;
    return promise;
  };
  const table = `suite${Date.now() % 1_000_000}`;
  await count(serviceClient(endpoint).createTable(table));
  const c = tableClient(endpoint, table);
  const key = (i) => ({ partitionKey: `user${i % 4}`, rowKey: `item${pad(i, 4)}` });
  const check = (ok, what) => {
    if (!ok) throw new Error(what);
  };
  const run = async (n, fn) => {
    const r = await pool(n, 4, fn);
    requests += n;
    if (r.errors) throw r.firstError;
  };
  await run(100, (i) => c.createEntity({ ...entity(i), ...key(i) }));
  await run(100, (i) => c.upsertEntity({ ...entity(i + 100), ...key(i + 100) }, i % 2 ? "Merge" : "Replace"));
  await run(100, async (i) => {
    const e = await c.getEntity(key(i * 2).partitionKey, key(i * 2).rowKey);
    check(e.rowKey === key(i * 2).rowKey, "wrong entity");
  });
  await run(20, async (i) => {
    const { partitionKey: pk, rowKey: rk } = key(i);
    const e = await c.getEntity(pk, rk);
    requests += 1;
    await c.updateEntity({ partitionKey: pk, rowKey: rk, city: "Porto" }, "Merge", { etag: e.etag });
  });
  await run(20, async (i) => {
    const { partitionKey: pk, rowKey: rk } = key(i + 20);
    const e = await c.getEntity(pk, rk);
    requests += 1;
    await c.updateEntity({ ...entity(i), partitionKey: pk, rowKey: rk, city: "Faro" }, "Replace", { etag: e.etag });
  });
  for (const filter of [odata`PartitionKey eq ${"user1"}`, odata`PartitionKey eq ${"user2"} and RowKey ge ${"item0100"}`,
    odata`city eq ${"Porto"}`, odata`score gt ${990}`, odata`active eq ${false} and age lt ${30}`]) {
    for await (const page of c.listEntities({ queryOptions: { filter } }).byPage()) {
      requests += 1;
      check(Array.isArray(page), "no page");
    }
  }
  for (const t of [0, 1]) {
    await count(c.submitTransaction(Array.from({ length: 10 }, (_, k) => ["create", { partitionKey: `batch${t}`, rowKey: `b${k}`, n: k }])));
  }
  await run(30, (i) => c.deleteEntity(key(i + 150).partitionKey, key(i + 150).rowKey));
  let missing = false;
  try {
    await count(c.getEntity("user0", "nosuchitem"));
  } catch (e) {
    missing = e.statusCode === 404;
  }
  check(missing, "a missing entity's get did not answer 404");
  await count(serviceClient(endpoint).deleteTable(table));
  return requests;
}
