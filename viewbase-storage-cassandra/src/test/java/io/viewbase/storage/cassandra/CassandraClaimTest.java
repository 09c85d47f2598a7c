package io.viewbase.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The claim protocol of commits across partitions, seen from the table: claims block conditional
 * writers, stay invisible to readers, are released on failure and cleared by the batch, and expire
 * when their committer died. A "foreign" claim is written straight into the table, as a committer
 * that crashed between its claims and its batch leaves it.
 */
class CassandraClaimTest {
  private static final String KEYSPACE = "claims";
  private static Store store;
  private final CqlSession admin = CassandraTesting.admin();

  @BeforeAll
  static void open() {
    store =
        new CassandraStorageProvider()
            .open(
                new StoreConfig(
                    null,
                    true,
                    Map.of(
                        CassandraSettings.CONTACT_POINTS,
                        CassandraTestCluster.node().contactPoint(),
                        CassandraSettings.KEYSPACE,
                        KEYSPACE)));
  }

  @AfterAll
  static void close() {
    store.close();
  }

  @BeforeEach
  void emptyTheTable() {
    admin.execute("TRUNCATE " + KEYSPACE + ".kv");
  }

  @Test
  void conditionalWriteToAKeyClaimedByAnotherCommitFailsAndLeavesItUnchanged() throws Exception {
    store.commit(List.of(Mutation.put(b("p"), b("k"), 1, b("one"))));
    foreignClaim("p", "k", 60);

    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class,
            () ->
                store.commit(
                    List.of(new Mutation.Put(b("p"), b("k"), 2, b("two"), Condition.version(1)))));

    assertThat(failure).isNotNull();
    assertThat(failure.index()).isZero();
    assertThat(failure.actualVersion()).isEqualTo(1L);
    assertThat(store.get(b("p"), b("k")).orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void unconditionalWriteToAClaimedKeyGoesThroughAndKeepsTheClaim() throws Exception {
    foreignClaim("p", "k", 60);

    store.commit(List.of(Mutation.put(b("p"), b("k"), 3, b("three"))));

    assertThat(store.get(b("p"), b("k")).orElseThrow().version()).isEqualTo(3);
    assertThat(claimOf("p", "k")).isEqualTo("crashed-committer");
  }

  @Test
  void aClaimOnAnAbsentKeyIsInvisibleToEveryRead() throws Exception {
    store.commit(List.of(Mutation.put(b("p"), b("live"), 1, b("v"))));
    foreignClaim("p", "claimed", 60);
    foreignClaim("only-claims", "k", 60);

    assertThat(store.get(b("p"), b("claimed"))).isEmpty();
    assertThat(keys(store.scan(b("p"), KeyRange.ALL, false))).containsExactly("live");
    assertThat(keys(store.scan(b("p"), KeyRange.ALL, true))).containsExactly("live");
    assertThat(keys(store.scanAll(b(""), null, null))).containsExactly("live");
    assertThat(partitions(store.partitions(b(""), null))).containsExactly("p");
  }

  @Test
  void commitAcrossPartitionsWhoseConditionFailsReleasesItsOwnClaimsAndKeepsOthers()
      throws Exception {
    store.commit(
        List.of(Mutation.put(b("a"), b("k"), 1, b("x")), Mutation.put(b("b"), b("k"), 1, b("y"))));
    foreignClaim("c", "k", 60);

    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class,
            () ->
                store.commit(
                    List.of(
                        new Mutation.Put(b("a"), b("k"), 2, b("x2"), Condition.version(1)),
                        new Mutation.Put(b("b"), b("k"), 2, b("y2"), Condition.version(1)),
                        new Mutation.Put(b("c"), b("k"), 1, b("z"), Condition.ABSENT))));

    assertThat(failure.index()).isEqualTo(2);
    assertThat(claimOf("a", "k")).isNull();
    assertThat(claimOf("b", "k")).isNull();
    assertThat(claimOf("c", "k")).isEqualTo("crashed-committer");
    assertThat(store.get(b("a"), b("k")).orElseThrow().version()).isEqualTo(1);
    assertThat(store.get(b("b"), b("k")).orElseThrow().version()).isEqualTo(1);
  }

  @Test
  void commitAcrossPartitionsLeavesNoClaimBehind() throws Exception {
    store.commit(List.of(Mutation.put(b("a"), b("k"), 1, b("x"))));

    store.commit(
        List.of(
            new Mutation.Put(b("a"), b("k"), 2, b("x2"), Condition.version(1)),
            new Mutation.Put(b("b"), b("k"), 1, b("y"), Condition.ABSENT),
            new Mutation.Check(b("c"), b("k"), Condition.ABSENT),
            new Mutation.Delete(b("d"), b("k"), Condition.NONE)));

    assertThat(
            admin
                .execute("SELECT p, k FROM " + KEYSPACE + ".kv WHERE claim > '' ALLOW FILTERING")
                .all())
        .isEmpty();
    assertThat(store.get(b("a"), b("k")).orElseThrow().version()).isEqualTo(2);
    assertThat(store.get(b("b"), b("k")).orElseThrow().version()).isEqualTo(1);
    assertThat(partitions(store.partitions(b(""), null))).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void claimOfACrashedCommitterExpiresAndTheKeyCanBeWrittenAgain() throws Exception {
    foreignClaim("p", "k", 1);

    long deadline = System.nanoTime() + 20_000_000_000L;
    boolean written = false;
    while (!written && System.nanoTime() < deadline) {
      try {
        store.commit(List.of(new Mutation.Put(b("p"), b("k"), 1, b("v"), Condition.ABSENT)));
        written = true;
      } catch (ConditionFailedException stillClaimed) {
        Thread.sleep(200);
      }
    }

    assertThat(written).as("written once the claim expired").isTrue();
    assertThat(store.get(b("p"), b("k")).orElseThrow().version()).isEqualTo(1);
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

  private static List<String> keys(Cursor cursor) {
    try (cursor) {
      List<String> out = new ArrayList<>();
      while (cursor.next()) {
        out.add(new String(cursor.key(), StandardCharsets.ISO_8859_1));
      }
      return out;
    }
  }

  private static List<String> partitions(PartitionCursor cursor) {
    try (cursor) {
      List<String> out = new ArrayList<>();
      while (cursor.next()) {
        out.add(new String(cursor.partition(), StandardCharsets.ISO_8859_1));
      }
      return out;
    }
  }

  private static byte[] b(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }
}
