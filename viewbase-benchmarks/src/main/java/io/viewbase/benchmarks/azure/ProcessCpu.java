package io.viewbase.benchmarks.azure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU time a server process has used so far (user + system, every thread), read from Linux's
 * {@code /proc/<pid>/stat}, including any live child processes it started.
 *
 * <p>Children count because a launcher may sit between the script and the server (a shell, or
 * {@code env} running Node): whichever process does the work, its time is in the tree.
 */
final class ProcessCpu {
  private static final Path PROC = Path.of("/proc");

  private final long pid;
  private final long nanosPerTick;

  /** {@code ticksPerSecond} is the kernel's USER_HZ ({@code getconf CLK_TCK}, 100 on Linux). */
  ProcessCpu(long pid, long ticksPerSecond) {
    this.pid = pid;
    this.nanosPerTick = 1_000_000_000L / ticksPerSecond;
    if (!Files.exists(PROC.resolve(Long.toString(pid)).resolve("stat"))) {
      throw new IllegalArgumentException("no process " + pid + " (is /proc mounted, is the server running?)");
    }
  }

  /** CPU time so far: user (the program's own code) and system (the kernel working for it). */
  record Sample(long userNanos, long systemNanos) {
    long totalNanos() {
      return userNanos + systemNanos;
    }

    Sample minus(Sample earlier) {
      return new Sample(userNanos - earlier.userNanos, systemNanos - earlier.systemNanos);
    }
  }

  /** CPU time used by the process and its live descendants, at tick resolution (10 ms). */
  Sample sample() {
    Map<Long, List<Long>> children = new HashMap<>();
    Map<Long, long[]> ticks = new HashMap<>();
    for (Path dir : processDirs()) {
      long[] stat = readStat(dir);
      if (stat != null) {
        long id = Long.parseLong(dir.getFileName().toString());
        children.computeIfAbsent(stat[0], parent -> new ArrayList<>()).add(id);
        ticks.put(id, stat);
      }
    }
    if (!ticks.containsKey(pid)) {
      throw new IllegalStateException("server process " + pid + " has exited");
    }
    long user = 0;
    long system = 0;
    Deque<Long> todo = new ArrayDeque<>(List.of(pid));
    while (!todo.isEmpty()) {
      long next = todo.pop();
      long[] stat = ticks.get(next);
      if (stat != null) {
        user += stat[1];
        system += stat[2];
      }
      todo.addAll(children.getOrDefault(next, List.of()));
    }
    return new Sample(user * nanosPerTick, system * nanosPerTick);
  }

  private static List<Path> processDirs() {
    List<Path> dirs = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(PROC, "[0-9]*")) {
      stream.forEach(dirs::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dirs;
  }

  /** {ppid, utime, stime} of one process, or null if it exited while we looked. */
  private static long[] readStat(Path dir) {
    String stat;
    try {
      stat = Files.readString(dir.resolve("stat"));
    } catch (NoSuchFileException gone) {
      return null;
    } catch (IOException e) {
      // A process that exits between listing and reading shows up as ESRCH on some kernels.
      return null;
    }
    // The command name (field 2) is in parentheses and may itself hold spaces or ')': the fixed
    // fields start after the last ')'. From there: state, ppid, ... utime is field 14, stime 15.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return new long[] {Long.parseLong(fields[1]), Long.parseLong(fields[11]), Long.parseLong(fields[12])};
  }
}
