package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.PartitionCursor;
import java.nio.ByteBuffer;
import java.util.Iterator;

/**
 * The partitions under a prefix, in token order, from the first row of each partition. A partition
 * whose first row is only a claim (an insert in flight) is listed only if another of its rows is
 * live, which one more read of that partition tells.
 */
final class PartitionRowCursor implements PartitionCursor {
  private final CassandraStore store;
  private final Iterator<Row> rows;
  private final byte[] prefix;
  private byte[] partition;
  private boolean closed;

  PartitionRowCursor(CassandraStore store, ResultSet rows, byte[] prefix) {
    this.store = store;
    this.rows = rows.iterator();
    this.prefix = prefix;
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    if (closed) {
      return false;
    }
    try {
      while (rows.hasNext()) {
        Row row = rows.next();
        ByteBuffer stored = row.getByteBuffer("p");
        byte[] p = PartitionBytes.decode(stored);
        if (Bytes.startsWith(p, prefix) && (!row.isNull("version") || hasLiveRow(stored))) {
          partition = p;
          return true;
        }
      }
      return false;
    } catch (DriverException e) {
      throw CassandraErrors.translate("read the next page", e);
    }
  }

  private boolean hasLiveRow(ByteBuffer stored) {
    ResultSet versions =
        store.execute(
            store.statements().versionsOf(stored, store.settings().pageSize()), "list partitions");
    for (Row row : versions) {
      if (!row.isNull("version")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public byte[] partition() {
    return partition.clone();
  }

  @Override
  public void close() {
    closed = true;
  }
}
