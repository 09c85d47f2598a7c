package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every CQL statement the store runs, prepared once per session, and the bound forms of each
 * mutation. The table is {@code (p blob, k blob, version bigint, value blob, claim text, PRIMARY
 * KEY (p, k))}; a key exists when its {@code version} is set. {@code claim} names the commit that
 * holds the key between its lightweight transaction and its logged batch (see {@link
 * ClaimedCommit}); a claimed absent key is a row with only a claim, which reads skip.
 *
 * <table>
 *   <caption>how a mutation is written</caption>
 *   <tr><th>mutation</th><th>plain (no condition)</th><th>conditional (LWT)</th><th>after a claim (logged batch)</th></tr>
 *   <tr><td>Put</td><td>set version, value</td><td>set version, value IF cond AND claim = null</td>
 *       <td>set version, value, claim = null</td></tr>
 *   <tr><td>Delete</td><td>delete version, value (a claim stays)</td><td>delete row IF cond AND claim = null</td>
 *       <td>delete row</td></tr>
 *   <tr><td>Check</td><td>nothing</td><td>set claim = null IF cond AND claim = null</td><td>set claim = null</td></tr>
 *   <tr><td>Append</td><td colspan="2">the sequence's row: set version, value = last + k IF value = last AND claim = null;
 *       each entry: set version, value (one conditional batch)</td>
 *       <td>claim: set claim IF value = last AND claim = null; the batch: set the row's version and value
 *       and each entry's, keeping the claim, released after the batch</td></tr>
 * </table>
 *
 * A Delete whose condition is ABSENT deletes nothing when it holds, so it is written as a Check.
 * Plain writes never touch {@code claim}: an unconditional write does not wait for, and must not
 * erase, another commit's claim.
 */
final class CassandraStatements {
  /** The columns of {@link #get}'s row, by position. */
  static final int GET_VERSION = 0;

  static final int GET_VALUE = 1;

  private final CqlSession session;
  private final String table;
  private final PreparedStatement get;
  private final PreparedStatement put;
  private final PreparedStatement putReleasing;
  private final PreparedStatement deleteColumns;
  private final PreparedStatement deleteRow;
  private final PreparedStatement release;
  private final PreparedStatement releaseOwn;
  private final Map<Condition.Kind, PreparedStatement> conditionalPut =
      new EnumMap<>(Condition.Kind.class);
  private final Map<Condition.Kind, PreparedStatement> conditionalDelete =
      new EnumMap<>(Condition.Kind.class);
  private final Map<Condition.Kind, PreparedStatement> conditionalCheck =
      new EnumMap<>(Condition.Kind.class);
  private final Map<Condition.Kind, PreparedStatement> claim = new EnumMap<>(Condition.Kind.class);
  private final PreparedStatement advanceFromNothing;
  private final PreparedStatement advance;
  private final PreparedStatement claimSequenceFromNothing;
  private final PreparedStatement claimSequence;
  private final PreparedStatement partitionsFromStart;
  private final PreparedStatement liveRowsOfPartition;
  private final Map<String, PreparedStatement> scans = new ConcurrentHashMap<>();

  CassandraStatements(CqlSession session, String keyspace, String tableName) {
    this.session = session;
    this.table = keyspace + "." + tableName;
    String where = " WHERE p = :p AND k = :k";
    get = prepare("SELECT version, value FROM " + table + where);
    put = prepare("UPDATE " + table + " SET version = :version, value = :value" + where);
    putReleasing =
        prepare(
            "UPDATE " + table + " SET version = :version, value = :value, claim = null" + where);
    deleteColumns = prepare("DELETE version, value FROM " + table + where);
    deleteRow = prepare("DELETE FROM " + table + where);
    release = prepare("UPDATE " + table + " SET claim = null" + where);
    releaseOwn = prepare("UPDATE " + table + " SET claim = null" + where + " IF claim = :owner");
    for (Condition.Kind kind :
        new Condition.Kind[] {
          Condition.Kind.ABSENT, Condition.Kind.EXISTS, Condition.Kind.VERSION
        }) {
      String condition =
          " IF "
              + switch (kind) {
                case ABSENT -> "version = null";
                case EXISTS -> "version != null";
                case VERSION -> "version = :expected";
                case NONE -> throw new IllegalStateException("NONE is written plain");
              }
              + " AND claim = null";
      conditionalPut.put(
          kind,
          prepare(
              "UPDATE " + table + " SET version = :version, value = :value" + where + condition));
      conditionalDelete.put(kind, prepare("DELETE FROM " + table + where + condition));
      conditionalCheck.put(
          kind, prepare("UPDATE " + table + " SET claim = null" + where + condition));
      claim.put(
          kind,
          prepare("UPDATE " + table + " USING TTL :ttl SET claim = :owner" + where + condition));
    }
    // A sequence's row: its last number moves only from the one a commit expects (see Sequences).
    // The conditions name value, so that a transaction that does not apply returns the number.
    String fromNothing = " IF value = null AND claim = null";
    String fromLast = " IF value = :last AND claim = null";
    String setNumber = "UPDATE " + table + " SET version = :version, value = :value" + where;
    advanceFromNothing = prepare(setNumber + fromNothing);
    advance = prepare(setNumber + fromLast);
    String setClaim = "UPDATE " + table + " USING TTL :ttl SET claim = :owner" + where;
    claimSequenceFromNothing = prepare(setClaim + fromNothing);
    claimSequence = prepare(setClaim + fromLast);
    partitionsFromStart = prepare("SELECT p, version FROM " + table + " PER PARTITION LIMIT 1");
    liveRowsOfPartition = prepare("SELECT version FROM " + table + " WHERE p = :p");
  }

