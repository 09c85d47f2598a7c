package io.viewbase.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scenario through a real server on an ephemeral port, plus what only a remote database can do.
 */
class RemoteScenarioTest extends DatabaseScenario {
  private Database embedded;
  private ViewbaseServer server;
  private RemoteDatabase remote;

  @BeforeAll
  void start() {
    embedded = Viewbase.open(OpenOptions.inMemory());
    server =
        ViewbaseServer.start(
            embedded, ServerOptions.defaults().withPort(0).withWorkerThreads(8).withIoThreads(1));
    remote = RemoteDatabase.connect(URI.create("http://127.0.0.1:" + server.port() + "/"));
  }

  @AfterAll
  void stop() {
    remote.close();
    server.close();
    embedded.close();
  }

  @Override
  Database db() {
    return remote;
  }

  @Test
  void writesThroughTheClientAreTheServersData() {
    var t = newTable();
    var written = t.upsert(io.viewbase.api.Item.builder("p", "i").put("v", 1).build());
    assertThat(embedded.table(t.name()).get("p", "i")).contains(written);
  }

  @Test
  void unreachableServerFailsWithStorageUnreachable() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (RemoteDatabase nowhere =
        RemoteDatabase.connect(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(5))) {
      assertCode(nowhere::listTables, ErrorCode.StorageUnreachable);
    }
  }

  @Test
  void serverThatTakesTheRequestAndNeverAnswersFailsWithTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        RemoteDatabase waiting =
            RemoteDatabase.connect(
                URI.create("http://127.0.0.1:" + silent.getLocalPort()), Duration.ofMillis(500))) {
      // the backlog accepts the connection; nothing ever reads the request or answers it
      assertCode(waiting::listTables, ErrorCode.Timeout);
    }
  }

  @Test
  void closedDatabaseFailsWithDatabaseClosed() {
    RemoteDatabase other = RemoteDatabase.connect(URI.create("http://127.0.0.1:" + server.port()));
    other.close();
    assertCode(other::listTables, ErrorCode.DatabaseClosed);
  }

  @Test
  void theServersUnavailabilityCodesComeBackUnderTheirOwnNames() {
    try (Database closedBehind = Viewbase.open(OpenOptions.inMemory());
        ViewbaseServer serving =
            ViewbaseServer.start(
                closedBehind,
                ServerOptions.defaults().withPort(0).withWorkerThreads(2).withIoThreads(1));
        RemoteDatabase client =
            RemoteDatabase.connect(URI.create("http://127.0.0.1:" + serving.port()))) {
      closedBehind
          .close(); // the server answers 503 DatabaseClosed; the client raises the same code

      assertCode(client::listTables, ErrorCode.DatabaseClosed);
    }
  }

  @Test
  void aChangeReadWaitsLongerThanTheRequestTimeoutWithoutTimingOut() {
    String name = "Patient" + System.nanoTime() % 100000;
    embedded.createTable(
        name,
        io.viewbase.api.TableOptions.DEFAULT.withChangeFeed(
            io.viewbase.api.TableOptions.ChangeFeed.ON));
    try (RemoteDatabase impatient =
        RemoteDatabase.connect(
            URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(3))) {
      // the wait is twice the request timeout, which is slack enough for a loaded machine
      var page = impatient.table(name).changes(0, 10, Duration.ofSeconds(6));
      assertThat(page.changes()).isEmpty();
      assertThat(page.latest()).isZero();
    }
  }

  @Test
  void historyAndPartitionsViewsRoundTripThroughTheClient() throws InterruptedException {
    var t = newTable();
    String history = t.name() + "History";
    String counts = t.name() + "Counts";
    var definition =
        io.viewbase.api.ViewDefinition.history(history, t.name())
            .withRetention(io.viewbase.api.ViewDefinition.Retention.versions(3));
    assertThat(remote.createView(definition).definition()).isEqualTo(definition);
    remote.createView(io.viewbase.api.ViewDefinition.partitions(counts, t.name()));
    while (!remote.viewStatus(history).isReady() || !remote.viewStatus(counts).isReady()) {
      Thread.sleep(10);
    }
    assertThat(remote.viewStatus(counts).definition().kind())
        .isEqualTo(io.viewbase.api.ViewDefinition.Kind.PARTITIONS);
    var written = t.upsert(io.viewbase.api.Item.builder("p", "i").put("v", 1).build());
    t.delete("p", "i", null);
    var entries = remote.table(history).query(io.viewbase.api.Query.partition("p#i")).items();
    assertThat(entries).hasSize(2);
    assertThat(entries.get(0).timestamp()).isEqualTo(written.timestamp());
    assertThat(entries.get(0).properties())
        .containsEntry("_operation", io.viewbase.api.Value.of("upsert"));
    assertThat(entries.get(1).properties())
        .containsEntry("_deleted", io.viewbase.api.Value.of(true));
    assertThat(remote.table(counts).get("all", "p")).isEmpty();
    t.upsert(io.viewbase.api.Item.builder("p", "j").build());
    assertThat(remote.table(counts).get("all", "p").orElseThrow().properties())
        .containsEntry("count", io.viewbase.api.Value.of(1L));
    assertThat(remote.verifyView(history, false).drift()).isZero();
    assertThat(remote.verifyView(counts, false).drift()).isZero();
  }
}
