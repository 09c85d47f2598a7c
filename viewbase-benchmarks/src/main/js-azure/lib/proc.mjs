// CPU time of a server process from Linux's /proc, as ProcessCpu does on the Java side: the
// process's user + system time and that of its live descendants, and per thread (by the kernel's
// thread name, `comm`, at most 15 characters) so that a phase's CPU can be told apart by who spent
// it: a JVM's JIT threads (C1/C2 CompilerThread), its GC and VM threads, the Netty event loops,
// the committer, RocksDB's flush and compaction threads (rocksdb:low/high), or Node's main thread.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { basename } from "node:path";

/** The fields of a stat file we use, times in clock ticks; null if it is gone. */
function readStat(path) {
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null; // the process or thread ended between listing and reading
  }
  // The name (field 2) is in parentheses and may hold spaces or ')': fixed fields follow the last ')'.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  return {
    name: text.slice(text.indexOf("(") + 1, close),
    parent: Number(fields[1]),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

function numbered(dir) {
  try {
    return readdirSync(dir).filter((e) => /^[0-9]+$/.test(e));
  } catch {
    return [];
  }
}

/**
 * A thread's group: its name without digits (and the separators left trailing), e.g. "GC Thread",
 * "viewbase-azure-io"; HotSpot's C1/C2 and G1 keep theirs ("C2 CompilerThread", "G1 Conc").
 */
export function threadGroup(name) {
  const full = name.replace(/^(C[12] CompilerThre)$/, "$1ad");
  const keep = /^(C1|C2|G1) /.exec(full)?.[0] ?? "";
  return keep + full.slice(keep.length).replace(/[0-9]+/g, "").replace(/[#\-_: ]+$/, "") || name;
}

/**
 * The full names of a JVM's threads by thread id (the kernel keeps only 15 characters of a name):
 * from `jcmd PID Thread.print`, whose "nid=0x.." is the thread's id. Empty if it is no JVM or
 * jcmd fails. Asked once, after the measured phases (attaching costs the server some CPU).
 */
export function jvmThreadNames(pid) {
  const names = new Map();
  // jcmd signals the process (SIGQUIT) to attach: that would kill anything but a JVM.
  try {
    if (basename(readlinkSync(`/proc/${pid}/exe`)) !== "java") return names;
  } catch {
    return names;
  }
  try {
    const dump = execFileSync("jcmd", [String(pid), "Thread.print"], { encoding: "utf8", timeout: 20_000, stdio: ["ignore", "pipe", "ignore"] });
    for (const m of dump.matchAll(/^"(.*)" .*?nid=(0x[0-9a-f]+)/gm)) names.set(Number(m[2]), m[1]);
  } catch {
    // no jcmd on the PATH, or it could not attach: the kernel's names stay
  }
  return names;
}

/** The TCP connections now established to 127.0.0.1:PORT (from /proc/net/tcp), counted from the client side. */
export function establishedTo(port) {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let n = 0;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 3 && f[2].endsWith(hex) && f[3] === "01") n += 1;
    }
  }
  return n;
}

/**
 * A sample of PID's tree: total ticks (the process and its live descendants) and, per thread
 * ("pid/tid"), its name and ticks. A process's total includes its exited threads' time.
 */
export function sample(pid) {
  const children = new Map();
  const stats = new Map();
  for (const entry of numbered("/proc")) {
    const stat = readStat(`/proc/${entry}/stat`);
    if (stat) {
      const id = Number(entry);
      stats.set(id, stat);
      if (!children.has(stat.parent)) children.set(stat.parent, []);
      children.get(stat.parent).push(id);
    }
  }
  if (!stats.has(pid)) throw new Error(`server process ${pid} has exited`);
  let total = 0;
  const threads = new Map();
  const todo = [pid];
  while (todo.length) {
    const next = todo.pop();
    const stat = stats.get(next);
    if (!stat) continue;
    for (const tid of numbered(`/proc/${next}/task`)) {
      const t = readStat(`/proc/${next}/task/${tid}/stat`);
      if (t) threads.set(`${next}/${tid}`, t);
    }
    // The process's total read again after its threads, so that it covers their sum.
    total += (readStat(`/proc/${next}/stat`) ?? stat).ticks;
    todo.push(...(children.get(next) ?? []));
  }
  return { total, threads };
}

/**
 * The CPU used between two samples, in nanoseconds: the total, and per live thread (a thread born
 * since `before` counts from zero) as { tid, comm, nanos }, with an "exited threads" entry = the
 * process tree's delta minus the live threads' sum (the time of threads that ended meanwhile; at
 * tick resolution, 10 ms, it may come out a tick or two off, either way).
 */
export function delta(before, after, ticksPerSecond) {
  const ns = 1e9 / ticksPerSecond;
  const threads = [];
  let live = 0;
  for (const [key, t] of after.threads) {
    const d = t.ticks - (before.threads.get(key)?.ticks ?? 0);
    live += d;
    if (d !== 0) threads.push({ tid: Number(key.split("/")[1]), comm: t.name, nanos: d * ns });
  }
  const total = after.total - before.total;
  return { nanos: total * ns, threads, exitedNanos: (total - live) * ns, liveThreads: after.threads.size };
}

/** Per-thread CPU grouped by name: names maps a thread id to its full name (else the kernel's). */
export function groupThreads(threads, exitedNanos, names = new Map()) {
  const groups = new Map();
  for (const t of threads) {
    const name = threadGroup(names.get(t.tid) ?? t.comm);
    const g = groups.get(name) ?? { name, threads: 0, nanos: 0 };
    g.threads += 1;
    g.nanos += t.nanos;
    groups.set(name, g);
  }
  const list = [...groups.values()];
  if (exitedNanos !== 0) list.push({ name: "exited threads", threads: 0, nanos: exitedNanos });
  return list.sort((a, b) => b.nanos - a.nanos);
}
