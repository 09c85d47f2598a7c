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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch within one partition, which Cassandra applies atomically and in isolation: without
 * conditions as one plain (unlogged) batch, with conditions as one conditional batch, a single
 * lightweight transaction whose statements may each carry an IF.
 *
 * <table>
 *   <caption>when the conditional batch does not apply</caption>
 *   <tr><th>what Cassandra found</th><th>result</th></tr>
 *   <tr><td>a condition does not hold</td><td>{@link ConditionFailedException} naming the first such mutation</td></tr>
 *   <tr><td>every condition holds, but a key is claimed by a multi-partition commit</td>
 *       <td>wait and retry ({@link Contention}); after the last try, the condition fails on that key</td></tr>
 * </table>
 */
final class PartitionCommit {
  private PartitionCommit() {}

  static void commit(CassandraStore store, List<Mutation> batch) throws ConditionFailedException {
    CassandraStatements statements = store.statements();
    boolean conditional = batch.stream().anyMatch(m -> m.condition().kind() != Condition.Kind.NONE);
    List<BatchableStatement<?>> parts = new ArrayList<>();
    for (Mutation m : batch) {
      BatchableStatement<?> part =
          m.condition().kind() != Condition.Kind.NONE
              ? statements.conditional(m)
              : statements.plain(m);
      if (part != null) {
        parts.add(part);
      }
    }
    if (parts.isEmpty()) {
      return; // only unconditional checks
    }
    Statement<?> statement =
        parts.size() == 1 ? parts.get(0) : BatchStatement.newInstance(BatchType.UNLOGGED, parts);
    if (!conditional) {
      store.execute(statement, "write");
      return;
    }
    for (int attempt = 1; ; attempt++) {
      ResultSet result = store.execute(statement, "write conditionally");
      if (result.wasApplied()) {
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
      if (attempt >= Contention.ATTEMPTS) {
        int index = held != null ? held : firstConditioned(batch);
        throw new ConditionFailedException(
            index, batch.get(index).condition(), heldFound != null ? heldFound.version() : null);
      }
      Contention.pause(attempt);
    }
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

  private static int firstConditioned(List<Mutation> batch) {
    for (int i = 0; i < batch.size(); i++) {
      if (batch.get(i).condition().kind() != Condition.Kind.NONE) {
        return i;
      }
    }
    return 0;
  }
}
