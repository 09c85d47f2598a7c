package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.Versioned;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Durable batches over a store with a small memtable, so that its log files fill, get flushed and
 * are written over ({@link RocksDbLogRecyclingTest}). Batch {@code b} writes revision {@code b} of
 * {@link #BATCH} of the {@link #KEYS} keys, round the ring; whether the log being written is a
 * recycled one is told by its length when first seen.
 *
 * <p>As a program (the test's second JVM): {@code RecyclingWriter DIR} writes, with the default
 * options, batches until killed (at most {@link #MAX_BATCHES}), printing {@code acked B} after each
 * and {@code recycled B} when batch B went into a recycled log.
 */
public final class RecyclingWriter {
  static final int KEYS = 1_000;
  static final int BATCH = 50;

  /** A small memtable: a log file is switched every fifty batches or so, at about half a MiB. */
  static final String WRITE_BUFFER = "1m";

  /** Over a batch's record (20 KiB before compression), well under a full log's length. */
  private static final long FIRST_SIGHT_LIMIT = 128 << 10;

  /** Some 40 logs' worth: a writer that is not killed by then has not recycled enough. */
  static final int MAX_BATCHES = 2_000;

  private static final byte[] PARTITION = "p".getBytes(StandardCharsets.UTF_8);

  private final RocksDbStore store;
  private final Path directory;

  /** Each log file seen, and whether it was a recycled one when first seen. */
  private final Map<Path, Boolean> logs = new HashMap<>();

  /** Opens a store in {@code directory} with a small memtable and {@code options}. */
  RecyclingWriter(Path directory, Map<String, String> options) {
    this.directory = directory;
    Map<String, String> all = new HashMap<>(options);
    all.put(RocksDbSettings.WRITE_BUFFER_BYTES, WRITE_BUFFER);
    this.store = RocksDbStore.open(new StoreConfig(directory, true, all));
  }

  public static void main(String[] args) throws Exception {
    RecyclingWriter writer = new RecyclingWriter(Path.of(args[0]), Map.of());
    for (int batch = 0; batch < MAX_BATCHES; batch++) {
      boolean recycled = writer.write(batch);
      System.out.println((recycled ? "recycled " : "acked ") + batch);
      System.out.flush();
    }
  }

  /** Writes batch {@code batch} durably; true if it went into a recycled log file. */
  boolean write(int batch) throws ConditionFailedException {
    List<Mutation> mutations = new ArrayList<>(BATCH);
    for (int i = 0; i < BATCH; i++) {
      int key = key(batch, i);
      mutations.add(Mutation.put(PARTITION, key(key), batch + 1L, value(key, batch)));
    }
    store.commit(mutations);
    return currentLogIsRecycled();
  }

  void close() {
    store.close();
  }

  /** The key batch {@code batch} writes in its slot {@code i}. */
  static int key(int batch, int i) {
    return (batch * BATCH + i) % KEYS;
  }

  static byte[] key(int key) {
    return String.format("k%04d", key).getBytes(StandardCharsets.UTF_8);
  }

  /** About 400 bytes, some of them varying, so the compressed log still fills. */
  static byte[] value(int key, int batch) {
    StringBuilder text =
        new StringBuilder("{\"key\":" + key + ",\"batch\":" + batch + ",\"noise\":\"");
    long x = key * 6_364_136_223_846_793_005L + batch * 1_442_695_040_888_963_407L;
    while (text.length() < 400) {
      x = x * 6_364_136_223_846_793_005L + 1_442_695_040_888_963_407L;
      text.append(Long.toHexString(x));
    }
    return text.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Checks that {@code store} holds exactly what batches {@code 0..lastAcknowledged} wrote, or also
   * all of batch {@code lastAcknowledged + 1} (the one in flight at a crash), and never part of it;
   * returns the last batch found.
   */
  static int assertHolds(RocksDbStore store, int lastAcknowledged) {
    int inFlight = lastAcknowledged + 1;
    Optional<Versioned> probe = store.get(PARTITION, key(key(inFlight, 0)));
    int last =
        probe.isPresent() && probe.get().version() == inFlight + 1L ? inFlight : lastAcknowledged;
    for (int key = 0; key < KEYS; key++) {
      int expected = lastWriter(key, last);
      Optional<Versioned> found = store.get(PARTITION, key(key));
      if (expected < 0) {
        if (found.isPresent()) {
          throw new AssertionError(
              expectedKey(key) + " was never written, yet holds version " + found.get().version());
        }
        continue;
      }
      if (found.isEmpty()) {
        throw new AssertionError(
            "no key "
                + expectedKey(key)
                + " (batch "
                + expected
                + " wrote it; last acknowledged batch "
                + lastAcknowledged
                + ")");
      }
      Versioned stored = found.get();
      if (stored.version() != expected + 1L
          || !Arrays.equals(stored.value(), value(key, expected))) {
        throw new AssertionError(
            expectedKey(key)
                + " holds version "
                + stored.version()
                + ", not batch "
                + expected
                + "'s (last acknowledged batch "
                + lastAcknowledged
                + ")");
      }
    }
    return last;
  }

  private static String expectedKey(int key) {
    return new String(key(key), StandardCharsets.UTF_8);
  }

  /** The last batch up to {@code last} that wrote {@code key}, or -1. */
  private static int lastWriter(int key, int last) {
    for (int batch = last; batch >= 0; batch--) {
      int first = key(batch, 0);
      int offset = Math.floorMod(key - first, KEYS);
      if (offset < BATCH) {
        return batch;
      }
    }
    return -1;
  }

  /**
   * Whether the newest log file is a recycled one: a new log starts empty, and when first seen
   * holds at most the batch just written, where a recycled one already has a previous log's length.
   */
  private boolean currentLogIsRecycled() {
    Path current = null;
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(".log")
            && (current == null || name.compareTo(current.getFileName().toString()) > 0)) {
          current = file; // log names are zero-padded numbers
        }
      }
      if (current == null) {
        return false;
      }
      Boolean recycled = logs.get(current);
      if (recycled == null) {
        recycled = Files.size(current) > FIRST_SIGHT_LIMIT;
        logs.put(current, recycled);
      }
      return recycled;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
