package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.Batch;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.memory.MemoryStore;
import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Contention on one item of a table with a view. A write reads the item, decides, and commits on
 * the condition that the item is unchanged; when another writer got there first it decides again,
 * up to {@link WritePipeline#MAX_ATTEMPTS} times for a write alone and for a batch alike, and then
 * gives up with WriteConflict, having written nothing. A writer that wins every race cannot be made
 * with real threads on demand, so {@link OvertakingStore} plays it: another server on a shared
 * store, rewriting the item between each read and commit.
 */
class WriteConflictTest {
  private final MemoryStore data = new MemoryStore();
  private final OvertakingStore store = new OvertakingStore(data);
  private final EmbeddedDatabase db = new EmbeddedDatabase(store, Limits.DEFAULT);
  private Table people;

  @BeforeEach
  void setUp() {
    db.createTable("People");
    db.createView(ViewDefinition.of("PeopleByName", "People", "all", "{name}"));
    ViewContract.awaitBuilt(db, "PeopleByName");
    people = db.table("People");
    people.insert(Item.builder("p", "1").put("name", "Ann").put("age", 42).build());
  }

  @AfterEach
  void tearDown() {
    db.close();
    data.close();
  }

  @Test
  void writeWhoseItemAnotherWriterAlwaysChangesFirstFailsWithWriteConflictAfterTheBudget() {
    store.overtake(people, "p", "1");

    ViewbaseException e =
        catchThrowableOfType(
            ViewbaseException.class,
            () -> people.merge(Item.builder("p", "1").put("age", 43).build(), null));

    assertThat(e.code()).isEqualTo(ErrorCode.WriteConflict);
    assertThat(e.context())
        .containsEntry("table", "People")
        .containsEntry("partitionKey", "p")
        .containsEntry("id", "1");
    assertThat(store.commitsOvertaken()).isEqualTo(WritePipeline.MAX_ATTEMPTS);
    store.stop();
    assertThat(people.get("p", "1").orElseThrow().properties()).containsEntry("age", Value.of(42));
  }

  @Test
  void asyncWriteWhoseItemAnotherWriterAlwaysChangesFirstFailsWithWriteConflict() {
    store.overtake(people, "p", "1");

    var write = people.upsertMergeAsync(Item.builder("p", "1").put("age", 43).build());

    ExecutionException e =
        catchThrowableOfType(ExecutionException.class, () -> write.get(1, TimeUnit.MINUTES));
    assertThat(((ViewbaseException) e.getCause()).code()).isEqualTo(ErrorCode.WriteConflict);
    assertThat(store.commitsOvertaken()).isEqualTo(WritePipeline.MAX_ATTEMPTS);
  }

  @Test
  void batchWhoseItemAnotherWriterAlwaysChangesFirstFailsWithWriteConflictAfterTheSameBudget() {
    store.overtake(people, "p", "1");

    assertCode(
        () ->
            db.commit(
                Batch.builder()
                    .insert("People", Item.builder("p", "2").put("name", "Bo").build())
                    .merge("People", Item.builder("p", "1").put("age", 43).build(), null)
                    .build()),
        ErrorCode.WriteConflict);

    assertThat(store.commitsOvertaken()).isEqualTo(WritePipeline.MAX_ATTEMPTS);
    store.stop();
    assertThat(people.get("p", "2")).as("nothing of the batch is written").isEmpty();
    assertThat(db.table("PeopleByName").get("all", "Bo")).isEmpty();
  }

  @Test
  void manyWritersOnOneItemOfATableWithAViewLoseNothingAndGiveUpOnlyWithWriteConflict()
      throws Exception {
    int threads = 8;
    int writes = 25; // 8 x 25 distinct properties, under the limit of 255
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<String>>> results = new ArrayList<>();
    AtomicInteger conflicts = new AtomicInteger();
    for (int t = 0; t < threads; t++) {
      int me = t;
      results.add(
          pool.submit(
              () -> {
                List<String> written = new ArrayList<>();
                for (int i = 0; i < writes; i++) {
                  String property = "t" + me + "_" + i;
                  try {
                    people.upsertMerge(Item.builder("p", "1").put(property, i).build());
                    written.add(property);
                  } catch (ViewbaseException e) {
                    assertThat(e.code()).isEqualTo(ErrorCode.WriteConflict);
                    conflicts.incrementAndGet();
                  }
                }
                return written;
              }));
    }
    List<String> written = new ArrayList<>();
    for (Future<List<String>> f : results) {
      written.addAll(f.get());
    }
    pool.shutdown();

    assertThat(written.size() + conflicts.get()).isEqualTo(threads * writes);
    Item item = people.get("p", "1").orElseThrow();
    assertThat(item.properties()).containsKeys(written.toArray(String[]::new));
    assertThat(item.properties()).hasSize(2 + written.size());
    assertThat(db.table("PeopleByName").get("all", "Ann").orElseThrow().properties())
        .hasSize(2 + written.size());
    assertThat(db.verifyView("PeopleByName", false).drift()).isZero();
  }

  /**
   * The memory store, with another writer that, once told to, rewrites one item (same value, a
   * later version) just before every commit that touches it: each such commit's condition on the
   * item fails, as if another server always got there first.
   */
  private static final class OvertakingStore implements Store {
    private final MemoryStore data;
    private volatile byte[] partition;
    private volatile byte[] key;
    private final AtomicInteger overtaken = new AtomicInteger();

    OvertakingStore(MemoryStore data) {
      this.data = data;
    }

    void overtake(Table table, String partitionKey, String id) {
      int tableId = ((EmbeddedTable) table).entry().id();
      key = KeyLayout.sortKey(id);
      partition = KeyLayout.partition(tableId, partitionKey);
    }

    void stop() {
      partition = null;
    }

    int commitsOvertaken() {
      return overtaken.get();
    }

    @Override
    public void commit(List<Mutation> batch) throws ConditionFailedException {
      byte[] p = partition;
      if (p != null
          && batch.stream()
              .anyMatch(m -> Arrays.equals(m.partition(), p) && Arrays.equals(m.key(), key))) {
        Versioned current = data.get(p, key).orElseThrow();
        data.commit(
            List.of(
                new Mutation.Put(p, key, current.version() + 1, current.value(), Condition.NONE)));
        overtaken.incrementAndGet();
      }
      data.commit(batch);
    }

    @Override
    public Capabilities capabilities() {
      return data.capabilities();
    }

    @Override
    public Snapshot snapshot() {
      return data.snapshot();
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
      // the test closes the data
    }
  }
}
