// The JavaScript-SDK workload against Viewbase and Azurite side by side, fresh servers (issue 25).
// Run by ../../../azure-js-bench.sh, which starts both servers and passes them here:
//
//   node bench.mjs --target NAME,ENDPOINT,PID,START_TO_PORT_MS [--target ...]
//
// Settings come from the environment (see the script): ENTITIES, CLIENTS, TX_CLIENTS, REPEAT,
// SKIP_SUITE, CLK_TCK, RESULT, and for the test-suite-like runs LAUNCHER, AZURITE_BIN, WORK,
// SERVER_JAVA_OPTS, SERVE_ARGS.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname } from "node:path";
import { delta, establishedTo, groupThreads, jvmThreadNames, sample, threadGroup } from "./lib/proc.mjs";
import { freePort, startServer, stopServer } from "./lib/servers.mjs";
import { connectionsTo, phases, testSuite } from "./lib/workload.mjs";

const env = (name, fallback) => process.env[name] || fallback;
const settings = {
  entities: Number(env("ENTITIES", 10000)),
  clients: Number(env("CLIENTS", 32)),
  txClients: Number(env("TX_CLIENTS", 8)),
  repeat: Number(env("REPEAT", 3)),
  skipSuite: env("SKIP_SUITE", "") === "1",
  ticksPerSecond: Number(env("CLK_TCK", 100)),
};
const resultPath = env("RESULT", "result.json");

const targets = [];
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === "--target") {
    const [name, endpoint, pid, portMs] = process.argv[++i].split(",");
    targets.push({ name, endpoint, pid: Number(pid), port: Number(new URL(endpoint).port), startToPortMs: Number(portMs) });
  }
}
if (targets.length === 0) {
  console.error("usage: node bench.mjs --target NAME,ENDPOINT,PID,START_TO_PORT_MS ...");
  process.exit(2);
}

const log = (...a) => console.error(`[${(process.uptime()).toFixed(0)}s]`, ...a);
const percentile = (sorted, p) => (sorted.length ? sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] : NaN);
const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs one phase on one target, measured: wall time, latencies, server and driver CPU, connections. */
async function measure(phase, target, ctx) {
  if (phase.setup) await phase.setup(ctx);
  const connsBefore = connectionsTo(target.port);
  const cpuBefore = sample(target.pid);
  const driverBefore = process.cpuUsage();
  const t0 = performance.now();
  const { latencies, errors, firstError } = await phase.run(ctx);
  const wallMs = performance.now() - t0;
  const driver = process.cpuUsage(driverBefore);
  const cpu = delta(cpuBefore, sample(target.pid), settings.ticksPerSecond);
  if (errors) log(`${target.name} ${phase.name}: ${errors} of ${phase.ops} failed; the first: ${firstError?.stack ?? firstError}`);
  const sorted = Array.from(latencies).sort((a, b) => a - b);
  return {
    phase: phase.name,
    server: target.name,
    ops: phase.ops,
    errors,
    wallMs,
    opsPerSecond: (phase.ops / wallMs) * 1000,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    serverCpuUsPerOp: cpu.nanos / 1000 / phase.ops,
    serverCpuMs: cpu.nanos / 1e6,
    driverCpuUsPerOp: (driver.user + driver.system) / phase.ops,
    connectionsOpened: connectionsTo(target.port) - connsBefore,
    connectionsEstablished: establishedTo(target.port),
    serverThreadsAlive: cpu.liveThreads,
    cpu,
    // each latency in the order the operations ran, for the short serial phases: how a fresh
    // server's first queries compare with its later ones (warm-up) is in them, not in the median
    ...(phase.ops <= 100 ? { latenciesInOrderMs: Array.from(latencies) } : {}),
  };
}

/** The whole workload once, the targets taking turns phase by phase. */
async function workload(runName, suffix) {
  const list = phases(settings);
  const contexts = targets.map((t) => ({ endpoint: t.endpoint, table: `bench${suffix}`, txTable: `benchtx${suffix}` }));
  const rows = [];
  for (const phase of list) {
    for (let k = 0; k < targets.length; k++) {
      log(`${runName}: ${phase.name} on ${targets[k].name}...`);
      const row = await measure(phase, targets[k], contexts[k]);
      row.run = runName;
      rows.push(row);
      log(`  ${fmt(row.opsPerSecond, 0)} ops/s, p50 ${fmt(row.p50Ms, 2)} ms, server CPU ${fmt(row.serverCpuUsPerOp, 0)} µs/op`);
    }
  }
  return rows;
}

