package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.json.ErrorJson;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The listener's {@link ConnectionLimits} on both ports, over real sockets: connections that keep
 * the server waiting are closed (the native API answers 408 first when a request had begun), a
 * request being served or an answer being written is never cut, and a connection over the cap is
 * refused (503 on the native API) while the others go on.
 *
 * <p>The timeouts are 200 ms here. Nothing sleeps: a test waits for a close with a read bounded by
 * {@link RawConnection}, and proves that time has passed by such a close of another connection, on
 * the same event loop (every server here has one), whose timer was armed later.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectionLimitsTest {
  private static final Duration SHORT = Duration.ofMillis(200);
  private static final ConnectionLimits QUICK =
      ConnectionLimits.defaults()
          .withIdleTimeout(SHORT)
          .withHeaderTimeout(SHORT)
          .withBodyTimeout(SHORT);
  private static final ConnectionLimits TWO = ConnectionLimits.defaults().withMaxConnections(2);

  /** Properties that make an item of about 600 KB which the Azure dialect can still read. */
  private static final int BIG_PROPERTIES = 20;

  private Database real;
  private GatedDatabase db;
  private ViewbaseServer nativeQuick;
  private ViewbaseServer nativeTwo;
  private AzureTablesServer azureQuick;
  private AzureTablesServer azureTwo;

  /** The two listeners, and what each says where the tests differ. */
  enum Port {
    NATIVE(
        "/v1/health",
        "/v1/tables/Gated/items/p",
        "/v1/tables/Things/items/p/big",
        "PUT /v1/tables/Things/items/p/half"),
    AZURE(
        "/devstoreaccount1/Tables",
        "/devstoreaccount1/Gated()",
        "/devstoreaccount1/Things(PartitionKey='p',RowKey='big')",
        "POST /devstoreaccount1/Things");

    final String cheap;
    final String gated;
    final String big;
    final String write;

    Port(String cheap, String gated, String big, String write) {
      this.cheap = cheap;
      this.gated = gated;
      this.big = big;
      this.write = write;
    }

    /**
     * Whether the port answers its refusals (408, 503) before it closes: both do, each in its own
     * error shape.
     */
    boolean answersRefusals() {
      return true;
    }
  }

  @BeforeAll
  void start() {
    real = Viewbase.open(OpenOptions.inMemory());
    real.createTable("Gated");
    real.createTable("Things");
    Map<String, Value> properties = new LinkedHashMap<>();
    for (int i = 0; i < BIG_PROPERTIES; i++) {
      properties.put("p" + i, Value.of(("" + i).repeat(30_000).substring(0, 30_000)));
    }
    real.table("Things").upsert(Item.of("p", "big", properties));
    db = new GatedDatabase(real);
    nativeQuick =
        ViewbaseServer.start(
            db,
            ServerOptions.defaults()
                .withPort(0)
                .withIoThreads(1)
                .withWorkerThreads(2)
                .withConnections(QUICK));
    nativeTwo =
        ViewbaseServer.start(
            db,
            ServerOptions.defaults()
                .withPort(0)
                .withIoThreads(1)
                .withWorkerThreads(2)
                .withConnections(TWO));
    AzureOptions azure =
        AzureOptions.defaults()
            .withPort(0)
            .withAnonymousAccess(true)
            .withIoThreads(1)
            .withWorkerThreads(2);
    azureQuick = AzureTablesServer.start(db, azure.withConnections(QUICK));
    azureTwo = AzureTablesServer.start(db, azure.withConnections(TWO));
  }

  @AfterAll
  void stop() {
    nativeQuick.close();
    nativeTwo.close();
    azureQuick.close();
    azureTwo.close();
    real.close();
  }

  private int quick(Port port) {
    return port == Port.NATIVE ? nativeQuick.port() : azureQuick.port();
  }

  private int two(Port port) {
    return port == Port.NATIVE ? nativeTwo.port() : azureTwo.port();
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aKeptAliveConnectionLeftIdleIsClosedWithoutAnAnswer(Port port) {
    try (RawConnection connection = new RawConnection(quick(port))) {
      assertThat(connection.get(port.cheap).status()).isEqualTo(200);

      connection.awaitClose();
    }
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aConnectionThatNeverSendsARequestIsClosedWithoutAnAnswer(Port port) {
    try (RawConnection connection = new RawConnection(quick(port))) {
      connection.awaitClose();
    }
  }

  static Stream<Arguments> halfSentRequests() {
    return Stream.of(Port.values())
        .flatMap(
            port ->
                Stream.of(
                    Arguments.of(port, "a request line", "GET " + port.cheap + " HTTP/1."),
                    Arguments.of(
                        port,
                        "headers",
                        "GET "
                            + port.cheap
                            + " HTTP/1.1\r\nHost: test\r\nAccept: application/json"),
                    Arguments.of(
                        port,
                        "a body",
                        port.write
                            + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 60\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"half\",\"v\":")));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("halfSentRequests")
  void aHalfSentRequestIsRefusedClosedAndStoresNothing(Port port, String part, String request) {
    try (RawConnection connection = new RawConnection(quick(port))) {
      connection.send(request);

      if (port.answersRefusals()) {
        RawConnection.Response refused = connection.read();
        assertThat(refused.status()).as(refused.head() + refused.body()).isEqualTo(408);
        assertThat(refused.header("Connection")).hasValue("close");
        if (port == Port.NATIVE) {
          assertThat(
                  ErrorJson.read(refused.body().getBytes(StandardCharsets.UTF_8))
                      .orElseThrow()
                      .code())
              .isEqualTo(ErrorCode.RequestTimeout);
        } else {
          assertThat(refused.header("x-ms-error-code")).hasValue("OperationTimedOut");
        }
        assertThat(refused.body()).contains("did not arrive within 200ms");
      }
      connection.awaitClose();
    }
    assertThat(real.table("Things").get("p", "half")).isEmpty();
  }

  /**
   * A request served for longer than every timeout is answered: the connection is the server's
   * until then. The clock is a second connection, opened once the first's request is being served,
   * whose own header timeout closes it.
   */
  @ParameterizedTest
  @EnumSource(Port.class)
  void aRequestServedForLongerThanEveryTimeoutIsAnswered(Port port) throws InterruptedException {
    Gate gate = db.closeGate();
    try (RawConnection served = new RawConnection(quick(port))) {
      served.send(
          "GET " + port.gated + " HTTP/1.1\r\nHost: test\r\nAccept: application/json\r\n\r\n");
      assertThat(gate.entered.await(10, TimeUnit.SECONDS)).as("the query started").isTrue();
      try (RawConnection clock = new RawConnection(quick(port))) {
        clock.awaitClose();
      }
      gate.release.countDown();

      assertThat(served.read().status()).isEqualTo(200);
      served.awaitClose(); // idle now
    } finally {
      gate.release.countDown();
    }
  }

  /**
   * Answers that a client reads slowly are written whole: a stalled write keeps the connection
   * served. Twelve pipelined reads of a 600 KB item overflow the socket buffers (the client's
   * receive buffer is 4 KiB), and the client reads nothing until a second connection has timed out.
   */
  @ParameterizedTest
  @EnumSource(Port.class)
  void answersReadSlowerThanEveryTimeoutAreWrittenWhole(Port port) {
    int count = 12;
    try (RawConnection slow = new RawConnection(quick(port), 4096)) {
      slow.send(
          ("GET " + port.big + " HTTP/1.1\r\nHost: test\r\nAccept: application/json\r\n\r\n")
              .repeat(count));
      try (RawConnection clock = new RawConnection(quick(port))) {
        clock.awaitClose();
      }

      for (int i = 0; i < count; i++) {
        RawConnection.Response answer = slow.read();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().length()).isGreaterThan(BIG_PROPERTIES * 30_000);
      }
      slow.awaitClose();
    }
  }

  /**
   * A kept-alive answer says how long the server keeps the idle connection: the idle timeout, in
   * seconds.
   */
  @ParameterizedTest
  @EnumSource(Port.class)
  void keptAliveAnswersCarryKeepAliveWithTheIdleTimeout(Port port) {
    try (RawConnection connection = new RawConnection(two(port))) {
      RawConnection.Response answer = connection.get(port.cheap);

      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.header("Keep-Alive"))
          .hasValue("timeout=" + ConnectionLimits.defaults().idleTimeout().toSeconds());
    }
  }

  @ParameterizedTest
  @EnumSource(Port.class)
  void aConnectionOverTheCapIsRefusedWhileTheOthersWork(Port port) {
    try (RawConnection first = new RawConnection(two(port));
        RawConnection second = new RawConnection(two(port))) {
      assertThat(first.get(port.cheap).status()).isEqualTo(200);
      assertThat(second.get(port.cheap).status()).isEqualTo(200);

      try (RawConnection third = new RawConnection(two(port))) {
        if (port.answersRefusals()) {
          RawConnection.Response refused = third.read();
          assertThat(refused.status()).isEqualTo(503);
          assertThat(refused.header("Connection")).hasValue("close");
          if (port == Port.NATIVE) {
            assertThat(
                    ErrorJson.read(refused.body().getBytes(StandardCharsets.UTF_8))
                        .orElseThrow()
                        .code())
                .isEqualTo(ErrorCode.ServerBusy);
          } else {
            assertThat(refused.header("x-ms-error-code")).hasValue("ServerBusy");
          }
        }
        third.awaitClose();
      }
      assertThat(first.get(port.cheap).status()).isEqualTo(200);
      assertThat(second.get(port.cheap).status()).isEqualTo(200);
    }
    // both closed: their places are free again once the server has seen them go
    assertThat(servedOnANewConnection(two(port), port.cheap)).isTrue();
  }

  /** Whether a new connection is served within a bounded number of attempts. */
  private static boolean servedOnANewConnection(int port, String path) {
    for (int attempt = 0; attempt < 200; attempt++) {
      try (RawConnection next = new RawConnection(port)) {
        if (next.get(path).status() == 200) {
          return true;
        }
      } catch (AssertionError | UncheckedIOException refused) {
        // refused while the server had not yet counted the closed ones out
      }
    }
    return false;
  }

  /** Holds a query until released, and says when it has started. */
  private static final class Gate {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    void pass() {
      entered.countDown();
      try {
        if (!release.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the gate was never opened");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * A real database whose table {@code Gated} holds its queries at a gate: a query that takes as
   * long as the test wants, which no real query can be made to do on demand.
   */
  private static final class GatedDatabase extends DelegatingDatabase {
    private volatile Gate gate = new Gate();

    GatedDatabase(Database real) {
      super(real);
      gate.release.countDown();
    }

    /** A new closed gate for the next queries. */
    Gate closeGate() {
      gate = new Gate();
      return gate;
    }

    @Override
    public Table table(String name) {
      Table table = real.table(name);
      return name.equals("Gated") ? new GatedTable(table) : table;
    }

    private final class GatedTable implements Table {
      private final Table real;

      GatedTable(Table real) {
        this.real = real;
      }

      @Override
      public String name() {
        return real.name();
      }

      @Override
      public Optional<Item> get(String partitionKey, String id) {
        return real.get(partitionKey, id);
      }

      @Override
      public Item insert(Item item) {
        return real.insert(item);
      }

      @Override
      public Item replace(Item item, String ifMatch) {
        return real.replace(item, ifMatch);
      }

      @Override
      public Item upsert(Item item) {
        return real.upsert(item);
      }

      @Override
      public Item merge(Item item, String ifMatch) {
        return real.merge(item, ifMatch);
      }

      @Override
      public Item upsertMerge(Item item) {
        return real.upsertMerge(item);
      }

      @Override
      public void delete(String partitionKey, String id, String ifMatch) {
        real.delete(partitionKey, id, ifMatch);
      }

      @Override
      public Page query(Query query) {
        gate.pass();
        return real.query(query);
      }

      @Override
      public ItemCursor cursor(Query query) {
        gate.pass();
        return real.cursor(query);
      }

      @Override
      public QueryPlan explain(Query query) {
        return real.explain(query);
      }
    }
  }
}
