package io.viewbase.cli;

import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.dynamodb.RequestSigner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The training run of the class-data-sharing archive (docs/startup.md): the build runs {@code java
 * -XX:ArchiveClassesAtExit=target/viewbase.jsa -jar target/viewbase.jar class-archive-training},
 * and the JVM writes the classes this run loaded into the archive when it exits. The run starts
 * {@code serve} in this process on free loopback ports and a temporary RocksDB directory, sends the
 * requests of the real request paths over sockets (the native API, the Azure dialect signed with
 * SharedKey, the DynamoDB dialect signed with SigV4), stops the server and deletes the directory.
 * It prints nothing when it succeeds: it runs inside every build, also the launcher's quiet one.
 *
 * <p>Every request must answer the status it expects, or the run fails (exit 1) naming the request:
 * an archive trained on error paths would miss the classes of the paths that serve. Hidden from
 * {@code --help}: it is the build's, not a user's.
 */
@Command(
    name = "class-archive-training",
    hidden = true,
    description = "Exercise every dialect once, for the build's class-data-sharing archive.")
final class ClassArchiveTraining implements Callable<Integer> {
  private static final Pattern NATIVE_LINE =
      Pattern.compile("Viewbase listening on (http://\\S+) ");
  private static final Pattern AZURE_LINE =
      Pattern.compile("Azure Tables dialect on (http://\\S+)/");
  private static final Pattern DYNAMODB_LINE =
      Pattern.compile("DynamoDB dialect on (http://\\S+) ");
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final String ACCOUNT = AzureOptions.DEV_ACCOUNT;
  private static final String REGION = "us-east-1";

  @Spec CommandSpec spec;

  @Option(
      names = "--vm-stamp",
      paramLabel = "FILE",
      description =
          "Write this JVM's build (java.vm.version) to FILE: the launcher uses the archive only "
              + "with the JVM that wrote it, since another JVM cannot map it and then maps no "
              + "archive at all, not even its own default one.")
  Path vmStamp;

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final io.viewbase.server.azure.RequestSigner azureSigner =
      new io.viewbase.server.azure.RequestSigner(ACCOUNT, AzureOptions.DEV_KEY);

  @Override
  public Integer call() throws Exception {
    for (int attempt = 1; ; attempt++) {
      Path dir = Files.createTempDirectory("viewbase-class-archive-");
      try {
        train(dir);
        break;
      } catch (NotListening failure) {
        if (attempt == 3) {
          throw failure;
        }
        // Another program may have taken a port between its probe and serve's bind: new ports.
      } finally {
        deleteTree(dir);
      }
    }
    if (vmStamp != null) {
      Files.writeString(vmStamp, System.getProperty("java.vm.version") + "\n");
    }
    return 0;
  }

  private void train(Path dir) throws Exception {
    Lines banner = new Lines();
    PrintWriter serveOut = new PrintWriter(banner, true);
    PrintWriter serveErr = spec.commandLine().getErr();
    int[] exit = {-1};
    Thread serving =
        new Thread(
            () ->
                exit[0] =
                    Main.commandLine(serveOut, serveErr)
                        .execute(
                            "serve",
                            "--data",
                            dir.resolve("data").toString(),
                            "--port",
                            "0",
                            "--azure-port",
                            String.valueOf(freePort()),
                            "--dynamodb-port",
                            String.valueOf(freePort())),
            "class-archive-serve");
    serving.start();
    try {
      URI nativeApi = URI.create(banner.await(NATIVE_LINE, serving));
      URI azure = URI.create(banner.await(AZURE_LINE, serving));
      URI dynamoDb = URI.create(banner.await(DYNAMODB_LINE, serving));
      nativeApi(nativeApi);
      azure(azure);
      dynamoDb(dynamoDb);
    } finally {
      serving.interrupt();
      serving.join(TIMEOUT.toMillis());
    }
    if (serving.isAlive() || exit[0] != 0) {
      throw new IllegalStateException(
          "serve did not stop cleanly (exit " + exit[0] + ", alive " + serving.isAlive() + ")");
    }
  }