  private PreparedStatement prepare(String cql) {
    return session.prepare(cql);
  }

  /**
   * The read of one key, whose row has the columns {@link #GET_VERSION} and {@link #GET_VALUE}.
   * Bound and read by position, not by name: a name costs the driver a lookup per value on every
   * call, and this is the statement of every point read.
   */
  BoundStatement get(byte[] partition, byte[] key) {
    return get.boundStatementBuilder()
        .setByteBuffer(0, PartitionBytes.encode(partition))
        .setByteBuffer(1, PartitionBytes.copy(key))
        .build();
  }

  /**
   * The plain write of a mutation that needs no condition checked, or null if it writes nothing.
   */
  BoundStatement plain(Mutation m) {
    if (m instanceof Mutation.Put p) {
      return keyed(put, m.partition(), m.key())
          .setLong("version", p.version())
          .setByteBuffer("value", PartitionBytes.copy(p.value()))
          .build();
    }
    if (m instanceof Mutation.Delete) {
      return keyed(deleteColumns, m.partition(), m.key()).build();
    }
    return null;
  }

  /** The lightweight transaction that checks a mutation's condition and writes it if it holds. */
  BoundStatement conditional(Mutation m) {
    Condition c = m.condition();
    BoundStatementBuilder b;
    if (m instanceof Mutation.Put p) {
      b =
          keyed(conditionalPut.get(c.kind()), m.partition(), m.key())
              .setLong("version", p.version())
              .setByteBuffer("value", PartitionBytes.copy(p.value()));
    } else if (m instanceof Mutation.Delete && c.kind() != Condition.Kind.ABSENT) {
      b = keyed(conditionalDelete.get(c.kind()), m.partition(), m.key());
    } else {
      b = keyed(conditionalCheck.get(c.kind()), m.partition(), m.key());
    }
    return expected(b, c).build();
  }

  /**
   * The lightweight transaction that claims a mutation's key for {@code owner} if its condition
   * holds.
   */
  BoundStatement claim(Mutation m, String owner, int ttlSeconds) {
    return expected(keyed(claim.get(m.condition().kind()), m.partition(), m.key()), m.condition())
        .setInt("ttl", ttlSeconds)
        .setString("owner", owner)
        .build();
  }

  /** The write of a claimed mutation inside the logged batch; it also drops the claim. */
  BoundStatement applyClaimed(Mutation m) {
    if (m instanceof Mutation.Put p) {
      return keyed(putReleasing, m.partition(), m.key())
          .setLong("version", p.version())
          .setByteBuffer("value", PartitionBytes.copy(p.value()))
          .build();
    }
    if (m instanceof Mutation.Delete) {
      return keyed(deleteRow, m.partition(), m.key()).build();
    }
    return keyed(release, m.partition(), m.key()).build();
  }

  /** Drops {@code owner}'s claim on the mutation's key, and nobody else's. */
  BoundStatement releaseOwn(Mutation m, String owner) {
    return keyed(releaseOwn, m.partition(), m.key()).setString("owner", owner).build();
  }

  /**
   * The lightweight transaction (part of a conditional batch) that moves a sequence's last number
   * from {@code appends.expected} to {@code appends.last()}, if nobody moved or claimed it first.
   */
  BoundStatement advance(Sequences.Appends appends) {
    BoundStatementBuilder b =
        keyed(appends.expected == 0 ? advanceFromNothing : advance, appends.partition, appends.key)
            .setLong("version", appends.version())
            .setByteBuffer("value", Sequences.numberBytes(appends.last()));
    return expectedNumber(b, appends).build();
  }

