package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;

/**
 * What a lightweight transaction that did not apply found at one key: its version (null when the
 * key is absent), the claim on it (null when none) and, when a condition named it (a sequence's
 * last number, see {@link Sequences}), its value. Cassandra returns the columns a condition named,
 * or none at all when the row does not exist.
 */
record Found(Long version, String claim, ByteBuffer value) {
  static final Found ABSENT = new Found(null, null, null);

  static Found of(Row row) {
    if (row == null) {
      return ABSENT;
    }
    ColumnDefinitions columns = row.getColumnDefinitions();
    Long version =
        columns.contains("version") && !row.isNull("version") ? row.getLong("version") : null;
    String claim = columns.contains("claim") ? row.getString("claim") : null;
    ByteBuffer value = columns.contains("value") ? row.getByteBuffer("value") : null;
    return new Found(version, claim, value);
  }
}
