package io.viewbase.storage.rocksdb;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole-table cursor's shortcuts: a partition decoded once for a run of its entries, a value
 * read in place, and a value-reading scan's values copied along with their keys.
 */
class RocksDbCursorTest {
  /** Entries of the value-reading tests: keys and values each side of the cursor's buffer sizes. */
  private static final int ENTRIES = 300;

  @TempDir Path dir;

  @Test
  void partitionsThatShareBytesAreToldApartAndValuesAreReadInPlace() throws Exception {
    // partitions that are prefixes of each other, with escaped zeros, and runs of one partition
    String[] partitions = {"a", "a", "a\0", "a\0", "a\0b", "ab", "ab", "b\0\0", "b\0\0"};
    List<Mutation> writes = new ArrayList<>();
    for (int i = 0; i < partitions.length; i++) {
      writes.add(put(partitions[i], "k" + i, i + 1, "v" + i));
    }
    try (Store store = RocksDbStore.open(new StoreConfig(dir, false, Map.of()))) {
      store.commit(writes);
      List<String> seen = new ArrayList<>();
      try (Cursor cursor = store.scanAll(b(""), null, null)) {
        while (cursor.next()) {
          byte[] partition = cursor.partition();
          String inPlace =
              cursor.readValue((buf, offset, length) -> new String(buf, offset, length, UTF8));
          partition[0] = 'x'; // the caller's: the next entry's partition must not change
          seen.add(
              new String(cursor.partition(), UTF8)
                  + "/"
                  + new String(cursor.key(), UTF8)
                  + "="
                  + inPlace
                  + "@"
                  + cursor.version());
          assertThat(cursor.value()).isEqualTo(inPlace.getBytes(UTF8));
        }
      }
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < partitions.length; i++) {
        expected.add(partitions[i] + "/k" + i + "=v" + i + "@" + (i + 1));
      }
      assertThat(seen).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void scanThatReadsValuesSeesEveryEntrysValueThoughSomeOutgrowTheBuffers() throws Exception {
    try (Store store = RocksDbStore.open(new StoreConfig(dir, false, Map.of()))) {
      store.commit(entries());
      try (Cursor cursor = store.scanAll(b(""), null, null)) {
        for (int i = 0; i < ENTRIES; i++) {
          assertThat(cursor.next()).as("entry %d", i).isTrue();
          assertThat(cursor.key()).as("key %d", i).isEqualTo(key(i));
          // every way of asking, the first (version only) included: each must see its own entry
          switch (i % 4) {
            case 0 -> assertThat(cursor.version()).isEqualTo(i + 1L);
            case 1 -> assertThat(cursor.value()).as("value %d", i).isEqualTo(value(i));
            case 2 ->
                assertThat(cursor.readValue(RocksDbCursorTest::copy))
                    .as("value %d in place", i)
                    .isEqualTo(value(i));
            default -> {
              // the key only, once the cursor copies values: the next entry must not be confused
            }
          }
        }
        assertThat(cursor.next()).isFalse();
      }
      // one partition, both ways: the same shortcut on a cursor whose keys sit at a fixed offset
      for (boolean reverse : new boolean[] {false, true}) {
        List<Integer> seen = new ArrayList<>();
        try (Cursor cursor = store.scan(b("p"), KeyRange.ALL, reverse)) {
          while (cursor.next()) {
            int i = index(cursor.key());
            assertThat(cursor.readValue(RocksDbCursorTest::copy))
                .as("value %d", i)
                .isEqualTo(value(i));
            assertThat(cursor.version()).isEqualTo(i + 1L);
            seen.add(i);
          }
        }
        assertThat(seen)
            .hasSize(ENTRIES / 2)
            .isSortedAccordingTo(reverse ? (a, b) -> b - a : Integer::compare);
      }
    }
  }

  /**
   * A closed cursor answers for its current entry only from what it has copied, which shows what
   * {@code next()} copied: the key always, the value only once the caller has read one.
   */
  @Test
  void keyOnlyScanLeavesValuesUncopiedAndAValueReadingScanCopiesThemWithTheKey() throws Exception {
    try (Store store = RocksDbStore.open(new StoreConfig(dir, false, Map.of()))) {
      store.commit(entries());
      Cursor keysOnly = store.scanAll(b(""), null, null);
      int walked = 0;
      while (walked < ENTRIES / 2 && keysOnly.next()) {
        assertThat(keysOnly.key()).isEqualTo(key(walked++));
      }
      keysOnly.close();
      assertThat(keysOnly.key()).isEqualTo(key(walked - 1));
      assertThatThrownBy(keysOnly::value)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("the cursor is closed");
      assertThat(keysOnly.next()).isFalse();

      Cursor readsValues = store.scanAll(b(""), null, null);
      assertThat(readsValues.next()).isTrue();
      assertThat(readsValues.value()).isEqualTo(value(0));
      assertThat(readsValues.next()).isTrue(); // copies entry 1's value with its key
      readsValues.close();
      assertThat(readsValues.readValue(RocksDbCursorTest::copy)).isEqualTo(value(1));
      assertThat(readsValues.version()).isEqualTo(2);
      assertThat(readsValues.next()).isFalse();
    }
  }

  /**
   * The store closing under scans that read values, again and again: a scan either ends or fails as
   * closed, and every value it read before was its entry's own (a value read from a freed iterator
   * would be garbage, or crash the JVM).
   */
  @Test
  void storeClosingUnderAValueReadingScanFailsItCleanly() throws Exception {
    for (int round = 0; round < 10; round++) {
      Path at = dir.resolve("round" + round);
      Store store = RocksDbStore.open(new StoreConfig(at, false, Map.of()));
      store.commit(entries());
      CountDownLatch scanning = new CountDownLatch(1);
      CompletableFuture<Integer> scans =
          CompletableFuture.supplyAsync(
              () -> {
                int completed = 0;
                try {
                  while (true) {
                    try (Cursor cursor = store.scanAll(b(""), null, null)) {
                      scanning.countDown();
                      while (cursor.next()) {
                        checkOwnValue(cursor);
                      }
                    }
                    completed++;
                  }
                } catch (StorageException e) {
                  assertThat(e.kind()).isEqualTo(StorageException.Kind.CLOSED);
                  return completed;
                }
              });
      assertThat(scanning.await(10, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(round % 3); // close at the start of a scan, or some way in
      store.close();
      assertThat(scans.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
    }
  }

  /**
   * Another thread closing the cursor mid-scan: the scan stops, on a value of its own or a refusal.
   */
  @Test
  void cursorClosedByAnotherThreadMidScanStopsTheScanCleanly() throws Exception {
    try (Store store = RocksDbStore.open(new StoreConfig(dir, false, Map.of()))) {
      store.commit(entries());
      for (int round = 0; round < 20; round++) {
        Cursor cursor = store.scanAll(b(""), null, null);
        CountDownLatch scanning = new CountDownLatch(1);
        CompletableFuture<Integer> scan =
            CompletableFuture.supplyAsync(
                () -> {
                  int read = 0;
                  try {
                    while (cursor.next()) {
                      scanning.countDown();
                      checkOwnValue(cursor);
                      read++;
                    }
                  } catch (IllegalStateException closed) {
                    assertThat(closed).hasMessage("the cursor is closed");
                  }
                  return read;
                });
        assertThat(scanning.await(10, TimeUnit.SECONDS)).isTrue();
        cursor.close();
        assertThat(scan.get(10, TimeUnit.SECONDS)).isBetween(0, ENTRIES);
        assertThat(cursor.next()).isFalse();
      }
    }
  }

  /** Fails unless the value the cursor hands over in place is its current entry's own. */
  private static void checkOwnValue(Cursor cursor) {
    int i = index(cursor.key());
    if (!Arrays.equals(cursor.readValue(RocksDbCursorTest::copy), value(i))) {
      throw new AssertionError("entry " + i + " read a value not its own");
    }
  }

  /** A value reader that copies the value out. */
  private static byte[] copy(byte[] buf, int offset, int length) {
    return Arrays.copyOfRange(buf, offset, offset + length);
  }

  /** {@link #ENTRIES} entries in two partitions, "p" then "q"; entry i has version i + 1. */
  private static List<Mutation> entries() {
    List<Mutation> writes = new ArrayList<>();
    for (int i = 0; i < ENTRIES; i++) {
      writes.add(Mutation.put(b(i < ENTRIES / 2 ? "p" : "q"), key(i), i + 1, value(i)));
    }
    return writes;
  }

  /**
   * Keys in entry order, every seventh longer than the cursor's 64-byte key buffer; the number at
   * the front orders them.
   */
  private static byte[] key(int i) {
    String key = String.format("%04d", i);
    return b(i % 7 == 3 ? key + "-" + "k".repeat(90 + i) : key);
  }

  private static int index(byte[] key) {
    return Integer.parseInt(new String(key, 0, 4, UTF8));
  }

  /**
   * Values around the 248 bytes that fit the cursor's first buffer (after the version), and some
   * far longer, in no order, so that the buffer grows in the middle of a scan, more than once.
   */
  private static byte[] value(int i) {
    int length =
        switch (i % 10) {
          case 0 -> 0;
          case 1 -> 248;
          case 2 -> 249;
          case 3 -> 300;
          case 4 -> 1000 + 37 * i;
          case 5 -> i == 55 ? 70_000 : 7;
          default -> i % 250;
        };
    byte[] value = new byte[length];
    for (int j = 0; j < length; j++) {
      value[j] = (byte) (i * 31 + j);
    }
    return value;
  }

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;
}
