package io.viewbase.core;

import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The tables' change feeds: one storage sequence ({@link Mutation.Append}) per table, in the system
 * space, that {@link WritePipeline} appends to in the commit of every write it records.
 *
 * <pre>
 * partition "changes/" tableId(4), key ""       the sequence: its last number (8 bytes)
 * partition "changes/" tableId(4), key n(8)     entry n, at the write's version: {@link #encode}
 * </pre>
 *
 * <p>The store numbers the entries at commit, so numbers are dense and in commit order, and a
 * reader never sees n before every earlier entry (RocksDB's group leader and the memory store's
 * lock number them in the order they apply batches). One commit's entries of one table are
 * consecutive, and each entry knows its index and the count of its transaction's entries here, so a
 * reader finds a transaction's bounds from any of its entries.
 *
 * <p>Retention: a read treats entries beyond the newest {@code maxEntries} as gone at once; {@link
 * #trim} deletes them and those older than the retention time, in bounded chunks, from a background
 * task of the database. A read that asks for entries no longer held fails with {@code
 * ChangesExpired} naming the oldest held.
 *
 * <p>Long-polling: a commit that appended to a table's feed signals its waiters; when other
 * processes share the store (whose commits signal nothing here), a waiter also looks again every
 * {@link #SHARED_POLL}.
 */
final class ChangeFeed {
  private static final byte[] PREFIX = KeyLayout.partition(KeyLayout.SYSTEM_TABLE_ID, "changes/");
  private static final byte[] SEQUENCE = new byte[0];
  private static final byte FORMAT = 1;
  private static final Change.Kind[] KINDS = Change.Kind.values();
  private static final Duration SHARED_POLL = Duration.ofMillis(200);
  private static final int TRIM_CHUNK = 1000;

  /** How far behind the head recent reads left their readers, per table. */
  final FeedLag lag = new FeedLag();

  /**
   * What one decided write puts in its table's feed.
   *
   * @param beforeVersion the version the write replaced or deleted; 0 for an insert
   * @param after the item's encoded properties after the write; null for a delete
   * @param before its encoded properties before, where the table keeps before-images; else null
   */
  record Recorded(
      TableEntry table,
      Change.Kind kind,
      String partitionKey,
      String id,
      long beforeVersion,
      byte[] after,
      byte[] before) {}

  private final Store store;
  private final boolean shared;
  private final Map<Integer, Signal> signals = new ConcurrentHashMap<>();

  ChangeFeed(Store store, boolean shared) {
    this.store = store;
    this.shared = shared;
  }

  static byte[] partition(int tableId) {
    return Bytes.concat(PREFIX, KeyLayout.tablePrefix(tableId));
  }

  /** The appends of one attempt's recorded writes, all at its version. */
  static List<Mutation> appends(List<Recorded> recorded, long version) {
    Map<Integer, int[]> sizes = new HashMap<>(); // table id -> {entries, next index}
    for (Recorded r : recorded) {
      sizes.computeIfAbsent(r.table().id(), id -> new int[2])[0]++;
    }
    List<Mutation> out = new ArrayList<>(recorded.size());
    for (Recorded r : recorded) {
      int[] size = sizes.get(r.table().id());
      out.add(
          new Mutation.Append(
              r.table().feedPartition(), SEQUENCE, version, encode(r, size[1]++, size[0])));
    }
    return out;
  }

  /** Wakes whoever waits for the feeds of the tables these writes recorded to. */
  void committed(List<Recorded> recorded) {
    int last = -1;
    for (Recorded r : recorded) {
      if (r.table().id() != last) {
        last = r.table().id();
        Signal s = signals.get(last);
        if (s != null) {
          s.fire();
        }
      }
    }
  }

  /** {@link Table#changes}: up to {@code limit} entries after {@code after}, waiting for one. */
  ChangePage read(TableEntry table, long after, int limit, Duration wait) {
    ChangePage.checkRead(after, limit, wait);
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      table.checkLive();
      if (!table.recordsChanges()) {
        throw ViewbaseException.of(
            ErrorCode.ChangeFeedDisabled,
            "The table keeps no change feed; enable it in the table's options",
            "table",
            table.name());
      }
      Signal signal = signals.computeIfAbsent(table.id(), id -> new Signal());
      long seen = signal.generation();
      ChangePage page = readNow(table, after, limit);
      long remaining = deadline - System.nanoTime();
      if (!page.changes().isEmpty() || remaining <= 0) {
        return page;
      }
      signal.await(seen, shared ? Math.min(remaining, SHARED_POLL.toNanos()) : remaining);
    }
  }

  private ChangePage readNow(TableEntry table, long after, int limit) {
    byte[] partition = table.feedPartition();
    long latest = latest(partition);
    if (after > latest) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The position is after the feed's latest entry",
          "table",
          table.name(),
          "after",
          after,
          "latest",
          latest);
    }
    long oldest = Math.max(firstHeld(partition, latest), retainedFrom(table, latest));
    if (after + 1 < oldest) {
      throw ViewbaseException.of(
          ErrorCode.ChangesExpired,
          "Entries after this position are no longer held; resume from the oldest held",
          "table",
          table.name(),
          "after",
          after,
          "oldest",
          oldest);
    }
    List<Change> changes = new ArrayList<>(Math.min(limit, (int) Math.min(latest - after, 64)));
    if (after < latest) {
      KeyRange range = new KeyRange(Mutation.sequenceKey(SEQUENCE, after), false, null, false);
      try (Cursor c = store.scan(partition, range, false)) {
        while (changes.size() < limit && c.next()) {
          long n = Mutation.numberOf(c.key());
          if (n > latest) {
            break; // committed after the latest read: the next read has it
          }
          changes.add(decode(n, c.version(), c.value()));
        }
      }
    }
    long next = changes.isEmpty() ? after : changes.get(changes.size() - 1).sequence();
    lag.record(table.name(), latest - next, System.nanoTime());
    return new ChangePage(changes, next, oldest, latest);
  }

  private long latest(byte[] partition) {
    Optional<Versioned> last = store.get(partition, SEQUENCE);
    return last.map(v -> Mutation.sequenceNumber(v.value())).orElse(0L);
  }

  /** The first entry the store holds, or latest + 1 if none. */
  private long firstHeld(byte[] partition, long latest) {
    KeyRange entries = new KeyRange(SEQUENCE, false, null, false);
    try (Cursor c = store.scan(partition, entries, false)) {
      return c.next() ? Mutation.numberOf(c.key()) : latest + 1;
    }
  }

  /** The first entry the table's maxEntries keeps. */
  private static long retainedFrom(TableEntry table, long latest) {
    long max = table.options().changeFeed().maxEntries();
    return Math.max(1, latest - max + 1);
  }

  /**
   * Deletes the entries of a table's feed that retention no longer keeps (beyond maxEntries, or
   * written before {@code nowTicks} minus the retention time), at most {@code budget} of them.
   *
   * @return how many were deleted
   */
  int trim(TableEntry table, long nowTicks, int budget) {
    TableOptions.ChangeFeed options = table.options().changeFeed();
    byte[] partition = table.feedPartition();
    long latest = latest(partition);
    long keepFrom = retainedFrom(table, latest);
    long oldestTicks = nowTicks - options.retention().toNanos() / 100;
    int deleted = 0;
    while (deleted < budget) {
      List<Mutation> chunk = new ArrayList<>();
      KeyRange entries = new KeyRange(SEQUENCE, false, null, false);
      try (Cursor c = store.scan(partition, entries, false)) {
        while (chunk.size() < Math.min(TRIM_CHUNK, budget - deleted) && c.next()) {
          if (Mutation.numberOf(c.key()) >= keepFrom && c.version() >= oldestTicks) {
            break;
          }
          chunk.add(Mutation.delete(partition, c.key()));
        }
      }
      if (chunk.isEmpty()) {
        break;
      }
      try {
        store.commit(chunk);
      } catch (ConditionFailedException e) {
        throw new IllegalStateException("unconditional write failed", e);
      }
      deleted += chunk.size();
    }
    return deleted;
  }

  /*
   * Entry layout, all integers big-endian:
   *   format(1) = 1, kind(1) = Change.Kind ordinal, index(4), size(4), beforeVersion(8),
   *   partitionKey: length(4) UTF-8, id: length(4) UTF-8,
   *   after: length(4) (-1: none) ItemCodec bytes, before: length(4) (-1: none) ItemCodec bytes
   */

  static byte[] encode(Recorded r, int index, int size) {
    byte[] pk = r.partitionKey().getBytes(StandardCharsets.UTF_8);
    byte[] id = r.id().getBytes(StandardCharsets.UTF_8);
    int length =
        1
            + 1
            + 4
            + 4
            + 8
            + 4
            + pk.length
            + 4
            + id.length
            + 4
            + lengthOf(r.after())
            + 4
            + lengthOf(r.before());
    ByteBuffer out = ByteBuffer.allocate(length);
    out.put(FORMAT).put((byte) r.kind().ordinal()).putInt(index).putInt(size);
    out.putLong(r.beforeVersion());
    out.putInt(pk.length).put(pk).putInt(id.length).put(id);
    putOptional(out, r.after());
    putOptional(out, r.before());
    return out.array();
  }

  private static int lengthOf(byte[] b) {
    return b == null ? 0 : b.length;
  }

  private static void putOptional(ByteBuffer out, byte[] b) {
    if (b == null) {
      out.putInt(-1);
    } else {
      out.putInt(b.length).put(b);
    }
  }

  static Change decode(long sequence, long version, byte[] value) {
    ByteBuffer in = ByteBuffer.wrap(value);
    byte format = in.get();
    if (format != FORMAT) {
      throw new IllegalStateException("change entry " + sequence + " has format " + format);
    }
    Change.Kind kind = KINDS[in.get()];
    int index = in.getInt();
    int size = in.getInt();
    long beforeVersion = in.getLong();
    String pk = string(in);
    String id = string(in);
    byte[] after = optional(in);
    byte[] before = optional(in);
    boolean removed = kind == Change.Kind.DELETE || kind == Change.Kind.EXPIRE;
    Item afterItem = after == null ? null : stored(pk, id, after, version);
    Item beforeItem = before == null ? null : stored(pk, id, before, beforeVersion);
    return new Change(
        sequence,
        kind,
        pk,
        id,
        Etags.of(removed ? beforeVersion : version),
        new Value.DateTime(version).toInstant(),
        afterItem,
        beforeItem,
        sequence - index,
        size);
  }

  private static Item stored(String pk, String id, byte[] properties, long version) {
    return Item.stored(
        pk,
        id,
        ItemCodec.decode(properties),
        Etags.of(version),
        new Value.DateTime(version).toInstant());
  }

  private static String string(ByteBuffer in) {
    byte[] b = new byte[in.getInt()];
    in.get(b);
    return new String(b, StandardCharsets.UTF_8);
  }

  private static byte[] optional(ByteBuffer in) {
    int length = in.getInt();
    if (length < 0) {
      return null;
    }
    byte[] b = new byte[length];
    in.get(b);
    return b;
  }

  /** A table's waiters: a generation that every commit to its feed advances. */
  private static final class Signal {
    private long generation; // guarded by this

    synchronized long generation() {
      return generation;
    }

    synchronized void fire() {
      generation++;
      notifyAll();
    }

    /** Waits until the generation moves past {@code seen}, or {@code nanos} pass. */
    synchronized void await(long seen, long nanos) {
      long deadline = System.nanoTime() + nanos;
      try {
        while (generation == seen) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return;
          }
          TimeUnit.NANOSECONDS.timedWait(this, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ViewbaseException(ErrorCode.Timeout, "Interrupted while waiting for changes");
      }
    }
  }
}
