package io.viewbase.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.ServerMetrics;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import io.viewbase.server.dynamodb.DynamoDbServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * One process's {@code /metrics} under load from all three protocols, each through its real client
 * (java.net.http for the native API, the Azure Tables SDK, the AWS SDK v2), on RocksDB in a
 * temporary directory: scraped twice and read by the Prometheus client's own text parser ({@code
 * src/test/python/metrics_samples.py}, Python's {@code prometheus_client}), every documented series
 * present in the second scrape and the counters and histograms moved between.
 *
 * <p>Without the parser (Debian's {@code python3-prometheus-client}) the test is skipped, or fails
 * with {@code -Dviewbase.test.requirePrometheusParser=true}, as CI runs it.
 */
class MetricsScrapeTest {
  private static final String REQUIRE = "viewbase.test.requirePrometheusParser";
  private static final String AZURE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  private static final int ITEMS = 1000;

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  void everySeriesIsPresentAndMovesUnderLoadFromEveryDialect(@TempDir Path dir) throws Exception {
    String python = parser();
    ServerMetrics metrics = new ServerMetrics();
    try (Database db = Viewbase.open(OpenOptions.at(dir.resolve("data")));
        ViewbaseServer server =
            ViewbaseServer.start(db, ServerOptions.defaults().withPort(0), metrics);
        AzureTablesServer azureServer =
            AzureTablesServer.start(db, AzureOptions.defaults().withPort(0), metrics);
        DynamoDbServer dynamoServer =
            DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0), metrics)) {
      String base = "http://127.0.0.1:" + server.port();
      TableClient azure = azureTable(azureServer.port());
      try (DynamoDbClient dynamo = dynamoDb(dynamoServer.port())) {
        send("PUT", base + "/v1/tables/Metered", "{\"changeFeed\":{\"enabled\":true}}", 201);
        dynamo.createTable(
            b ->
                b.tableName("MeteredDynamo")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(
                        AttributeDefinition.builder()
                            .attributeName("pk")
                            .attributeType(ScalarAttributeType.S)
                            .build())
                    .keySchema(
                        KeySchemaElement.builder()
                            .attributeName("pk")
                            .keyType(KeyType.HASH)
                            .build()));
        load(base, azure, dynamo, 0, 20);

        Samples first = scrape(python, base, dir);

        load(base, azure, dynamo, 20, ITEMS);
        // a reader that takes one entry of the feed's ITEMS: it is left ITEMS - 1 behind
        send("GET", base + "/v1/tables/Metered/changes?after=0&limit=1", null, 200);
        send(
            "PUT",
            base + "/v1/views/MeteredByGroup",
            "{\"source\":\"Metered\",\"partitionBy\":\"{group}\",\"idBy\":\"{id}\"}",
            202);
        Samples during = scrape(python, base, dir); // the view is building or already built
        awaitReady(base + "/v1/views/MeteredByGroup");
        Samples second = scrape(python, base, dir);

        // requests by dialect, route and status, with latency: present, and moved
        for (String[] request :
            new String[][] {
              {"native", "item", "200"}, {"azure", "entity", "204"}, {"dynamodb", "PutItem", "200"}
            }) {
          String labels =
              "dialect=" + request[0] + ",route=" + request[1] + ",status=" + request[2];
          String count = "viewbase_http_requests_seconds_count";
          assertThat(second.value(count, labels))
              .as(labels)
              .isGreaterThan(first.value(count, labels));
          assertThat(second.type(count)).isEqualTo("histogram");
          String inf = labels.replace(",route=", ",le=+Inf,route="); // the parser sorts labels
          assertThat(second.value("viewbase_http_requests_seconds_bucket", inf))
              .isEqualTo(second.value(count, labels));
          assertThat(second.value("viewbase_http_requests_in_flight", "dialect=" + request[0]))
              .isGreaterThanOrEqualTo(0);
        }
        assertThat(second.value("viewbase_http_requests_in_flight", "dialect=native"))
            .isEqualTo(1); // the scrape itself

        // the group committer: sizes and write times, moved
        for (String histogram :
            new String[] {
              "viewbase_rocksdb_group_commit_batches_count",
              "viewbase_rocksdb_group_commit_write_seconds_count",
              "viewbase_rocksdb_commits_total"
            }) {
          assertThat(second.value(histogram, ""))
              .as(histogram)
              .isGreaterThan(first.value(histogram, ""));
        }
        // the histograms' buckets fill (every write of this load takes less than 250 ms, nearly
        // all)
        assertThat(second.value("viewbase_rocksdb_group_commit_write_seconds_bucket", "le=0.25"))
            .isPositive();
        assertThat(second.value("viewbase_rocksdb_group_commit_batches_bucket", "le=1024.0"))
            .isEqualTo(second.value("viewbase_rocksdb_group_commit_batches_count", ""));
        // RocksDB's own figures: present (block cache lookups need files, which this load may not
        // have flushed yet; the memtable holds what it wrote)
        assertThat(second.value("viewbase_rocksdb_memtable_bytes", ""))
            .isPositive(); // RocksDB grows it by arena blocks: not every write moves it;
        assertThat(second.value("viewbase_rocksdb_compaction_pending_bytes", "")).isNotNegative();
        assertThat(second.value("viewbase_rocksdb_block_cache_hits_total", "")).isNotNegative();
        assertThat(second.value("viewbase_rocksdb_block_cache_misses_total", "")).isNotNegative();
        assertThat(second.has("viewbase_rocksdb_block_cache_hit_ratio", "")).isTrue();
        assertThat(second.value("viewbase_rocksdb_stall_seconds_total", "")).isNotNegative();

        // the view's backfill: absent before it exists, progress while building, done once ready
        assertThat(first.has("viewbase_view_backfill_examined", "view=MeteredByGroup")).isFalse();
        double doneDuring = during.value("viewbase_view_backfill_examined", "view=MeteredByGroup");
        assertThat(doneDuring)
            .isBetween(
                0.0, during.value("viewbase_view_backfill_source_items", "view=MeteredByGroup"));
        assertThat(second.value("viewbase_view_backfill_examined", "view=MeteredByGroup"))
            .isEqualTo(ITEMS)
            .isEqualTo(second.value("viewbase_view_backfill_source_items", "view=MeteredByGroup"));
        assertThat(second.value("viewbase_view_state", "state=ready,view=MeteredByGroup"))
            .isEqualTo(1);

        // the change feed: the slowest read of the last minute left ITEMS - 1 entries unread
        assertThat(second.value("viewbase_changefeed_lag_entries", "table=Metered"))
            .isEqualTo(ITEMS - 1);
      }
    }
  }

  /** Durable writes and point reads through every dialect, items {@code from} to {@code to}. */
  private void load(String base, TableClient azure, DynamoDbClient dynamo, int from, int to)
      throws Exception {
    for (int i = from; i < to; i++) {
      send(
          "PUT",
          base + "/v1/tables/Metered/items/p/i" + i,
          "{\"group\":\"g" + (i % 7) + "\",\"n\":" + i + "}",
          200);
      if (i % 10 == 0) {
        send("GET", base + "/v1/tables/Metered/items/p/i" + i, null, 200);
        azure.upsertEntity(new TableEntity("p", "r" + i).addProperty("n", i));
        azure.getEntity("p", "r" + i);
        String key = "k" + i;
        dynamo.putItem(
            b -> b.tableName("MeteredDynamo").item(Map.of("pk", AttributeValue.fromS(key))));
      }
    }
  }

  private void awaitReady(String view) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!send("GET", view, null, 200).contains("\"ready\"")) {
      assertThat(System.nanoTime() - deadline).as("view built").isNegative();
      Thread.sleep(20);
    }
  }

  private String send(String method, String uri, String body, int expected) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    if (expected > 0) {
      assertThat(r.statusCode()).as(method + " " + uri + ": " + r.body()).isEqualTo(expected);
    }
    return r.body();
  }

  /** {@code GET /metrics}, as the Prometheus client's parser reads it. */
  private Samples scrape(String python, String base, Path dir) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain; version=0.0.4"));
    Process p =
        new ProcessBuilder(python, script().toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(r.body().getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("the parser reads the scrape:\n" + r.body()).isZero();
    return new Samples(out.lines().map(l -> l.split("\t", -1)).toList(), r.body());
  }

  /** Every sample of one scrape: {type, name, labels, value}. */
  private record Samples(List<String[]> rows, String text) {
    boolean has(String name, String labels) {
      return rows.stream().anyMatch(r -> r[1].equals(name) && r[2].equals(labels));
    }

    double value(String name, String labels) {
      return rows.stream()
          .filter(r -> r[1].equals(name) && r[2].equals(labels))
          .mapToDouble(r -> Double.parseDouble(r[3]))
          .findFirst()
          .orElseThrow(() -> new AssertionError(name + "{" + labels + "} missing in\n" + text));
    }

    String type(String name) {
      return rows.stream().filter(r -> r[1].equals(name)).map(r -> r[0]).findFirst().orElseThrow();
    }
  }

  private static Path script() {
    return Path.of("src/test/python/metrics_samples.py").toAbsolutePath();
  }

  /** A Python that has the Prometheus client, or skips (fails when required) with why. */
  private static String parser() throws InterruptedException {
    List<String> tried = new ArrayList<>();
    for (String python : new String[] {"/usr/bin/python3", "python3"}) {
      try {
        Process p =
            new ProcessBuilder(python, "-c", "import prometheus_client.parser")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return python;
        }
        tried.add(python + " has no prometheus_client");
      } catch (IOException absent) {
        tried.add(python + " absent");
      }
    }
    String why =
        "the Prometheus text parser is missing ("
            + String.join("; ", tried)
            + "): install Debian's python3-prometheus-client";
    if (Boolean.getBoolean(REQUIRE)) {
      throw new AssertionError(why);
    }
    assumeTrue(false, why);
    return null;
  }

  private static TableClient azureTable(int port) {
    TableClient client =
        new TableServiceClientBuilder()
            .endpoint("http://127.0.0.1:" + port + "/devstoreaccount1")
            .credential(new AzureNamedKeyCredential("devstoreaccount1", AZURE_KEY))
            .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
            .buildClient()
            .createTableIfNotExists("MeteredAzure");
    return client;
  }

  private static DynamoDbClient dynamoDb(int port) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET)))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }
}
