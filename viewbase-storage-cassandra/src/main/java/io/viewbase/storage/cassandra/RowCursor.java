package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import java.util.Iterator;
import java.util.List;

/**
 * The live entries among the rows of one or more result sets, read one after the other. The driver
 * fetches each result set's pages as the cursor reaches them, so a long walk holds one page at a
 * time. Rows without a version (a claim on an absent key) are skipped, and so are partitions
 * outside {@code prefix} when one is given.
 */
final class RowCursor implements Cursor {
  private final CassandraStore store;
  private final Iterator<ResultSet> segments;
  private final byte[] fixedPartition;
  private final byte[] prefix;
  private Iterator<Row> rows;
  private byte[] partition;
  private byte[] key;
  private long version;
  private byte[] value;
  private boolean closed;

  /**
   * @param fixedPartition the partition of every row (a scan, whose rows carry no partition), or
   *     null
   * @param prefix the partition prefix to keep (a walk over every partition), or null
   */
  RowCursor(CassandraStore store, List<ResultSet> segments, byte[] fixedPartition, byte[] prefix) {
    this.store = store;
    this.segments = segments.iterator();
    this.fixedPartition = fixedPartition;
    this.prefix = prefix;
  }

  @Override
  public boolean next() {
    store.ensureOpen();
    if (closed) {
      return false;
    }
    try {
      while (true) {
        while (rows == null || !rows.hasNext()) {
          if (!segments.hasNext()) {
            rows = null;
            return false;
          }
          rows = segments.next().iterator();
        }
        Row row = rows.next();
        if (row.isNull("version")) {
          continue;
        }
        byte[] p =
            fixedPartition != null ? fixedPartition : PartitionBytes.decode(row.getByteBuffer("p"));
        if (prefix != null && !Bytes.startsWith(p, prefix)) {
          continue;
        }
        partition = p;
        key = PartitionBytes.array(row.getByteBuffer("k"));
        version = row.getLong("version");
        value = PartitionBytes.array(row.getByteBuffer("value"));
        return true;
      }
    } catch (DriverException e) {
      throw CassandraErrors.translate("read the next page", e);
    }
  }

  @Override
  public byte[] partition() {
    return partition.clone();
  }

  @Override
  public byte[] key() {
    return key.clone();
  }

  @Override
  public long version() {
    return version;
  }

  @Override
  public byte[] value() {
    return value.clone();
  }

  @Override
  public void close() {
    closed = true;
  }
}
