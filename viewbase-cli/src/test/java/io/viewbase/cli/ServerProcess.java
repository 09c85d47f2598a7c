package io.viewbase.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code viewbase serve} in a child JVM with this test JVM's class path, for tests that must kill a
 * server the hard way. Its stdout and stderr go to files next to the data directory, so a failed
 * test can show what the server said.
 */
final class ServerProcess implements AutoCloseable {
  private static final Pattern LISTENING =
      Pattern.compile("Viewbase listening on (https?://\\S+) ");
  private static final Pattern AZURE = Pattern.compile("Azure Tables dialect on (https?://\\S+)");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final Path stdout;
  private final Path stderr;
  private final URI uri;

  private ServerProcess(Process process, Path stdout, Path stderr)
      throws IOException, InterruptedException {
    this.process = process;
    this.stdout = stdout;
    this.stderr = stderr;
    this.uri = awaitListening();
  }

  /** Starts a durable RocksDB server on a free port of 127.0.0.1 and waits until it listens. */
  static ServerProcess serve(Path data, Path logs, String name)
      throws IOException, InterruptedException {
    return serve(data, logs, name, List.of("--azure-port", "0", "--dynamodb-port", "0"));
  }

  /** As {@link #serve(Path, Path, String)}, with these arguments after {@code --port 0}. */
  static ServerProcess serve(Path data, Path logs, String name, List<String> more)
      throws IOException, InterruptedException {
    Path stdout = logs.resolve(name + ".out");
    Path stderr = logs.resolve(name + ".err");
    List<String> args = new ArrayList<>(List.of("serve", "--data", data.toString(), "--port", "0"));
    args.addAll(more);
    Process process =
        viewbase(args).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    try {
      return new ServerProcess(process, stdout, stderr);
    } catch (IOException | InterruptedException | RuntimeException | AssertionError failure) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw failure;
    }
  }

  /**
   * The viewbase command line with these arguments, in a child JVM of this one's class path,
   * logging at warn.
   */
  static ProcessBuilder viewbase(List<String> args) {
    return viewbase(List.of("-Dviewbase.logLevel=warn"), args);
  }

  /** As {@link #viewbase(List)}, with these JVM options (a 256 MiB heap beside them). */
  static ProcessBuilder viewbase(List<String> jvmOptions, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(args);
    return new ProcessBuilder(command);
  }

  URI uri() {
    return uri;
  }

  /**
   * The Azure Tables dialect's endpoint ({@code http://127.0.0.1:<port>/<account>}), as the server
   * printed it after its listening line; the server must have been started with an Azure port.
   */
  String azureEndpoint() throws InterruptedException {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      Matcher line = AZURE.matcher(output());
      if (line.find()) {
        return line.group(1);
      }
      Thread.sleep(10);
    }
    throw new AssertionError("the server printed no Azure endpoint:\n" + output());
  }

  /** The child's process, for the signals a test sends it. */
  Process process() {
    return process;
  }

  /** SIGKILL on Linux and macOS: no shutdown hook runs, nothing is flushed or closed. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("the killed server process did not end");
    }
  }

  /** What the server printed, for failure messages. */
  String output() {
    try {
      return Files.readString(stdout, StandardCharsets.UTF_8)
          + Files.readString(stderr, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(output unreadable: " + e + ")";
    }
  }

  /**
   * One writer of a load: sends requests until {@code stop}, counting acknowledged and cut-off
   * ones.
   */
  @FunctionalInterface
  interface Writer {
    void run(URI server, int writer, AtomicBoolean stop, AtomicInteger acks, AtomicInteger cutOff);
  }

  /** What a load saw before the kill. */
  record Load(int acks, int cutOff) {}

  /**
   * Runs {@code writers} writer threads until {@code killAfter} requests are acknowledged (or
   * {@code limit} passes), kills this server while they are still sending, and only then stops
   * them.
   */
  Load killUnderLoad(int writers, Writer writer, int killAfter, Duration limit)
      throws InterruptedException {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger acks = new AtomicInteger();
    AtomicInteger cutOff = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      int index = w;
      Thread thread = new Thread(() -> writer.run(uri, index, stop, acks, cutOff), "writer-" + w);
      thread.start();
      threads.add(thread);
    }
    Instant deadline = Instant.now().plus(limit);
    while (acks.get() < killAfter && Instant.now().isBefore(deadline)) {
      Thread.sleep(5);
    }
    kill();
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(Duration.ofSeconds(30).toMillis());
      if (thread.isAlive()) {
        throw new AssertionError("a writer did not stop");
      }
    }
    return new Load(acks.get(), cutOff.get());
  }

  /** Kills the server if a test left it running (a failed assertion, say). */
  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private URI awaitListening() throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      Matcher line = LISTENING.matcher(Files.readString(stdout, StandardCharsets.UTF_8));
      if (line.find()) {
        return URI.create(line.group(1));
      }
      if (!process.isAlive()) {
        throw new AssertionError(
            "the server exited with " + process.exitValue() + " before listening:\n" + output());
      }
      Thread.sleep(25);
    }
    throw new AssertionError(
        "the server printed no listening line within " + START_TIMEOUT + ":\n" + output());
  }

  /** A JSON request to the child server ({@code json} empty: no body), as the crash tests send. */
  static HttpRequest request(URI server, String method, String path, String json) {
    return HttpRequest.newBuilder(server.resolve(path))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .method(
            method,
            json.isEmpty()
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json))
        .build();
  }
}