  private void nativeApi(URI base) throws IOException, InterruptedException {
    Map<String, String> json = Map.of("Content-Type", "application/json");
    send(base, "PUT", "/v1/tables/People", json, "", 201);
    send(
        base,
        "PUT",
        "/v1/views/PeopleByEmail",
        json,
        "{\"source\":\"People\",\"partitionBy\":\"all\",\"idBy\":\"{email|lower}\","
            + "\"where\":\"age ge 18\",\"select\":[\"email\",\"name\"]}",
        201,
        202);
    send(
        base,
        "PUT",
        "/v1/tables/People/items/acme/alice",
        json,
        "{\"name\":\"Alice\",\"email\":\"Alice@example.com\",\"age\":34,"
            + "\"born\":\"1990-05-01T00:00:00Z\",\"born@odata.type\":\"Edm.DateTime\"}",
        200);
    send(
        base,
        "PUT",
        "/v1/tables/People/items/acme/bob",
        Map.of("Content-Type", "application/json", "If-None-Match", "*"),
        "{\"name\":\"Bob\",\"email\":\"bob@example.com\",\"age\":27,\"tags\":[\"a\",\"b\"]}",
        201);
    send(base, "GET", "/v1/tables/People/items/acme/alice", Map.of(), null, 200);
    send(
        base,
        "PATCH",
        "/v1/tables/People/items/acme/alice",
        Map.of("Content-Type", "application/json", "If-Match", "*"),
        "{\"age\":35}",
        200);
    send(base, "GET", "/v1/tables/People/items/acme?prefix=a&limit=10", Map.of(), null, 200);
    send(
        base,
        "GET",
        "/v1/tables/People/items?filter=" + encode("age ge 30 and name eq 'Alice'"),
        Map.of(),
        null,
        200);
    awaitView(base, "/v1/views/PeopleByEmail");
    send(base, "GET", "/v1/tables/PeopleByEmail/items/all/alice@example.com", Map.of(), null, 200);
    send(
        base,
        "GET",
        "/v1/tables/People/items?explain=true&filter=" + encode("email eq 'bob@example.com'"),
        Map.of(),
        null,
        200);
    send(
        base,
        "POST",
        "/v1/batch",
        json,
        "{\"operations\":[{\"op\":\"insert\",\"table\":\"People\",\"partitionKey\":\"acme\","
            + "\"id\":\"carol\",\"item\":{\"name\":\"Carol\",\"age\":41}},"
            + "{\"op\":\"delete\",\"table\":\"People\",\"partitionKey\":\"acme\",\"id\":\"bob\"}]}",
        200);
    send(base, "DELETE", "/v1/tables/People/items/acme/carol", Map.of(), null, 204);
    send(base, "GET", "/v1/tables", Map.of(), null, 200);
    send(base, "GET", "/v1/health", Map.of(), null, 200);
  }

