package io.viewbase.server.js;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One finished run of a child process (node, npm, the AWS CLI): its exit code, or that it was
 * killed at its timeout, and everything it printed.
 *
 * <p>Output goes to files rather than pipes: a child that prints more than a pipe holds would block
 * until someone reads it, and reading two pipes at once needs two threads.
 */
public record ChildRun(
    List<String> command,
    Path directory,
    int exitCode,
    boolean timedOut,
    Duration took,
    String stdout,
    String stderr) {

  /**
   * Runs the command in the directory and waits for it, at most the timeout, then kills it; empty
   * when the command cannot be started at all (its program is not installed).
   */
  public static Optional<ChildRun> run(List<String> command, Path directory, Duration timeout) {
    return run(command, directory, timeout, Map.of());
  }

  /**
   * {@link #run(List, Path, Duration)} in this JVM's environment changed by these variables: each
   * set to its value, or removed where its value is null.
   */
  public static Optional<ChildRun> run(
      List<String> command, Path directory, Duration timeout, Map<String, String> environment) {
    try {
      Path out = Files.createTempFile("viewbase-child", ".out");
      Path err = Files.createTempFile("viewbase-child", ".err");
      try {
        long start = System.nanoTime();
        Process process;
        try {
          ProcessBuilder builder =
              new ProcessBuilder(command)
                  .directory(directory.toFile())
                  .redirectOutput(out.toFile())
                  .redirectError(err.toFile());
          Map<String, String> env = builder.environment();
          environment.forEach(
              (name, value) -> {
                if (value == null) {
                  env.remove(name);
                } else {
                  env.put(name, value);
                }
              });
          process = builder.start();
        } catch (IOException notStarted) {
          return Optional.empty();
        }
        process.getOutputStream().close(); // nothing to read: stdin is at its end at once
        boolean finished = waitFor(process, timeout);
        if (!finished) {
          process.destroyForcibly();
          waitFor(process, Duration.ofSeconds(10));
        }
        return Optional.of(
            new ChildRun(
                command,
                directory,
                finished ? process.exitValue() : -1,
                !finished,
                Duration.ofNanos(System.nanoTime() - start),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8)));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean waitFor(Process process, Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public boolean succeeded() {
    return !timedOut && exitCode == 0;
  }

  /** The last non-blank line of stdout, or "" when there is none. */
  public String lastLine() {
    List<String> lines = stdout.lines().filter(l -> !l.isBlank()).toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  /** The command, how it ended and all it printed: the body of a failure message. */
  public String describe() {
    String ending =
        timedOut
            ? "killed at its timeout, after " + took.toSeconds() + " s"
            : "exit code " + exitCode + " after " + took.toMillis() + " ms";
    return String.join(" ", command)
        + "\n  in "
        + directory
        + "\n  "
        + ending
        + "\n--- stdout ---\n"
        + stdout.strip()
        + "\n--- stderr ---\n"
        + stderr.strip()
        + "\n---";
  }
}
