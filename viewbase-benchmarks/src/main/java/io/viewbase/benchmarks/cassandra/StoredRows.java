package io.viewbase.benchmarks.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Viewbase's stored rows of the {@code People} table read with plain CQL: the very statement the
 * Cassandra backend sends for {@code table.get} ({@code SELECT version, value FROM kv WHERE p = ?
 * AND k = ?}), sent through the CQL side's session. Set beside the two sides of a point read, it
 * splits Viewbase's extra time in two: what Viewbase's code costs in the client (Viewbase's get
 * minus this), and what its storage layout costs in Cassandra (this minus the typed row's SELECT).
 *
 * <p>A stored row's key, as the backend and the core lay it out: {@code p} = 0x01, the table's id
 * (4 bytes, big-endian), the item's partition key in UTF-8; {@code k} = the item's id in UTF-8.
 */
final class StoredRows {
  private static final String KV = ViewbasePeople.KEYSPACE + ".kv";
  private static final int MAX_TABLE_ID = 64;

  private final CqlSession session;
  private final PreparedStatement get;
  private final int tableId;

  private StoredRows(CqlSession session, PreparedStatement get, int tableId) {
    this.session = session;
    this.get = get;
    this.tableId = tableId;
  }

  /**
   * Finds the id of Viewbase's {@code People} table: of the tables that hold item 0 (People and
   * PeopleViewed), the one whose stored version changes when item 0 is upserted into People.
   */
  static StoredRows of(CqlSession session, ViewbasePeople viewbase) {
    PreparedStatement get =
        session.prepare("SELECT version, value FROM " + KV + " WHERE p = :p AND k = :k");
    StoredRows probe = new StoredRows(session, get, 0);
    List<Integer> holders = new ArrayList<>();
    List<Long> before = new ArrayList<>();
    for (int id = 1; id <= MAX_TABLE_ID; id++) {
      Row row = probe.read(id, 0);
      if (row != null) {
        holders.add(id);
        before.add(row.getLong(0));
      }
    }
    viewbase.upsert(People.item(0, 1));
    for (int i = 0; i < holders.size(); i++) {
      if (probe.read(holders.get(i), 0).getLong(0) != before.get(i)) {
        return new StoredRows(session, get, holders.get(i));
      }
    }
    throw new IllegalStateException(
        "no stored table among " + holders + " changed when item 0 was upserted");
  }

  /** Item {@code i}'s stored version and encoded properties, read as the backend reads them. */
  Row get(int i) {
    return read(tableId, i);
  }

  int tableId() {
    return tableId;
  }

  private Row read(int table, int i) {
    byte[] pk = People.pk(i).getBytes(StandardCharsets.UTF_8);
    ByteBuffer p =
        ByteBuffer.allocate(1 + Integer.BYTES + pk.length)
            .put((byte) 0x01)
            .putInt(table)
            .put(pk)
            .flip();
    ByteBuffer k = ByteBuffer.wrap(People.id(i).getBytes(StandardCharsets.UTF_8));
    Row row =
        session
            .execute(get.boundStatementBuilder().setByteBuffer(0, p).setByteBuffer(1, k).build())
            .one();
    if (row != null) {
      // what the backend does with the row: the version and a copy of the value
      row.getLong(0);
      ByteBuffer value = row.getByteBuffer(1);
      byte[] copy = new byte[value.remaining()];
      value.duplicate().get(copy);
    }
    return row;
  }
}
