package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch within one partition, which Cassandra applies atomically and in isolation: without
 * conditions as one plain (unlogged) batch, with conditions or appends as one conditional batch, a
 * single lightweight transaction whose statements may each carry an IF. An append adds the
 * statement that moves its sequence's last number from the one this store expects ({@link
 * Sequences}) and the plain writes of its entries under the numbers that follow, so the entries and
 * the number are written in one Paxos round, or not at all.
 *
 * <table>
 *   <caption>when the conditional batch does not apply</caption>
 *   <tr><th>what Cassandra found</th><th>result</th></tr>
 *   <tr><td>a condition does not hold</td><td>{@link ConditionFailedException} naming the first such mutation</td></tr>
 *   <tr><td>every condition holds, but a key is claimed by a multi-partition commit</td>
 *       <td>wait and retry ({@link Contention}); after the last try, the condition fails on that key</td></tr>
 *   <tr><td>a sequence's number is not the one expected (another server appended)</td>
 *       <td>retry at once with the number found</td></tr>
 *   <tr><td>a sequence's row is claimed by a multi-partition commit</td>
 *       <td>wait and retry; after {@link Contention#SEQUENCE_PATIENCE}, {@link StorageException}
 *       {@code CONTENDED}</td></tr>
 * </table>
 */
final class PartitionCommit {
  private PartitionCommit() {}

  static void commit(CassandraStore store, List<Mutation> batch, List<Sequences.Appends> appends)
      throws ConditionFailedException {
    CassandraStatements statements = store.statements();
    boolean conditional =
        !appends.isEmpty()
            || batch.stream().anyMatch(m -> m.condition().kind() != Condition.Kind.NONE);
    List<BatchableStatement<?>> fixed = new ArrayList<>();
    for (Mutation m : batch) {
      if (m instanceof Mutation.Append) {
        continue; // written per sequence, below, under numbers that may change between tries
      }
      BatchableStatement<?> part =
          m.condition().kind() != Condition.Kind.NONE
              ? statements.conditional(m)
              : statements.plain(m);
      if (part != null) {
        fixed.add(part);
      }
    }
    for (Sequences.Appends a : appends) {
      a.expected = a.known() >= 0 ? a.known() : store.lastNumber(a.partition, a.key);
    }
    if (fixed.isEmpty() && appends.isEmpty()) {
      return; // only unconditional checks
    }
    if (!conditional) {
      Statement<?> statement =
          fixed.size() == 1 ? fixed.get(0) : BatchStatement.newInstance(BatchType.UNLOGGED, fixed);
      store.execute(statement, "write");
      return;
    }
    long patience = System.nanoTime() + Contention.SEQUENCE_PATIENCE.toNanos();
    for (int attempt = 1; ; ) {
      List<BatchableStatement<?>> parts = new ArrayList<>(fixed);
      for (Sequences.Appends a : appends) {
        parts.add(statements.advance(a));
        parts.addAll(statements.entries(a));
      }
      Statement<?> statement =
          parts.size() == 1 ? parts.get(0) : BatchStatement.newInstance(BatchType.UNLOGGED, parts);
      ResultSet result;
      try {
        result = store.execute(statement, "write conditionally");
      } catch (StorageException e) {
        appends.forEach(Sequences.Appends::forget); // applied or not: unknown
        throw e;
      }
      if (result.wasApplied()) {
        appends.forEach(a -> a.learn(a.last()));
        return;
      }
      List<Row> rows = result.all();
      Integer held = null;
      Found heldFound = null;
      for (int i = 0; i < batch.size(); i++) {
        Mutation m = batch.get(i);
        if (m.condition().kind() == Condition.Kind.NONE) {
          continue;
        }
        Found found =
            parts.size() == 1 ? Found.of(rows.isEmpty() ? null : rows.get(0)) : find(rows, m.key());
        if (!m.condition().isMetBy(found.version())) {
          throw new ConditionFailedException(i, m.condition(), found.version());
        }
        if (found.claim() != null && held == null) {
          held = i;
          heldFound = found;
        }
      }
      boolean sequenceHeld = false;
      boolean moved = false;
      for (Sequences.Appends a : appends) {
        Found found = find(rows, a.key);
        long last = Sequences.lastNumber(found);
        sequenceHeld |= found.claim() != null;
        moved |= last != a.expected;
        a.expected = last;
        a.learn(last);
      }
      if (held != null || !(moved || sequenceHeld)) {
        // a key is held by a multi-partition commit (or nothing explains the miss): as without
        // appends, a few tries, then the condition fails on that key
        if (attempt >= Contention.ATTEMPTS) {
          int index = held != null ? held : firstConditioned(batch);
          if (index < 0) {
            throw Contention.sequenceHeld();
          }
          throw new ConditionFailedException(
              index, batch.get(index).condition(), heldFound != null ? heldFound.version() : null);
        }
        Contention.pause(attempt++);
      } else if (System.nanoTime() > patience) {
        throw Contention.sequenceHeld();
      } else if (sequenceHeld) {
        Contention.pause(Contention.ATTEMPTS - 1);
      }
      // else another server took the number expected: go again at once with the one it left
    }
  }

  /** The first mutation with a condition, or -1 if only appends made the batch conditional. */
  private static int firstConditioned(List<Mutation> batch) {
    for (int i = 0; i < batch.size(); i++) {
      if (batch.get(i).condition().kind() != Condition.Kind.NONE) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The row a conditional batch returned for a key; Cassandra returns none for a key without a row.
   */
  private static Found find(List<Row> rows, byte[] key) {
    ByteBuffer wanted = ByteBuffer.wrap(key);
    for (Row row : rows) {
      if (row.getColumnDefinitions().contains("k") && wanted.equals(row.getByteBuffer("k"))) {
        return Found.of(row);
      }
    }
    return Found.ABSENT;
  }
}
