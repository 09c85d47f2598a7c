package io.viewbase.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Time-to-live through {@link RemoteDatabase}: expired items are absent to its reads and writes as
 * embedded, and {@code expire} and {@code sweepStatus} reach the server's sweeper. Items whose
 * {@code _ttl} is a datetime already past have expired as they are written.
 */
class RemoteTtlTest {
  private static final Value PAST = Value.DateTime.of(Instant.parse("2000-01-01T00:00:00Z"));
  private Database embedded;
  private ViewbaseServer server;
  private RemoteDatabase remote;

  @BeforeEach
  void start() {
    embedded = Viewbase.open(OpenOptions.inMemory());
    server = ViewbaseServer.start(embedded, ServerOptions.defaults().withPort(0).withIoThreads(1));
    remote = RemoteDatabase.connect(URI.create("http://127.0.0.1:" + server.port() + "/"));
  }

  @AfterEach
  void stop() {
    remote.close();
    server.close();
    embedded.close();
  }

  @Test
  void expiredItemsAreAbsentRemotelyAndAForcedSweepCountsThem() {
    remote.createTable("Sessions");
    Table t = remote.table("Sessions");
    t.upsert(Item.builder("u", "gone").put("_ttl", PAST).build());
    Item kept = t.upsert(Item.builder("u", "kept").put("_ttl", 3600).build());
    assertThat(kept.properties()).containsEntry("_ttl", Value.of(3600));

    assertThat(t.get("u", "gone")).isEmpty();
    assertThat(t.query(Query.partition("u")).items()).extracting(Item::id).containsExactly("kept");
    assertThatThrownBy(() -> t.delete("u", "gone", null))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ItemNotFound));
    assertThat(t.insert(Item.builder("u", "gone").put("n", 1).build()).id()).isEqualTo("gone");
    t.upsert(Item.builder("u", "gone2").put("_ttl", PAST).build());

    assertThat(remote.sweepStatus("Sessions").itemsExpired()).isZero();
    assertThat(remote.expire("Sessions")).isEqualTo(1);
    SweepStatus status = remote.sweepStatus("Sessions");
    assertThat(status.swept()).isTrue();
    assertThat(status.itemsExpired()).isEqualTo(1);
    assertThat(status.itemsScanned()).isEqualTo(3);
    assertThat(status.lastSweepEnded()).isNotNull();
    assertThatThrownBy(() -> remote.expire("Nope"))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TableNotFound));
  }
}
