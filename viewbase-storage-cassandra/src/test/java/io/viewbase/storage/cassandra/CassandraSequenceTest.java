package io.viewbase.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sequences on Cassandra as several servers share them: two stores with a driver session each (as
 * two Viewbase servers on one keyspace have), each knowing a sequence's last number as it last saw
 * it, append to one sequence, alone in its partition and beside writes to other partitions (the
 * claim protocol). Numbers must stay unique and dense, and every acknowledged entry must be there.
 */
class CassandraSequenceTest {
  private static final String KEYSPACE = "sequences";
  private static Store one;
  private static Store two;
  private final CqlSession admin = CassandraTesting.admin();

  @BeforeAll
  static void open() {
    one = open("1000");
    // other settings, so another driver session: nothing is shared but the table
    two = open("999");
  }

  private static Store open(String pageSize) {
    return new CassandraStorageProvider()
        .open(
            new StoreConfig(
                null,
                true,
                Map.of(
                    CassandraSettings.CONTACT_POINTS,
                    CassandraTestCluster.node().contactPoint(),
                    CassandraSettings.KEYSPACE,
                    KEYSPACE,
                    CassandraSettings.CLAIM_TTL,
                    "5s",
                    CassandraSettings.PAGE_SIZE,
                    pageSize)));
  }

  @AfterAll
  static void close() {
    one.close();
    two.close();
  }

  @BeforeEach
  void emptyTheTable() {
    admin.execute("TRUNCATE " + KEYSPACE + ".kv");
  }

  @Test
  void storesWhoseLastNumberIsStaleTakeTheNextOneInBothCommitPaths() throws Exception {
    one.commit(List.of(append("a")));
    two.commit(List.of(append("b"), append("c")));
    one.commit(List.of(append("d"), Mutation.put(b("items"), b("x"), 1, b("x"))));
    two.commit(List.of(Mutation.put(b("items"), b("y"), 1, b("y")), append("e")));
    one.commit(List.of(append("f")));

    assertThat(entries(one)).containsExactly("1=a", "2=b", "3=c", "4=d", "5=e", "6=f");
    assertThat(entries(two)).containsExactly("1=a", "2=b", "3=c", "4=d", "5=e", "6=f");
    assertThat(Mutation.sequenceNumber(two.get(b("feed"), b("seq")).orElseThrow().value()))
        .isEqualTo(6);
    assertThat(claimOf("feed", "seq")).isNull();
  }

  @Test
  void aSequenceDeletedByAnotherStoreStartsAgainAtOne() throws Exception {
    one.commit(List.of(append("a"), append("b")));
    two.commit(List.of(Mutation.delete(b("feed"), b("seq"))));
    one.commit(List.of(append("c")));

    assertThat(entries(one)).containsExactly("1=c", "2=b");
  }

  @Test
  void anAppendToASequenceHeldByACrashedCommitterFailsAsContendedAndTakesNoNumber()
      throws Exception {
    one.commit(List.of(append("a")));
    foreignClaim("feed", "seq", 60);

    StorageException alone =
        catchThrowableOfType(StorageException.class, () -> two.commit(List.of(append("lost"))));
    StorageException beside =
        catchThrowableOfType(
            StorageException.class,
            () -> one.commit(List.of(Mutation.put(b("items"), b("x"), 1, b("x")), append("lost"))));

    assertThat(alone.kind()).isEqualTo(StorageException.Kind.CONTENDED);
    assertThat(beside.kind()).isEqualTo(StorageException.Kind.CONTENDED);
    assertThat(one.get(b("items"), b("x"))).isEmpty();
    admin.execute(
        SimpleStatement.newInstance(
            "UPDATE " + KEYSPACE + ".kv SET claim = null WHERE p = ? AND k = ?",
            PartitionBytes.encode(b("feed")),
            ByteBuffer.wrap(b("seq"))));
    two.commit(List.of(append("b")));
    assertThat(entries(one)).containsExactly("1=a", "2=b");
  }

