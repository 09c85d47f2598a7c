package io.viewbase.cassandra.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalog across two servers on one Cassandra keyspace: what one creates or drops, the other
 * learns (at once on a name it does not know, within a second otherwise), and a view created
 * through one while the other writes continuously ends exact, because its backfill starts only once
 * every server maintains it.
 */
class CatalogAcrossServersTest {
  private static TwoServers servers;

  @BeforeAll
  static void start() {
    servers = new TwoServers(SharedCassandra.freshName("catalog"));
  }

  @AfterAll
  static void stop() {
    if (servers != null) {
      servers.close();
    }
  }

  @Test
  void tableCreatedThroughOneServerIsUsableThroughTheOtherAtOnceAndItsDropReachesIt()
      throws Exception {
    servers.client(0).createTable("Visitors");
    Item written =
        servers
            .client(1)
            .table("Visitors")
            .insert(Item.builder("p", "1").put("name", "Ann").build());
    assertThat(servers.client(0).table("Visitors").get("p", "1")).contains(written);

    servers.client(0).dropTable("Visitors");
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline
        && servers.client(1).listTables().stream().anyMatch(t -> t.name().equals("Visitors"))) {
      Thread.sleep(50);
    }
    assertThatThrownBy(
            () -> servers.client(1).table("Visitors").insert(Item.builder("p", "2").build()))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TableNotFound));
  }

  @Test
  void viewCreatedThroughOneServerWhileTheOtherWritesContinuouslyEndsWithoutDrift()
      throws Exception {
    servers.client(0).createTable("Readings");
    Table readingsOnB = servers.client(1).table("Readings");
    for (int i = 0; i < 100; i++) {
      readingsOnB.upsert(Item.builder("s" + i % 4, "r" + i).put("n", i).build());
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger writes = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> writers = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Random random = new Random(t);
      // Each write moves the item's view entry (the view's id carries n): a write through B that
      // did not maintain the view would leave a stale entry behind and miss the new one.
      writers.add(
          pool.submit(
              () -> {
                while (!stop.get() && writes.get() < 20_000) {
                  int i = random.nextInt(100);
                  readingsOnB.upsert(
                      Item.builder("s" + i % 4, "r" + i)
                          .put("n", random.nextInt(1_000_000))
                          .build());
                  writes.incrementAndGet();
                }
                return null;
              }));
    }
    servers
        .client(0)
        .createView(ViewDefinition.of("ReadingsByN", "Readings", "{partitionKey}", "{n:08}#{id}"));
    servers.awaitReadyOnBoth("ReadingsByN");
    int writesWhenReady = writes.get();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (writes.get() < writesWhenReady + 100 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    stop.set(true);
    for (Future<?> f : writers) {
      f.get();
    }
    pool.shutdown();
    System.out.printf(
        "CatalogAcrossServersTest: %d writes through B, %d of them after the view was ready%n",
        writes.get(), writes.get() - writesWhenReady);
    assertThat(writes.get()).isGreaterThan(writesWhenReady);
    for (int server = 0; server < 2; server++) {
      assertThat(servers.client(server).verifyView("ReadingsByN", false).drift())
          .as("drift seen through server %d", server)
          .isZero();
    }
  }
}
