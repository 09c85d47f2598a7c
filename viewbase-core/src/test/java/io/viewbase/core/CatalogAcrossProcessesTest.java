package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Table;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.memory.MemoryStore;
import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two engines over one store that declares itself shared, as two servers over one Cassandra
 * keyspace are: each learns of the tables and views the other creates or drops, and a view created
 * through one while the other writes ends exact. The same runs on real Cassandra behind two HTTP
 * servers in viewbase-cassandra-it.
 */
class CatalogAcrossProcessesTest {
  private final MemoryStore data = new MemoryStore();
  private final EmbeddedDatabase a = new EmbeddedDatabase(new SharedStore(data), Limits.DEFAULT);
  private final EmbeddedDatabase b = new EmbeddedDatabase(new SharedStore(data), Limits.DEFAULT);

  @AfterEach
  void close() {
    a.close();
    b.close();
    data.close();
  }

  @Test
  void tableCreatedThroughOneIsUsableThroughTheOtherAtOnce() {
    a.createTable("People");
    Item written = b.table("People").insert(Item.builder("p", "1").put("name", "Ann").build());
    assertThat(a.table("People").get("p", "1")).contains(written);
    assertThat(b.listTables()).extracting(t -> t.name()).containsExactly("People");
  }

  @Test
  void settingsReadThroughOneAreWhatTheOtherPutAndDieWithATableTheOtherDropped() {
    a.createTable("People");
    a.putSetting("People", "azure.acl", "first");
    a.putSetting(null, "azure.service", "props");
    assertThat(b.setting("People", "azure.acl")).contains("first");
    a.putSetting("People", "azure.acl", "second");
    assertThat(b.setting("People", "azure.acl"))
        .as("read from the store, not a cache")
        .contains("second");
    assertThat(b.setting(null, "azure.service")).contains("props");

    b.dropTable("People");
    // a has not refreshed yet: its put checks the stored record and refuses to land beside the drop
    assertThatThrownBy(() -> a.putSetting("People", "azure.acl", "late"))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TableNotFound));
    b.createTable("People");

    assertThat(a.setting("People", "azure.acl")).isEmpty();
    a.putSetting("People", "azure.acl", "new table's");
    assertThat(b.setting("People", "azure.acl")).contains("new table's");
  }

  @Test
  void writesThroughAServerWhoseClockIsBehindStillIssueNewerVersions() {
    a.createTable("People");
    b.table("People"); // b learns of the table before a's clock jumps
    // a's clock runs an hour ahead of b's: its writes carry versions b has not reached yet.
    long hour = 3600L * io.viewbase.api.Value.DateTime.TICKS_PER_SECOND;
    a.clock().observe(a.clock().next() + hour);
    Item fromA = a.table("People").upsert(Item.builder("p", "1").put("n", 1).build());

    Item replaced =
        b.table("People").replace(Item.builder("p", "1").put("n", 2).build(), fromA.etag());
    Item merged =
        b.table("People").merge(Item.builder("p", "1").put("m", 3).build(), replaced.etag());
    Item batched =
        b.commit(
                io.viewbase.api.Batch.builder()
                    .upsertMerge("People", Item.builder("p", "1").put("k", 4).build())
                    .build())
            .items()
            .get(0);

    assertThat(replaced.timestamp()).isAfter(fromA.timestamp());
    assertThat(merged.timestamp()).isAfter(replaced.timestamp());
    assertThat(batched.timestamp()).isAfter(merged.timestamp());
    assertThatThrownBy(
            () -> b.table("People").replace(Item.builder("p", "1").build(), fromA.etag()))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed));
  }

  @Test
  void tableCreatedThroughOneCannotBeCreatedAgainThroughTheOther() {
    a.createTable("People");
    assertThatThrownBy(() -> b.createTable("people"))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.TableAlreadyExists));
  }

  @Test
  void tableDroppedThroughOneIsRefusedByTheOtherOnceItHasLearnt() throws Exception {
    a.createTable("People");
    Table people = b.table("People");
    people.insert(Item.builder("p", "1").build());
    a.dropTable("People");
    long deadline = System.nanoTime() + 10 * CatalogRefresh.STALE_AFTER.toNanos();
    while (System.nanoTime() < deadline && b.listTables().size() > 0) {
      Thread.sleep(20);
    }
    assertThat(b.listTables()).isEmpty();
    assertThatThrownBy(() -> people.insert(Item.builder("p", "2").build()))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TableNotFound));
    assertThatThrownBy(() -> b.table("People"))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TableNotFound));
  }

  @Test
  void viewCreatedThroughOneWhileTheOtherWritesEndsWithoutDrift() throws Exception {
    a.createTable("People");
    Table people = b.table("People");
    for (int i = 0; i < 200; i++) {
      people.upsert(Item.builder("p" + i % 4, "i" + i).put("n", i).build());
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger writes = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> writers = new java.util.ArrayList<>();
    for (int t = 0; t < 2; t++) {
      Random random = new Random(t);
      // Each write moves the item's view entry (the view id carries n): a write that did not
      // maintain the view would leave a stale entry and a missing one.
      writers.add(
          pool.submit(
              () -> {
                while (!stop.get()) {
                  int i = random.nextInt(200);
                  b.table("People")
                      .upsert(
                          Item.builder("p" + i % 4, "i" + i)
                              .put("n", random.nextInt(1_000_000))
                              .build());
                  writes.incrementAndGet();
                }
                return null;
              }));
    }
    a.createView(ViewDefinition.of("ByN", "People", "{partitionKey}", "{n:08}#{id}"));
    assertThat(ViewContract.awaitBuilt(a, "ByN").state()).isEqualTo(ViewStatus.READY);
    // Some writes after the view is ready too; a writer that failed ends the wait (f.get()
    // rethrows).
    int writesWhenReady = writes.get();
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (writes.get() < writesWhenReady + 200
        && System.nanoTime() < deadline
        && writers.stream().noneMatch(Future::isDone)) {
      Thread.sleep(5);
    }
    stop.set(true);
    for (Future<?> f : writers) {
      f.get();
    }
    pool.shutdown();
    assertThat(writes.get())
        .as("writes through b after the view was ready")
        .isGreaterThanOrEqualTo(writesWhenReady + 200);
    assertThat(a.verifyView("ByN", false).drift()).isZero();
    assertThat(ViewContract.awaitBuilt(b, "ByN").state()).isEqualTo(ViewStatus.READY);
    assertThat(b.verifyView("ByN", false).drift()).isZero();
  }

  /**
   * The memory store as a store that other processes share: batches not isolated, closed by the
   * test.
   */
  private record SharedStore(MemoryStore data) implements Store {
    @Override
    public Capabilities capabilities() {
      Capabilities c = data.capabilities();
      return new Capabilities(
          c.atomicMultiPartitionBatch(),
          false,
          c.orderedPartitions(),
          c.snapshots(),
          c.durableCommits(),
          c.groupCommit(),
          c.sequences());
    }

    @Override
    public Snapshot snapshot() {
      return data.snapshot();
    }

    @Override
    public void commit(List<Mutation> batch) throws ConditionFailedException {
      data.commit(batch);
    }

    @Override
    public Optional<Versioned> get(byte[] partition, byte[] key) {
      return data.get(partition, key);
    }

    @Override
    public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
      return data.scan(partition, range, reverse);
    }

    @Override
    public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
      return data.scanAll(partitionPrefix, afterPartition, afterKey);
    }

    @Override
    public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
      return data.partitions(prefix, afterPartition);
    }

    @Override
    public void close() {
      // the test closes the data once both engines are closed
    }
  }
}
