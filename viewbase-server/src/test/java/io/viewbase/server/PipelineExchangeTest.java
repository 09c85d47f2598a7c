package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The in-process request path the pipeline fuzz targets use answers as a socket does: each request
 * goes once through {@link PipelineExchange} to one database and once over a socket ({@link
 * RawExchange}) to a server on another, both seeded alike; the statuses and the stored items must
 * be the same. The requests cover each way a request is served (inline, asynchronous, on the worker
 * pool), pipelining, a body over several reads, an unfinished request and a malformed one.
 */
class PipelineExchangeTest {
  private static final String CLOSE = "Host: x\r\nConnection: close\r\n";

  private Database overPipeline;
  private Database overSocket;
  private ViewbaseServer server;
  private PipelineExchange exchange;

  @BeforeEach
  void start() {
    overPipeline = seeded();
    overSocket = seeded();
    server = ViewbaseServer.start(overSocket, ServerOptions.defaults().withPort(0));
    ServerMetrics metrics = new ServerMetrics();
    exchange =
        new PipelineExchange(
            ViewbaseServer.listenerOptions(ServerOptions.defaults()),
            new NativeDialect(
                new NativeApi(overPipeline, metrics, ApiKeys.of(overPipeline), true),
                metrics.requests("native")));
  }

  private static Database seeded() {
    Database db = Viewbase.open(OpenOptions.inMemory());
    db.createTable("People");
    db.table("People").upsert(Item.of("acme", "ann", Map.of("age", Value.of(41))));
    return db;
  }

  @AfterEach
  void stop() {
    server.close();
    overSocket.close();
    overPipeline.close();
  }

  private static String put(String id, String body, String headers) {
    return "PUT /v1/tables/People/items/acme/"
        + id
        + " HTTP/1.1\r\n"
        + headers
        + "Content-Type: application/json\r\nContent-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length
        + "\r\n\r\n"
        + body;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // inline: a point read, found and not
        "GET /v1/tables/People/items/acme/ann HTTP/1.1\r\n" + CLOSE + "\r\n",
        "GET /v1/tables/People/items/acme/bob HTTP/1.1\r\n" + CLOSE + "\r\n",
        // on the worker pool: a query, and a table made
        "GET /v1/tables/People/items?filter=age%20gt%2040 HTTP/1.1\r\n" + CLOSE + "\r\n",
        "PUT /v1/tables/Pets HTTP/1.1\r\n" + CLOSE + "Content-Length: 0\r\n\r\n",
        // three pipelined on one connection, the last one closing it
        "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /v1/tables/People/items/acme/bob HTTP/1.1\r\nHost: x\r\n\r\n"
            + "GET /v1/tables HTTP/1.1\r\n"
            + CLOSE
            + "\r\n",
        // a request that does not finish (its body is shorter than it says), and a malformed one
        "PUT /v1/tables/People/items/acme/cy HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{",
        "GET /v1/health HTTP/9.9 x\r\n\r\n"
      })
  void answersAsASocketDoes(String request) {
    assertSame(request.getBytes(StandardCharsets.UTF_8));
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 3000, 9000})
  void anAsynchronousWriteAnswersAsASocketDoesWhateverReadsItsBodyTakes(int size) {
    // written asynchronously; 3,000 and 9,000 bytes arrive in two and five reads
    String body = "{\"note\":\"" + "n".repeat(size) + "\"}";
    assertSame(
        (put("cy", body, "Host: x\r\n") + put("dee", body, CLOSE))
            .getBytes(StandardCharsets.UTF_8));
    assertThat(overPipeline.table("People").get("acme", "dee")).isPresent();
  }

  private void assertSame(byte[] request) {
    List<Integer> viaPipeline = exchange.statuses(request, 1000);
    // a patient client: an answer the loaded machine delays must not meet a closed connection
    // (only the unfinished request waits this out)
    List<Integer> viaSocket = RawExchange.statuses(server.port(), request, 30_000, 3_000);
    assertThat(viaPipeline).as("statuses").isEqualTo(viaSocket);
    assertThat(items(overPipeline)).as("People").isEqualTo(items(overSocket));
    assertThat(tables(overPipeline)).as("tables").isEqualTo(tables(overSocket));
  }

  /** The stored items, each as its key and properties (their versions differ by the clock). */
  private static List<String> items(Database db) {
    return db.table("People").query(Query.all()).items().stream()
        .map(item -> item.partitionKey() + "/" + item.id() + " " + item.properties())
        .toList();
  }

  private static List<String> tables(Database db) {
    return db.listTables().stream().map(TableInfo::name).toList();
  }
}
