package io.viewbase.benchmarks.sidebyside;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time a server process has used so far (user + system, every thread), read from Linux's
 * {@code /proc/<pid>/stat}, including any live child processes it started, and how much of it went
 * to a JVM's JIT compiler threads.
 *
 * <p>Children count because a launcher may sit between the script and the server (a shell, or
 * {@code env} running Node): whichever process does the work, its time is in the tree. The JIT
 * share is told apart because a JVM compiles its hot paths for minutes after it starts, a cost that
 * a long-running server has long paid: HotSpot names those threads {@code C1/C2 CompilerThread}
 * (run it with {@code -XX:-UseDynamicNumberOfCompilerThreads}, so that none exits and takes its
 * time out of the sum). Node names every thread {@code node}: its JIT is not told apart. RocksDB's
 * flush and compaction threads ({@code rocksdb:low}, {@code rocksdb:high}) are told apart too, not
 * to take them out (compaction is part of what a durable write costs) but because they run when
 * they must: a phase can pay for the writes of the phases before it.
 */
public final class ProcessCpu {
  private static final Path PROC = Path.of("/proc");

  private final long pid;
  private final long nanosPerTick;

  /** {@code ticksPerSecond} is the kernel's USER_HZ ({@code getconf CLK_TCK}, 100 on Linux). */
  public ProcessCpu(long pid, long ticksPerSecond) {
    this.pid = pid;
    this.nanosPerTick = 1_000_000_000L / ticksPerSecond;
    if (!Files.exists(PROC.resolve(Long.toString(pid)).resolve("stat"))) {
      throw new IllegalArgumentException(
          "no process " + pid + " (is /proc mounted, is the server running?)");
    }
  }

  /**
   * CPU time so far: user (the program's own code), system (the kernel working for it), and the
   * parts of both spent in JIT compiler threads and in RocksDB's flush and compaction threads.
   */
  public record Sample(long userNanos, long systemNanos, long compilerNanos, long storageNanos) {
    public long totalNanos() {
      return userNanos + systemNanos;
    }

    public Sample minus(Sample earlier) {
      return new Sample(
          userNanos - earlier.userNanos,
          systemNanos - earlier.systemNanos,
          compilerNanos - earlier.compilerNanos,
          storageNanos - earlier.storageNanos);
    }
  }

  /** CPU time used by the process and its live descendants, at tick resolution (10 ms). */
  public Sample sample() {
    Map<Long, List<Long>> children = new HashMap<>();
    Map<Long, Stat> stats = new HashMap<>();
    for (Path dir : numbered(PROC)) {
      Stat stat = Stat.read(dir);
      if (stat != null) {
        long id = Long.parseLong(dir.getFileName().toString());
        children.computeIfAbsent(stat.parent(), parent -> new ArrayList<>()).add(id);
        stats.put(id, stat);
      }
    }
    if (!stats.containsKey(pid)) {
      throw new IllegalStateException("server process " + pid + " has exited");
    }
    long user = 0;
    long system = 0;
    long compiler = 0;
    long storage = 0;
    Deque<Long> todo = new ArrayDeque<>(List.of(pid));
    while (!todo.isEmpty()) {
      long next = todo.pop();
      Stat stat = stats.get(next);
      if (stat != null) {
        user += stat.user();
        system += stat.system();
        for (Path task : numbered(PROC.resolve(Long.toString(next)).resolve("task"))) {
          Stat thread = Stat.read(task);
          if (thread != null && isCompiler(thread.name())) {
            compiler += thread.user() + thread.system();
          } else if (thread != null && thread.name().startsWith("rocksdb:")) {
            storage += thread.user() + thread.system();
          }
        }
      }
      todo.addAll(children.getOrDefault(next, List.of()));
    }
    return new Sample(
        user * nanosPerTick,
        system * nanosPerTick,
        compiler * nanosPerTick,
        storage * nanosPerTick);
  }

  private static boolean isCompiler(String threadName) {
    return threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre");
  }

  /** The numbered entries (processes or threads) of a /proc directory; none if it is gone. */
  private static List<Path> numbered(Path dir) {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "[0-9]*")) {
      stream.forEach(entries::add);
    } catch (IOException e) {
      if (dir.equals(PROC)) {
        throw new UncheckedIOException(e);
      }
    }
    return entries;
  }

  /** The fields of a process's or thread's {@code stat} that we use; times in clock ticks. */
  private record Stat(String name, long parent, long user, long system) {
    /** The stat in {@code dir}, or null if the process or thread ended while we looked. */
    static Stat read(Path dir) {
      String stat;
      try {
        stat = Files.readString(dir.resolve("stat"));
      } catch (IOException gone) {
        // NoSuchFileException, or ESRCH on some kernels, when it exits between listing and reading.
        return null;
      }
      // The command name (field 2) is in parentheses and may itself hold spaces or ')': the fixed
      // fields start after the last ')'. From there: state, ppid, ... utime is field 14, stime 15.
      int close = stat.lastIndexOf(')');
      String[] fields = stat.substring(close + 2).split(" ");
      return new Stat(
          stat.substring(stat.indexOf('(') + 1, close),
          Long.parseLong(fields[1]),
          Long.parseLong(fields[11]),
          Long.parseLong(fields[12]));
    }
  }
}