/**
 * Stops the main run's servers (SIGTERM) before the test-suite-like runs, so that they do not sit
 * beside the fresh ones; waits until each is gone or a zombie (the script, their parent, reaps them).
 */
async function stopTargets() {
  const state = (pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    } catch {
      return "gone";
    }
  };
  for (const t of targets) {
    try {
      process.kill(t.pid, "SIGTERM");
    } catch {
      continue;
    }
    const deadline = performance.now() + 20_000;
    while (!["gone", "Z"].includes(state(t.pid)) && performance.now() < deadline) await sleep(20);
  }
}

/** The test-suite-like runs: REPEAT times per server, alternating, each on a fresh server. */
async function suites() {
  const runs = [];
  for (let r = 0; r < settings.repeat; r++) {
    for (const kind of targets.map((t) => t.name)) {
      const port = await freePort();
      const dir = `${env("WORK", "/tmp")}/suite-${kind}-${r}`;
      const server = await startServer(kind, {
        port, dir, launcher: env("LAUNCHER", ""), azuriteBin: env("AZURITE_BIN", ""),
        javaOpts: env("SERVER_JAVA_OPTS", ""), serveArgs: env("SERVE_ARGS", ""),
      });
      let requests;
      let totalMs;
      try {
        requests = await testSuite(`http://127.0.0.1:${port}/devstoreaccount1`);
        totalMs = performance.now() - server.spawnedAt;
      } finally {
        await stopServer(server);
      }
      runs.push({ server: kind, repeat: r + 1, requests, startToPortMs: server.portMs, totalMs });
      log(`suite ${r + 1} on ${kind}: ${requests} requests, port open after ${fmt(server.portMs, 0)} ms, done after ${fmt(totalMs, 0)} ms`);
    }
  }
  return runs;
}

function table(header, rows) {
  const lines = [`| ${header.join(" | ")} |`, `|${header.map((h, i) => (i === 0 ? "---" : "---:")).join("|")}|`];
  for (const r of rows) lines.push(`| ${r.join(" | ")} |`);
  return lines.join("\n");
}

const first = await workload("first run", "a");
const second = await workload("second run", "b");
const rows = [...first, ...second];
// The threads' full names (a JVM's, through jcmd), asked once the measured phases are over.
for (const t of targets) {
  const names = jvmThreadNames(t.pid);
  // What threads the server has at the end, by group (those that spent no CPU in a phase included).
  const atEnd = new Map();
  for (const [key, th] of sample(t.pid).threads) {
    const g = threadGroup(names.get(Number(key.split("/")[1])) ?? th.name);
    atEnd.set(g, (atEnd.get(g) ?? 0) + 1);
  }
  t.threadsAtEnd = Object.fromEntries([...atEnd.entries()].sort((a, b) => b[1] - a[1]));
  for (const r of rows.filter((x) => x.server === t.name)) {
    r.threads = groupThreads(r.cpu.threads, r.cpu.exitedNanos, names).map((g) => ({
      name: g.name, threads: g.threads, cpuMs: g.nanos / 1e6, usPerOp: g.nanos / 1000 / r.ops,
    }));
    delete r.cpu;
  }
}
if (!settings.skipSuite) await stopTargets();
const suiteRuns = settings.skipSuite ? [] : await suites();

const out = [];
out.push(`Settings: ENTITIES=${settings.entities} CLIENTS=${settings.clients} TX_CLIENTS=${settings.txClients} REPEAT=${settings.repeat}; node ${process.version}`);
out.push("");
out.push("Start to open port (the main run's servers): " + targets.map((t) => `${t.name} ${fmt(t.startToPortMs, 0)} ms`).join(", "));
out.push("");
out.push(table(["run", "phase", "server", "ops", "errors", "wall s", "ops/s", "p50 ms", "p99 ms", "server CPU µs/op", "driver CPU µs/op", "TCP connects", "conns open"],
  rows.map((r) => [r.run, r.phase, r.server, r.ops, r.errors, fmt(r.wallMs / 1000, 2), fmt(r.opsPerSecond, 0), fmt(r.p50Ms, 2), fmt(r.p99Ms, 2),
    fmt(r.serverCpuUsPerOp, 0), fmt(r.driverCpuUsPerOp, 0), r.connectionsOpened, r.connectionsEstablished])));
out.push("");
out.push("TCP connects: connections the driver opened during the phase; conns open: established to the server at its end.");