  /**
   * Four threads, two on each store, append 1 to 3 entries per batch, every other batch beside a
   * write to a partition of its own (so through claims), while a reader on each store keeps
   * scanning the sequence. Every scan sees numbers 1..n without a hole; at the end the numbers are
   * dense and unique, every acknowledged entry is there once, and every acknowledged batch's write
   * beside its entries too. A batch that failed as contended must have left nothing.
   */
  @Test
  void twoStoresAppendingToOneSequenceConcurrentlyTakeUniqueNumbersAndKeepEveryEntry()
      throws Exception {
    int threadsPerStore = 2;
    int batchesPerThread = 60;
    ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> unknown = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> besides = new ConcurrentLinkedQueue<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerStore + 2);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 2 * threadsPerStore; t++) {
        Store store = t % 2 == 0 ? one : two;
        int thread = t;
        writers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < batchesPerThread; i++) {
                    List<Mutation> batch = new ArrayList<>();
                    List<String> values = new ArrayList<>();
                    String id = thread + "." + i;
                    if (i % 2 == 1) {
                      batch.add(Mutation.put(b("items"), b(id), i + 1, b(id)));
                    }
                    for (int j = 0; j <= (thread + i) % 3; j++) {
                      values.add(id + "." + j);
                      batch.add(append(id + "." + j));
                    }
                    try {
                      store.commit(batch);
                      acknowledged.addAll(values);
                      if (i % 2 == 1) {
                        besides.add(id);
                      }
                    } catch (StorageException e) {
                      if (e.kind() != StorageException.Kind.CONTENDED) {
                        unknown.addAll(values); // may still be applied
                      }
                    }
                  }
                  return null;
                }));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (Store store : List.of(one, two)) {
        readers.add(
            pool.submit(
                () -> {
                  start.await();
                  while (writing.get()) {
                    assertDense(entries(store));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> w : writers) {
        w.get(5, TimeUnit.MINUTES);
      }
      writing.set(false);
      for (Future<?> r : readers) {
        r.get(1, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }

    List<String> all = entries(one);
    assertDense(all);
    List<String> values = all.stream().map(e -> e.substring(e.indexOf('=') + 1)).toList();
    assertThat(new HashSet<>(values)).as("each entry once").hasSameSizeAs(values);
    assertThat(values).containsAll(acknowledged);
    Set<String> allowed = new HashSet<>(acknowledged);
    allowed.addAll(unknown);
    assertThat(allowed).containsAll(values);
    assertThat(acknowledged.size())
        .as("most batches acknowledged")
        .isGreaterThan(values.size() / 2);
    assertThat(Mutation.sequenceNumber(two.get(b("feed"), b("seq")).orElseThrow().value()))
        .isEqualTo(all.size());
    for (String id : besides) {
      assertThat(one.get(b("items"), b(id))).as("write beside %s", id).isPresent();
    }
    assertThat(claimOf("feed", "seq")).isNull();
  }

  private static Mutation.Append append(String value) {
    return new Mutation.Append(b("feed"), b("seq"), 1, b(value));
  }

  /** The sequence's entries in number order, as number=value. */
  private static List<String> entries(Store store) {
    List<String> out = new ArrayList<>();
    byte[] prefix = b("seq");
    try (Cursor c = store.scan(b("feed"), KeyRange.prefix(prefix), false)) {
      while (c.next()) {
        if (c.key().length != prefix.length) {
          out.add(Mutation.numberOf(c.key()) + "=" + new String(c.value(), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  private static void assertDense(List<String> entries) {
    for (int n = 0; n < entries.size(); n++) {
      String e = entries.get(n);
      assertThat(Long.parseLong(e.substring(0, e.indexOf('='))))
          .as("number of entry %d in %s", n, entries)
          .isEqualTo(n + 1L);
    }
  }

  private void foreignClaim(String partition, String key, int ttlSeconds) {
    admin.execute(
        SimpleStatement.newInstance(
            "UPDATE "
                + KEYSPACE
                + ".kv USING TTL "
                + ttlSeconds
                + " SET claim = 'crashed-committer' WHERE p = ? AND k = ?",
            PartitionBytes.encode(b(partition)),
            ByteBuffer.wrap(b(key))));
  }

  private String claimOf(String partition, String key) {
    Row row =
        admin
            .execute(
                SimpleStatement.newInstance(
                    "SELECT claim FROM " + KEYSPACE + ".kv WHERE p = ? AND k = ?",
                    PartitionBytes.encode(b(partition)),
                    ByteBuffer.wrap(b(key))))
            .one();
    return row == null ? null : row.getString("claim");
  }

  private static byte[] b(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