  /** Waits for a view's backfill to end: reads through a view still building would fail. */
  private void awaitView(URI base, String path) throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (!send(base, "GET", path, Map.of(), null, 200).body().contains("\"state\":\"ready\"")) {
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("The view " + path + " did not become ready");
      }
      Thread.sleep(20);
    }
  }

  private void azure(URI base) throws IOException, InterruptedException {
    String entity = "/" + ACCOUNT + "/Orders(PartitionKey='p1',RowKey='r1')";
    azure(base, "POST", "/" + ACCOUNT + "/Tables", "", "{\"TableName\":\"Orders\"}", Map.of(), 201);
    azure(
        base,
        "POST",
        "/" + ACCOUNT + "/Orders",
        "",
        "{\"PartitionKey\":\"p1\",\"RowKey\":\"r1\",\"qty\":3,\"price\":\"12.5\","
            + "\"price@odata.type\":\"Edm.Double\",\"at\":\"2026-12-01T10:00:00Z\","
            + "\"at@odata.type\":\"Edm.DateTime\",\"code\":\"7\",\"code@odata.type\":\"Edm.Int64\"}",
        Map.of(),
        201);
    azure(base, "GET", entity, "", null, Map.of(), 200);
    azure(
        base,
        "GET",
        "/" + ACCOUNT + "/Orders()",
        "?$filter=" + encode("PartitionKey eq 'p1' and qty ge 2") + "&$top=10&$select=qty,price",
        null,
        Map.of(),
        200);
    azure(base, "MERGE", entity, "", "{\"qty\":4}", Map.of("If-Match", "*"), 204);
    azure(
        base, "PUT", entity, "", "{\"qty\":5,\"note\":\"replaced\"}", Map.of("If-Match", "*"), 204);
    azure(
        base,
        "POST",
        "/" + ACCOUNT + "/Orders",
        "",
        "{\"PartitionKey\":\"p2\",\"RowKey\":\"d\"}",
        Map.of("Prefer", "return-no-content"),
        204);
    azure(base, "POST", "/" + ACCOUNT + "/$batch", "", null, Map.of(), 202);
    azure(base, "DELETE", entity, "", null, Map.of("If-Match", "*"), 204);
    azure(base, "GET", "/" + ACCOUNT + "/Tables", "", null, Map.of(), 200);
  }

  /**
   * One entity group transaction in the partition p2: two inserts, an insert-or-merge and the
   * delete of the entity d inserted before it.
   */
  private static String batchBody(URI base) {
    String changeset = "changeset_training";
    StringBuilder sb =
        new StringBuilder("--batch_training\r\n")
            .append("Content-Type: multipart/mixed; boundary=")
            .append(changeset)
            .append("\r\n\r\n");
    String table = base + "/" + ACCOUNT + "/Orders";
    String[] operations = {
      "POST "
          + table
          + " HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0;\r\n\r\n"
          + "{\"PartitionKey\":\"p2\",\"RowKey\":\"a\",\"qty\":1}",
      "POST "
          + table
          + " HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json;odata=minimalmetadata\r\nPrefer: return-no-content\r\nDataServiceVersion: 3.0;\r\n\r\n"
          + "{\"PartitionKey\":\"p2\",\"RowKey\":\"b\",\"qty\":2}",
      "MERGE "
          + table
          + "(PartitionKey='p2',RowKey='c') HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
          + "{\"qty\":3}",
      "DELETE " + table + "(PartitionKey='p2',RowKey='d') HTTP/1.1\r\nIf-Match: *\r\n\r\n"
    };
    for (String operation : operations) {
      sb.append("--")
          .append(changeset)
          .append("\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n")
          .append(operation)
          .append("\r\n");
    }
    return sb.append("--").append(changeset).append("--\r\n--batch_training--\r\n").toString();
  }

  private void azure(
      URI base,
      String method,
      String path,
      String query,
      String body,
      Map<String, String> extra,
      int expected)
      throws IOException, InterruptedException {
    boolean batch = path.endsWith("/$batch");
    String content = batch ? batchBody(base) : body;
    String contentType =
        batch
            ? "multipart/mixed; boundary=batch_training"
            : content == null ? null : "application/json";
    String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("x-ms-date", date);
    headers.put("x-ms-version", "2019-02-02");
    headers.put("Accept", "application/json;odata=minimalmetadata");
    headers.put("DataServiceVersion", "3.0;NetFx");
    headers.put("MaxDataServiceVersion", "3.0;NetFx");
    if (contentType != null) {
      headers.put("Content-Type", contentType);
    }
    headers.putAll(extra);
    headers.put("Authorization", azureSigner.sharedKey(method, path, null, contentType, date));
    HttpResponse<String> answer = send(base, method, path + query, headers, content, expected);
    if (batch && !answer.body().contains("HTTP/1.1 204") || answer.body().contains("HTTP/1.1 4")) {
      throw new IllegalStateException("The $batch failed: " + answer.body());
    }
  }

  private void dynamoDb(URI base) throws IOException, InterruptedException {
    dynamoDb(
        base,
        "CreateTable",
        "{\"TableName\":\"Music\",\"BillingMode\":\"PAY_PER_REQUEST\","
            + "\"AttributeDefinitions\":[{\"AttributeName\":\"Artist\",\"AttributeType\":\"S\"},"
            + "{\"AttributeName\":\"Song\",\"AttributeType\":\"S\"},"
            + "{\"AttributeName\":\"Year\",\"AttributeType\":\"N\"}],"
            + "\"KeySchema\":[{\"AttributeName\":\"Artist\",\"KeyType\":\"HASH\"},"
            + "{\"AttributeName\":\"Song\",\"KeyType\":\"RANGE\"}],"
            + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByYear\","
            + "\"KeySchema\":[{\"AttributeName\":\"Year\",\"KeyType\":\"HASH\"},"
            + "{\"AttributeName\":\"Song\",\"KeyType\":\"RANGE\"}],"
            + "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}");
    dynamoDb(base, "DescribeTable", "{\"TableName\":\"Music\"}");
    for (String song : new String[] {"Call Me Today", "Happy Day"}) {
      dynamoDb(
          base,
          "PutItem",
          "{\"TableName\":\"Music\",\"Item\":{\"Artist\":{\"S\":\"No One You Know\"},"
              + "\"Song\":{\"S\":\""
              + song
              + "\"},\"Year\":{\"N\":\"2020\"},\"Tags\":{\"SS\":[\"pop\",\"new\"]},"
              + "\"Plays\":{\"N\":\"1\"},\"Info\":{\"M\":{\"Label\":{\"S\":\"x\"},\"Live\":{\"BOOL\":false}}}}}");
    }
    dynamoDb(
        base,
        "GetItem",
        "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Know\"},"
            + "\"Song\":{\"S\":\"Call Me Today\"}},\"ConsistentRead\":true}");
    dynamoDb(
        base,
        "Query",
        "{\"TableName\":\"Music\",\"KeyConditionExpression\":\"Artist = :a AND begins_with(Song, :s)\","
            + "\"FilterExpression\":\"Plays >= :p\",\"ExpressionAttributeValues\":{"
            + "\":a\":{\"S\":\"No One You Know\"},\":s\":{\"S\":\"Call\"},\":p\":{\"N\":\"1\"}}}");
    dynamoDb(
        base,
        "Query",
        "{\"TableName\":\"Music\",\"IndexName\":\"ByYear\",\"KeyConditionExpression\":\"#y = :y\","
            + "\"ExpressionAttributeNames\":{\"#y\":\"Year\"},"
            + "\"ExpressionAttributeValues\":{\":y\":{\"N\":\"2020\"}},\"ScanIndexForward\":false}");
    dynamoDb(
        base,
        "UpdateItem",
        "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Know\"},"
            + "\"Song\":{\"S\":\"Call Me Today\"}},"
            + "\"UpdateExpression\":\"SET Plays = Plays + :one, Info.Live = :t REMOVE Tags\","
            + "\"ConditionExpression\":\"attribute_exists(Artist)\","
            + "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":t\":{\"BOOL\":true}},"
            + "\"ReturnValues\":\"ALL_NEW\"}");
    dynamoDb(base, "Scan", "{\"TableName\":\"Music\",\"Limit\":10}");
    dynamoDb(
        base,
        "DeleteItem",
        "{\"TableName\":\"Music\",\"Key\":{\"Artist\":{\"S\":\"No One You Know\"},"
            + "\"Song\":{\"S\":\"Happy Day\"}},\"ReturnValues\":\"ALL_OLD\"}");
  }

  private void dynamoDb(URI base, String operation, String body)
      throws IOException, InterruptedException {
    Map<String, String> headers =
        RequestSigner.localHeaders(
            base.getHost() + ":" + base.getPort(),
            operation,
            REGION,
            body.getBytes(StandardCharsets.UTF_8));
    headers.remove("host"); // the client sends it, as signed
    send(base, "POST", "/", headers, body, 200);
  }

  private HttpResponse<String> send(
      URI base,
      String method,
      String pathAndQuery,
      Map<String, String> headers,
      String body,
      int... expected)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + pathAndQuery))
            .timeout(TIMEOUT)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    headers.forEach(request::header);
    HttpResponse<String> answer =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (Arrays.stream(expected).noneMatch(status -> status == answer.statusCode())) {
      throw new IllegalStateException(
          method
              + " "
              + pathAndQuery
              + " answered "
              + answer.statusCode()
              + ", not "
              + Arrays.toString(expected)
              + ": "
              + answer.body());
    }
    return answer;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A free port of the loopback address, for a dialect (whose port 0 means off). */
  private static int freePort() {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /** What {@code serve} prints, line by line, for the thread that waits for its banner. */
  private static final class Lines extends Writer {
    private final StringBuilder partial = new StringBuilder();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    @Override
    public synchronized void write(char[] chars, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        if (chars[i] == '\n') {
          lines.add(partial.toString());
          partial.setLength(0);
        } else if (chars[i] != '\r') {
          partial.append(chars[i]);
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    /** The first group of the next line matching {@code pattern}, skipping the others. */
    String await(Pattern pattern, Thread serving) throws InterruptedException {
      Instant deadline = Instant.now().plus(TIMEOUT);
      while (Instant.now().isBefore(deadline)) {
        String line = lines.poll(100, TimeUnit.MILLISECONDS);
        if (line != null) {
          Matcher match = pattern.matcher(line);
          if (match.find()) {
            return match.group(1);
          }
        } else if (!serving.isAlive()) {
          throw new NotListening("serve stopped before it listened (see its error above)");
        }
      }
      throw new IllegalStateException("serve did not print " + pattern + " in " + TIMEOUT);
    }
  }

  /** {@code serve} ended before it listened: a port it was given may have been taken meanwhile. */
  private static final class NotListening extends IllegalStateException {
    NotListening(String message) {
      super(message);
    }
  }
}