const find = (run, phase, server) => rows.find((r) => r.run === run && r.phase === phase && r.server === server);
const [vb, az] = ["viewbase", "azurite"];
const ratios = [];
if (targets.some((t) => t.name === vb) && targets.some((t) => t.name === az)) {
  for (const r of rows.filter((x) => x.server === vb)) {
    const a = find(r.run, r.phase, az);
    ratios.push({ run: r.run, phase: r.phase, cpuPerOp: a.serverCpuUsPerOp / r.serverCpuUsPerOp, throughput: r.opsPerSecond / a.opsPerSecond, p50: a.p50Ms / r.p50Ms });
  }
  out.push("");
  out.push("Ratios (above 1: Viewbase better): server CPU per op Azurite/Viewbase, throughput Viewbase/Azurite, p50 latency Azurite/Viewbase");
  out.push("");
  out.push(table(["run", "phase", "CPU/op Azurite/Viewbase", "throughput Viewbase/Azurite", "p50 Azurite/Viewbase"],
    ratios.map((x) => [x.run, x.phase, fmt(x.cpuPerOp, 2) + "x", fmt(x.throughput, 2) + "x", fmt(x.p50, 2) + "x"])));
}

out.push("");
out.push("Server CPU by thread (name without digits; \"exited threads\": the process's time minus its live threads', at 10 ms tick resolution)");
for (const t of targets) {
  out.push("");
  out.push(`${t.name}'s threads at the end: ` + Object.entries(t.threadsAtEnd).map(([n, c]) => `${n} ${c}`).join(", "));
}
for (const run of ["first run", "second run"]) {
  for (const phase of ["insert", "point read"]) {
    for (const t of targets) {
      const r = find(run, phase, t.name);
      out.push("");
      out.push(`${run}, ${phase}, ${t.name}: ${fmt(r.serverCpuMs, 0)} ms CPU, ${fmt(r.serverCpuUsPerOp, 0)} µs/op`);
      out.push("");
      out.push(table(["thread", "threads", "CPU ms", "µs/op", "share"],
        r.threads.map((g) => [g.name, g.threads, fmt(g.cpuMs, 0), fmt((g.cpuMs * 1000) / r.ops, 0), fmt((100 * g.cpuMs) / r.serverCpuMs, 0) + "%"])));
    }
  }
}

const targetLines = [];
const pass = (ok) => (ok ? "PASS" : "FAIL");
if (ratios.length) {
  const ratio = (run, phase) => ratios.find((x) => x.run === run && x.phase === phase);
  for (const [run, factor] of [["first run", 5], ["second run", 20]]) {
    for (const phase of ["insert", "point read"]) {
      const x = ratio(run, phase);
      targetLines.push(`${pass(x.cpuPerOp >= factor)} ${run}: server CPU per ${phase} >= ${factor}x lower than Azurite's (${fmt(x.cpuPerOp, 2)}x)`);
    }
  }
  const f = (server) => find("first run", "non-key filter", server).p50Ms;
  targetLines.push(`${pass(f(vb) <= f(az))} first run: non-key filter median <= Azurite's (${fmt(f(vb), 2)} ms vs ${fmt(f(az), 2)} ms)`);
}
let suiteMedians;
if (suiteRuns.length) {
  out.push("");
  out.push("Test-suite-like runs (a fresh server each, spawn to last answer, server start included)");
  out.push("");
  out.push(table(["server", "run", "requests", "start to port ms", "spawn to last answer ms"],
    suiteRuns.map((s) => [s.server, s.repeat, s.requests, fmt(s.startToPortMs, 0), fmt(s.totalMs, 0)])));
  const med = {};
  for (const t of targets) {
    const mine = suiteRuns.filter((s) => s.server === t.name);
    med[t.name] = { startToPortMs: median(mine.map((s) => s.startToPortMs)), totalMs: median(mine.map((s) => s.totalMs)) };
  }
  out.push("");
  out.push("Medians: " + targets.map((t) => `${t.name} ${fmt(med[t.name].totalMs, 0)} ms (port after ${fmt(med[t.name].startToPortMs, 0)} ms)`).join(", "));
  if (med[vb] && med[az]) targetLines.push(`${pass(med[vb].totalMs < med[az].totalMs)} test-suite-like run: Viewbase's median < Azurite's (${fmt(med[vb].totalMs, 0)} ms vs ${fmt(med[az].totalMs, 0)} ms)`);
  suiteMedians = med;
}
out.push("");
out.push("Targets (issue 25):");
out.push(...targetLines);
console.log(out.join("\n"));

mkdirSync(dirname(resultPath), { recursive: true });
writeFileSync(resultPath, JSON.stringify({ settings, node: process.version, targets, phases: rows, ratios, suite: suiteRuns, suiteMedians, targetLines }, null, 2) + "\n");
log(`figures written to ${resultPath}`);
// The SDK's kept-alive sockets to Viewbase (which closes no idle connection) would hold the event loop.
process.exit(0);
