// CPU time of a server process from Linux's /proc, as ProcessCpu does on the Java side: the
// process's user + system time and that of its live descendants, and per thread (by the kernel's
// thread name, `comm`, at most 15 characters) so that a phase's CPU can be told apart by who spent
// it: a JVM's JIT threads (C1/C2 CompilerThread), its GC and VM threads, the Netty event loops,
// the committer, RocksDB's flush and compaction threads (rocksdb:low/high), or Node's main thread.
import { readdirSync, readFileSync } from "node:fs";

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

/** A thread's group: its name without digits (and the separators left trailing), e.g. "GC Thread". */
export function threadGroup(name) {
  return name.replace(/[0-9]+/g, "").replace(/[#\-_: ]+$/, "") || name;
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
    total += stat.ticks;
    for (const tid of numbered(`/proc/${next}/task`)) {
      const t = readStat(`/proc/${next}/task/${tid}/stat`);
      if (t) threads.set(`${next}/${tid}`, t);
    }
    todo.push(...(children.get(next) ?? []));
  }
  return { total, threads };
}

/**
 * The CPU used between two samples, in nanoseconds: the total, and per thread group (live
 * threads; a thread born since `before` counts from zero), with "exited threads" = the process
 * tree's delta minus the live threads' sum (the time of threads that ended during the interval).
 */
export function delta(before, after, ticksPerSecond) {
  const ns = 1e9 / ticksPerSecond;
  const groups = new Map();
  let live = 0;
  for (const [key, t] of after.threads) {
    const d = t.ticks - (before.threads.get(key)?.ticks ?? 0);
    const name = threadGroup(t.name);
    const g = groups.get(name) ?? { threads: 0, nanos: 0 };
    g.threads += 1;
    g.nanos += d * ns;
    groups.set(name, g);
    live += d;
  }
  const total = after.total - before.total;
  if (total - live !== 0) groups.set("exited threads", { threads: 0, nanos: (total - live) * ns });
  return {
    nanos: total * ns,
    groups: [...groups.entries()]
      .map(([name, g]) => ({ name, threads: g.threads, nanos: g.nanos }))
      .filter((g) => g.nanos !== 0)
      .sort((a, b) => b.nanos - a.nanos),
  };
}
