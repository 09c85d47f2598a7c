package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code viewbase serve}, run on a thread of this JVM and stopped by interrupting it. */
class ServeCommandTest {
  private static final Pattern LISTENING =
      Pattern.compile(
          "Viewbase listening on (http://127\\.0\\.0\\.1:(\\d+)) \\(data: (.+), storage: (\\w+)\\)");

  private static final Pattern AZURE_LINE =
      Pattern.compile("Azure Tables dialect on (http://127\\.0\\.0\\.1:(\\d+)/devstoreaccount1)");

  private static final Pattern DYNAMODB_LINE =
      Pattern.compile(
          "DynamoDB dialect on (http://127\\.0\\.0\\.1:(\\d+)) \\(access key fakeMyKeyId\\)");

  @TempDir Path dir;

  @Test
  void serveOnPortZeroPrintsTheRealPortAndServesTheCommands() throws Exception {
    try (Served served =
        Served.start(
            "serve",
            "--data",
            dir.resolve("data").toString(),
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0")) {
      Matcher line = served.awaitListening();

      assertThat(Integer.parseInt(line.group(2))).isPositive();
      assertThat(line.group(3)).isEqualTo(dir.resolve("data").toAbsolutePath().toString());
      assertThat(line.group(4)).isEqualTo("rocksdb");
      List<String> remote = List.of("--server", line.group(1));
      assertThat(Cli.run(remote, "table", "create", "People").exitCode()).isZero();
      assertThat(Cli.run(remote, "tables").out()).contains("\"name\":\"People\"");
    }
  }

  @Test
  void serveWithMemoryStorageSaysSo() throws Exception {
    try (Served served =
        Served.start(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0")) {
      Matcher line = served.awaitListening();

      assertThat(line.group(3)).isEqualTo("none");
      assertThat(line.group(4)).isEqualTo("memory");
    }
  }

  @Test
  void theEmulatorProfileSaysSoAndNamesTheJvmOptionsThisJvmLacks() throws Exception {
    try (Served served =
        Served.start(
            "serve",
            "--data",
            dir.resolve("data").toString(),
            "--profile",
            "emulator",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0")) {
      served.await(
          Pattern.compile(
              "Viewbase listening on \\S+ \\(data: .+, storage: rocksdb, profile: emulator\\)"));

      // this test JVM runs with the default compilers and collector
      assertThat(served.err())
          .contains(
              "viewbase serve --profile emulator: this JVM was started without "
                  + "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    }
  }

  @Test
  void theServerProfileAsksForNoJvmOptions() throws Exception {
    try (Served served =
        Served.start(
            "serve",
            "--data",
            dir.resolve("data").toString(),
            "--profile",
            "server",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0")) {
      served.awaitListening();

      assertThat(served.err()).doesNotContain("--profile");
    }
  }

  @Test
  void anUnknownProfileIsAUsageError() {
    Cli cli = Cli.run("serve", "--profile", "fast", "--port", "0");

    assertThat(cli.exitCode()).isEqualTo(2);
    assertThat(cli.err()).contains("--profile").contains("server, emulator");
  }

  @Test
  void aStoppedServerReleasesItsDataDirectory() throws Exception {
    String data = dir.resolve("data").toString();
    try (Served served =
        Served.start(
            "serve", "--data", data, "--port", "0", "--azure-port", "0", "--dynamodb-port", "0")) {
      served.awaitListening();
      Cli whileServing = Cli.run("tables", "--data", data);
      assertThat(whileServing.err()).startsWith("error: StorageLocked: Data directory is in use");
    }

    Cli afterStop = Cli.run("tables", "--data", data);

    assertThat(afterStop.exitCode()).as(afterStop.toString()).isZero();
  }

  @Test
  void serveWithAnAzurePortPrintsTheDialectLineAndServesAzureRequests() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    try (Served served =
        Served.start(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            String.valueOf(port),
            "--dynamodb-port",
            "0",
            "--azure-anonymous")) {
      served.awaitListening();
      Matcher azure = served.await(AZURE_LINE);
      assertThat(Integer.parseInt(azure.group(2))).isEqualTo(port);

      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(azure.group(1) + "/Tables"))
                  .header("Content-Type", "application/json")
                  .header("Accept", "application/json;odata=nometadata")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"TableName\":\"Azured\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      assertThat(created.body()).isEqualTo("{\"TableName\":\"Azured\"}");
    }
  }

  @Test
  void serveWithADynamoDbPortPrintsTheDialectLineAndAnswersInDynamoDbsShape() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    try (Served served =
        Served.start(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            String.valueOf(port))) {
      served.awaitListening();
      Matcher dynamoDb = served.await(DYNAMODB_LINE);
      assertThat(Integer.parseInt(dynamoDb.group(2))).isEqualTo(port);

      HttpResponse<String> unsigned =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(dynamoDb.group(1) + "/"))
                      .header("Content-Type", "application/x-amz-json-1.0")
                      .header("X-Amz-Target", "DynamoDB_20120810.ListTables")
                      .POST(HttpRequest.BodyPublishers.ofString("{}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(unsigned.statusCode()).isEqualTo(400);
      assertThat(unsigned.body())
          .contains("com.amazon.coral.service#MissingAuthenticationTokenException");
    }
  }

  @Test
  void serveWhenTheDynamoDbPortIsTakenFailsNamingTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Cli serve =
          Cli.run(
              "serve",
              "--storage",
              "memory",
              "--port",
              "0",
              "--azure-port",
              "0",
              "--dynamodb-port",
              String.valueOf(taken.getLocalPort()));

      assertThat(serve.exitCode()).as(serve.toString()).isNotZero();
      assertThat(serve.err()).contains("DynamoDB dialect").contains("--dynamodb-port");
    }
  }

  @Test
  void aMalformedDynamoDbKeyIsAUsageErrorThatDoesNotShowTheSecret() {
    Cli serve =
        Cli.run(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "65000",
            "--dynamodb-key",
            "bad key:hunter2hunter2");

    assertThat(serve.exitCode()).isNotZero();
    assertThat(serve.err()).contains("access key id").doesNotContain("hunter2");
  }

  @Test
  void serveWhenTheAzurePortIsTakenFailsNamingTheFlag() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Cli serve =
          Cli.run(
              "serve",
              "--storage",
              "memory",
              "--port",
              "0",
              "--azure-port",
              String.valueOf(taken.getLocalPort()),
              "--dynamodb-port",
              "0");

      assertThat(serve.exitCode()).as(serve.toString()).isNotZero();
      assertThat(serve.err()).contains("Azure Tables dialect").contains("--azure-port");
    }
  }

