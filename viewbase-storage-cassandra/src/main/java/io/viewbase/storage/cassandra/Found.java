package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.Row;

/**
 * What a lightweight transaction that did not apply found at one key: its version (null when the
 * key is absent) and the claim on it (null when none). Cassandra returns the columns a condition
 * named, or none at all when the row does not exist.
 */
record Found(Long version, String claim) {
  static final Found ABSENT = new Found(null, null);

  static Found of(Row row) {
    if (row == null) {
      return ABSENT;
    }
    ColumnDefinitions columns = row.getColumnDefinitions();
    Long version =
        columns.contains("version") && !row.isNull("version") ? row.getLong("version") : null;
    String claim = columns.contains("claim") ? row.getString("claim") : null;
    return new Found(version, claim);
  }
}