  /**
   * The lightweight transaction that claims a sequence's row for {@code owner} if its last number
   * is still {@code appends.expected} and nobody claims it.
   */
  BoundStatement claimSequence(Sequences.Appends appends, String owner, int ttlSeconds) {
    BoundStatementBuilder b =
        keyed(
                appends.expected == 0 ? claimSequenceFromNothing : claimSequence,
                appends.partition,
                appends.key)
            .setInt("ttl", ttlSeconds)
            .setString("owner", owner);
    return expectedNumber(b, appends).build();
  }

  /**
   * The plain write of a sequence's new last number, in the logged batch of a commit that claimed
   * the row; it leaves the claim, which the commit releases once the batch is acknowledged.
   */
  BoundStatement setNumber(Sequences.Appends appends) {
    return keyed(put, appends.partition, appends.key)
        .setLong("version", appends.version())
        .setByteBuffer("value", Sequences.numberBytes(appends.last()))
        .build();
  }

  /** The plain writes of a batch's entries of one sequence, numbered from {@code expected + 1}. */
  List<BatchableStatement<?>> entries(Sequences.Appends appends) {
    List<BatchableStatement<?>> out = new ArrayList<>(appends.appends.size());
    long n = appends.expected;
    for (Mutation.Append a : appends.appends) {
      out.add(
          keyed(put, a.partition(), Mutation.sequenceKey(a.key(), ++n))
              .setLong("version", a.version())
              .setByteBuffer("value", PartitionBytes.copy(a.value()))
              .build());
    }
    return out;
  }

  /** Drops {@code owner}'s claim on a sequence's row, and nobody else's. */
  BoundStatement releaseOwn(Sequences.Appends appends, String owner) {
    return keyed(releaseOwn, appends.partition, appends.key).setString("owner", owner).build();
  }

  /** One partition's rows in a key range; the range must not be empty. */
  BoundStatement scan(byte[] partition, KeyRange range, boolean reverse, int pageSize) {
    StringBuilder cql =
        new StringBuilder("SELECT k, version, value FROM ").append(table).append(" WHERE p = :p");
    if (range.lower() != null) {
      cql.append(range.lowerInclusive() ? " AND k >= :lo" : " AND k > :lo");
    }
    if (range.upper() != null) {
      cql.append(range.upperInclusive() ? " AND k <= :hi" : " AND k < :hi");
    }
    cql.append(reverse ? " ORDER BY k DESC" : " ORDER BY k ASC");
    PreparedStatement prepared = scans.computeIfAbsent(cql.toString(), this::prepare);
    BoundStatementBuilder b =
        prepared.boundStatementBuilder().setByteBuffer("p", PartitionBytes.encode(partition));
    if (range.lower() != null) {
      b.setByteBuffer("lo", PartitionBytes.copy(range.lower()));
    }
    if (range.upper() != null) {
      b.setByteBuffer("hi", PartitionBytes.copy(range.upper()));
    }
    return b.setPageSize(pageSize).build();
  }

  /**
   * The first row of every partition, in token order: a walk over the whole table's partition keys.
   */
  BoundStatement partitions(int pageSize) {
    return partitionsFromStart.boundStatementBuilder().setPageSize(pageSize).build();
  }

  /**
   * The versions of one partition's rows, to tell a live partition from one that holds only claims.
   */
  BoundStatement versionsOf(ByteBuffer storedPartition, int pageSize) {
    return liveRowsOfPartition
        .boundStatementBuilder()
        .setByteBuffer("p", storedPartition)
        .setPageSize(pageSize)
        .build();
  }

  private static BoundStatementBuilder keyed(
      PreparedStatement statement, byte[] partition, byte[] key) {
    return statement
        .boundStatementBuilder()
        .setByteBuffer("p", PartitionBytes.encode(partition))
        .setByteBuffer("k", PartitionBytes.copy(key));
  }

  private static BoundStatementBuilder expectedNumber(
      BoundStatementBuilder b, Sequences.Appends appends) {
    return appends.expected == 0
        ? b
        : b.setByteBuffer("last", Sequences.numberBytes(appends.expected));
  }

  private static BoundStatementBuilder expected(BoundStatementBuilder b, Condition c) {
    return c.kind() == Condition.Kind.VERSION ? b.setLong("expected", c.version()) : b;
  }
}