  @Test
  void serveWithAMalformedAzureAccountIsAUsageError() {
    Cli serve = Cli.run("serve", "--storage", "memory", "--port", "0", "--azure-account", "nokey");

    assertThat(serve.exitCode()).isEqualTo(2);
    assertThat(serve.err()).contains("--azure-account takes NAME:BASE64KEY");
  }

  @Test
  void anUnknownStorageIsAUsageError() {
    Cli serve = Cli.run("serve", "--storage", "floppy");

    assertThat(serve.exitCode()).isEqualTo(2);
    assertThat(serve.err()).startsWith("error: Usage: ").contains("floppy");
  }

  @Test
  void serveWithCassandraStorageAndNoClusterFailsNamingTheContactPoints() {
    // Port 1 on loopback: nothing listens there, so the driver is refused at once.
    Cli serve =
        Cli.run(
            "serve",
            "--storage",
            "cassandra",
            "--cassandra-contact-points",
            "127.0.0.1:1",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0");

    assertThat(serve.exitCode()).isEqualTo(1);
    assertThat(serve.err()).startsWith("error: ").contains("127.0.0.1:1");
  }

  @Test
  void aCassandraFlagWithAnotherStorageIsAUsageError() {
    Cli serve =
        Cli.run(
            "serve",
            "--storage",
            "memory",
            "--keyspace",
            "ks",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0");

    assertThat(serve.exitCode()).isEqualTo(2);
    assertThat(serve.err()).contains("--keyspace applies only to --storage cassandra");
  }

  @Test
  void rocksdbOptionsReachTheBackendWithOrWithoutTheirPrefix() throws Exception {
    Path data = dir.resolve("data");
    try (Served served =
        Served.start(
            "serve",
            "--data",
            data.toString(),
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--rocksdb-option",
            "walCompression=none",
            "--rocksdb-option",
            "rocksdb.recycleLogFiles=0")) {
      served.awaitListening();

      // RocksDB writes the options it runs with into the directory
      String options;
      try (Stream<Path> files = Files.list(data)) {
        Path latest =
            files
                .filter(f -> f.getFileName().toString().startsWith("OPTIONS-"))
                .max(Path::compareTo)
                .orElseThrow();
        options = Files.readString(latest);
      }
      assertThat(options)
          .contains("wal_compression=kNoCompression")
          .contains("recycle_log_file_num=0");
    }
  }

  @Test
  void aBadRocksdbOptionIsAUsageErrorNamingIt() {
    Cli unknown =
        Cli.run(
            "serve",
            "--data",
            dir.resolve("a").toString(),
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--rocksdb-option",
            "bogus=1");
    Cli badValue =
        Cli.run(
            "serve",
            "--data",
            dir.resolve("b").toString(),
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--rocksdb-option",
            "blockCacheBytes=lots");
    Cli otherStorage =
        Cli.run(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--rocksdb-option",
            "blockCacheBytes=1m");

    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err())
        .contains("--rocksdb-option: unknown option rocksdb.bogus")
        .contains("rocksdb.recycleLogFiles");
    assertThat(badValue.exitCode()).isEqualTo(2);
    assertThat(badValue.err())
        .contains("--rocksdb-option: rocksdb.blockCacheBytes must be a size")
        .contains("'lots'");
    assertThat(otherStorage.exitCode()).isEqualTo(2);
    assertThat(otherStorage.err()).contains("--rocksdb-option applies only to --storage rocksdb");
  }

  @Test
  void aBadCassandraSettingIsAUsageErrorNamingItsFlag() {
    // refused before any connection is tried: no Cassandra node is needed to see it
    Cli unknown =
        Cli.run(
            "serve",
            "--storage",
            "cassandra",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--cassandra-option",
            "bogus=1");
    Cli badValue =
        Cli.run(
            "serve",
            "--storage",
            "cassandra",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--cassandra-option",
            "requestTimeout=forever");
    Cli badPoints =
        Cli.run(
            "serve",
            "--storage",
            "cassandra",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--cassandra-contact-points",
            "127.0.0.1:99999");
    Cli badKeyspace =
        Cli.run(
            "serve",
            "--storage",
            "cassandra",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--keyspace",
            "no-dashes");

    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err())
        .contains("--cassandra-option: unknown option cassandra.bogus")
        .contains("cassandra.requestTimeout")
        .doesNotContain("InternalError");
    assertThat(badValue.exitCode()).isEqualTo(2);
    assertThat(badValue.err())
        .contains("--cassandra-option: cassandra.requestTimeout must be a duration")
        .contains("'forever'");
    assertThat(badPoints.exitCode()).isEqualTo(2);
    assertThat(badPoints.err())
        .contains("--cassandra-contact-points: cassandra.contactPoints must be host[:port]");
    assertThat(badKeyspace.exitCode()).isEqualTo(2);
    assertThat(badKeyspace.err()).contains("--keyspace: cassandra.keyspace must be a letter then");
  }

