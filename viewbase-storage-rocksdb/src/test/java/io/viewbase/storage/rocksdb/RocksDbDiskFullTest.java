package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose file system fills up refuses writes with {@link StorageException.Kind#NO_SPACE},
 * keeps serving reads, loses nothing it acknowledged, and takes writes again once space is freed,
 * without being reopened. Runs on a small tmpfs ({@link SmallFileSystem}): skipped without root.
 */
class RocksDbDiskFullTest {
  private static final byte[] PARTITION = "p".getBytes(StandardCharsets.UTF_8);

  /** A reserve that fits the 16 MiB file system, and a memtable that flushes within it. */
  private static final Map<String, String> OPTIONS =
      Map.of("rocksdb.reservedDiskBytes", "2m", "rocksdb.writeBufferBytes", "2m");

  @TempDir Path dir;

  @Test
  void writesOnAFullDiskFailNoSpaceReadsGoOnAndWritesResumeOnceSpaceIsFreed() throws Exception {
    Path mountPoint = Files.createDirectory(dir.resolve("small"));
    try (SmallFileSystem fs = SmallFileSystem.mount(mountPoint, 16)) {
      Path data = fs.path().resolve("data");
      Path filler = fs.path().resolve("filler");
      List<Integer> acknowledged = new ArrayList<>();
      try (RocksDbStore store = RocksDbStore.open(new StoreConfig(data, true, OPTIONS))) {
        for (int i = 0; i < 100; i++) {
          store.commit(List.of(put(i)));
          acknowledged.add(i);
        }
        fs.fill(filler, 6 << 20); // room for some writes and a flush, then the reserve

        StorageException refused = writeUntilRefused(store, 100, acknowledged);
        assertThat(refused.kind()).isEqualTo(StorageException.Kind.NO_SPACE);
        assertThat(refused.getMessage()).contains("is full").contains(data.toString());
        // RocksDB may free some space meanwhile (a closed log's preallocation): writes go on
        // until they are refused again
        StorageException again = writeUntilRefused(store, 200_000, acknowledged);
        assertThat(again.kind()).isEqualTo(StorageException.Kind.NO_SPACE);
        assertAllPresent(store, acknowledged);

        Files.delete(filler);
        store.commit(List.of(put(1_000_000)));
        acknowledged.add(1_000_000);
        assertAllPresent(store, acknowledged);
      }
      try (RocksDbStore reopened = RocksDbStore.open(new StoreConfig(data, true, OPTIONS))) {
        assertAllPresent(reopened, acknowledged);
      }
    }
  }

  @Test
  void withoutAReserveRocksDbsOwnEnospcFailsNoSpaceAndAReopenTakesWritesAgain() throws Exception {
    Path mountPoint = Files.createDirectory(dir.resolve("small"));
    try (SmallFileSystem fs = SmallFileSystem.mount(mountPoint, 16)) {
      Path data = fs.path().resolve("data");
      Path filler = fs.path().resolve("filler");
      Map<String, String> noReserve = Map.of("rocksdb.reservedDiskBytes", "0");
      List<Integer> acknowledged = new ArrayList<>();
      RocksDbStore store = RocksDbStore.open(new StoreConfig(data, true, noReserve));
      try {
        for (int i = 0; i < 100; i++) {
          store.commit(List.of(put(i)));
          acknowledged.add(i);
        }
        fs.fill(filler, 0);
        StorageException refused = null;
        for (int i = 100; i < 100_000 && refused == null; i++) {
          try {
            store.commit(List.of(put(i)));
            acknowledged.add(i);
          } catch (StorageException e) {
            refused = e;
          }
        }
        assertThat(refused).as("a write on a full file system").isNotNull();
        assertThat(refused.kind()).isEqualTo(StorageException.Kind.NO_SPACE);
        assertThat(refused.getMessage())
            .contains("is full")
            .contains("No space left on device")
            .contains(data.toString());
        assertAllPresent(store, acknowledged);
        Files.delete(filler);
      } finally {
        try {
          store.close();
        } catch (StorageException stopped) {
          // RocksDB stopped after its log's ENOSPC and says so on close ("Seen error")
        }
      }
      try (RocksDbStore reopened = RocksDbStore.open(new StoreConfig(data, true, noReserve))) {
        assertAllPresent(reopened, acknowledged);
        reopened.commit(List.of(put(1_000_000)));
      }
    }
  }

  /** Writes items from {@code first} on until one is refused; at most 100,000 (~400 MiB). */
  private static StorageException writeUntilRefused(
      RocksDbStore store, int first, List<Integer> acknowledged) throws Exception {
    for (int i = first; i < first + 100_000; i++) {
      try {
        store.commit(List.of(put(i)));
        acknowledged.add(i);
      } catch (StorageException e) {
        return e;
      }
    }
    return fail("100000 writes of 4 KiB on a full 16 MiB file system all succeeded");
  }

  private static void assertAllPresent(RocksDbStore store, List<Integer> acknowledged) {
    for (int i : acknowledged) {
      assertThat(store.get(PARTITION, key(i))).as("item %d", i).isPresent();
    }
  }

  private static Mutation put(int i) {
    byte[] value = new byte[4096];
    new java.util.Random(i)
        .nextBytes(value); // incompressible, so the disk fills at the rate written
    return Mutation.put(PARTITION, key(i), i + 1, value);
  }

  private static byte[] key(int i) {
    return String.format("k%07d", i).getBytes(StandardCharsets.UTF_8);
  }
}