  @Test
  void aPortInUseOrAnAddressThatDoesNotResolveFailsNamingIt() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Cli inUse =
          Cli.run(
              "serve",
              "--storage",
              "memory",
              "--port",
              Integer.toString(taken.getLocalPort()),
              "--azure-port",
              "0",
              "--dynamodb-port",
              "0");
      Cli nowhere =
          Cli.run(
              "serve",
              "--storage",
              "memory",
              "--bind",
              "999.1.1.1",
              "--port",
              "0",
              "--azure-port",
              "0",
              "--dynamodb-port",
              "0");

      assertThat(inUse.exitCode()).isEqualTo(1);
      assertThat(inUse.err())
          .contains("InvalidInput: Cannot listen on 127.0.0.1:" + taken.getLocalPort())
          .contains("is another server running there?");
      assertThat(nowhere.exitCode()).isEqualTo(1);
      assertThat(nowhere.err())
          .contains("Cannot listen on 999.1.1.1:0: the address does not resolve")
          .doesNotContain(": null");
    }
  }

  @Test
  void ioThreadsSetTheEventLoopsOfEachListener() throws Exception {
    Set<String> before = ioThreadNames();
    try (Served served =
        Served.start(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--io-threads",
            "3")) {
      URI base = URI.create(served.awaitListening().group(1));
      // Netty hands new connections to its event loops in turn: six reach all three, never a fourth
      for (int i = 0; i < 6; i++) {
        assertThat(healthOnANewConnection(base)).startsWith("HTTP/1.1 200");
      }
      Set<String> started = ioThreadNames();
      started.removeAll(before);
      assertThat(started).as("event-loop threads started by this server").hasSize(3);
    }

    Cli zero =
        Cli.run(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            "0",
            "--dynamodb-port",
            "0",
            "--io-threads",
            "0");
    assertThat(zero.exitCode()).isEqualTo(2);
    assertThat(zero.err()).contains("--io-threads must be 1 to 1024, not 0");
  }

  @Test
  void connectionFlagsBoundTheConnectionsOfEachListener() throws Exception {
    int azurePort; // (--azure-port 0 turns the dialect off)
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      azurePort = probe.getLocalPort();
    }
    try (Served served =
        Served.start(
            "serve",
            "--storage",
            "memory",
            "--port",
            "0",
            "--azure-port",
            String.valueOf(azurePort),
            "--dynamodb-port",
            "0",
            "--azure-anonymous",
            // long enough that the first connection still counts when the second arrives, however
            // slow the loaded machine is between the two
            "--idle-timeout",
            "2s",
            "--header-timeout",
            "1m",
            "--body-timeout",
            "2m",
            "--max-connections",
            "1")) {
      URI base = URI.create(served.awaitListening().group(1));
      served.await(AZURE_LINE);
      for (int port : new int[] {base.getPort(), azurePort}) {
        String get =
            port == azurePort ? "GET /devstoreaccount1/Tables HTTP/1.1" : "GET /v1/health HTTP/1.1";
        try (Socket first = new Socket(InetAddress.getLoopbackAddress(), port)) {
          first.setSoTimeout(10_000);
          first
              .getOutputStream()
              .write(
                  (get + "\r\nHost: x\r\nAccept: application/json\r\n\r\n")
                      .getBytes(StandardCharsets.US_ASCII));
          assertThat(statusLine(first)).startsWith("HTTP/1.1 200");
          try (Socket second = new Socket(InetAddress.getLoopbackAddress(), port)) {
            second.setSoTimeout(10_000);
            // over --max-connections: the native API answers 503 first, the dialect just closes
            String refused =
                new String(second.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(refused)
                .as("port " + port)
                .startsWith(port == azurePort ? "" : "HTTP/1.1 503");
          }
          // --idle-timeout: the first is closed once idle (readAllBytes returns at the close)
          first.getInputStream().readAllBytes();
        }
      }
    }

    for (String[] bad :
        new String[][] {
          {"--idle-timeout", "0s"},
          {"--header-timeout", "30"},
          {"--body-timeout", "soon"},
          {"--max-connections", "0"}
        }) {
      Cli serve =
          Cli.run(
              "serve",
              "--storage",
              "memory",
              "--port",
              "0",
              "--azure-port",
              "0",
              "--dynamodb-port",
              "0",
              bad[0],
              bad[1]);
      assertThat(serve.exitCode()).as(serve.toString()).isEqualTo(2);
      assertThat(serve.err()).contains(bad[0]).contains(bad[1]);
    }
  }

  /** The status line of the answer waiting on the socket, read up to its line end. */
  private static String statusLine(Socket socket) throws Exception {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = socket.getInputStream().read()) >= 0 && c != '\n') {
      line.append((char) c);
    }
    return line.toString().trim();
  }

  /** Names of this JVM's live event-loop threads of the native API's listener. */
  private static Set<String> ioThreadNames() {
    Set<String> names = new HashSet<>();
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.isAlive() && thread.getName().startsWith("viewbase-io-")) {
        names.add(thread.getName());
      }
    }
    return names;
  }

  /** GET /v1/health over a connection of its own; returns the status line. */
  private static String healthOnANewConnection(URI base) throws Exception {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket.setSoTimeout(10_000);
      socket
          .getOutputStream()
          .write(
              ("GET /v1/health HTTP/1.1\r\nHost: "
                      + base.getHost()
                      + "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      BufferedReader reader =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      return reader.readLine();
    }
  }

  /** A serve command on its own thread; closing interrupts it and waits for it to stop. */
  private static final class Served implements AutoCloseable {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final AtomicInteger exitCode = new AtomicInteger(-1);
    private final Thread thread;

    private Served(String... args) {
      thread =
          new Thread(
              () ->
                  exitCode.set(
                      Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                          .execute(args)),
              "serve");
    }

    static Served start(String... args) {
      Served served = new Served(args);
      served.thread.start();
      return served;
    }

    Matcher awaitListening() throws InterruptedException {
      return await(LISTENING);
    }

    /** What serve has printed on stderr so far. */
    String err() {
      return err.toString();
    }

    /** Waits until serve has printed a line matching the pattern. */
    Matcher await(Pattern pattern) throws InterruptedException {
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (Instant.now().isBefore(deadline)) {
        Matcher line = pattern.matcher(out.toString());
        if (line.find()) {
          return line;
        }
        if (!thread.isAlive()) {
          throw new AssertionError("serve ended (exit " + exitCode.get() + "): " + out + err);
        }
        Thread.sleep(20);
      }
      throw new AssertionError("serve printed no listening line: " + out + err);
    }

    @Override
    public void close() {
      thread.interrupt();
      try {
        thread.join(Duration.ofSeconds(30).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      assertThat(thread.isAlive()).as("serve stopped").isFalse();
      assertThat(exitCode.get()).as("serve's exit code\n" + out + err).isZero();
    }
  }
}
