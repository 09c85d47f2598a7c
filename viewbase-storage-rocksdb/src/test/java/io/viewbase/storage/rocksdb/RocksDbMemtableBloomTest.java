package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.PerfContext;

/**
 * The memtable's bloom filter ({@code rocksdb.memtableBloomPercent}): on by default, a get of a key
 * the memtable does not hold is answered by the filter, and no key it holds is ever missed.
 */
class RocksDbMemtableBloomTest {
  private static final int KEYS = 5_000;
  @TempDir Path dir;

  @Test
  void byDefaultAGetOfAKeyTheMemtableDoesNotHoldSkipsItsSearch() throws Exception {
    try (RocksDbStore store = open(dir.resolve("default"), PerfCounts.CACHES_OFF)) {
      write(store);

      assertThat(memtableBloomMisses(store)).isGreaterThan(KEYS * 9L / 10);
      assertEveryKeyIsFoundAndNoOther(store);
    }
  }

  @Test
  void zeroTurnsTheFilterOff() throws Exception {
    Map<String, String> off = new HashMap<>(PerfCounts.CACHES_OFF);
    off.put(RocksDbSettings.MEMTABLE_BLOOM_PERCENT, "0");
    try (RocksDbStore store = open(dir.resolve("off"), off)) {
      write(store);

      assertThat(memtableBloomMisses(store)).isZero();
      assertEveryKeyIsFoundAndNoOther(store);
    }
  }

  @Test
  void aBadShareFailsTheOpenNamingTheOption() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> open(dir.resolve("bad"), Map.of(RocksDbSettings.MEMTABLE_BLOOM_PERCENT, "26")))
        .withMessageContaining("rocksdb.memtableBloomPercent")
        .withMessageContaining("0 to 25")
        .withMessageContaining("'26'");
  }

  private static RocksDbStore open(Path directory, Map<String, String> options) {
    return RocksDbStore.open(new StoreConfig(directory, false, options));
  }

  private static void write(RocksDbStore store) throws ConditionFailedException {
    List<Mutation> batch = new ArrayList<>();
    for (int i = 0; i < KEYS; i++) {
      batch.add(Mutation.put(partition(i), key("i", i), 1, b("{\"n\":" + i + "}")));
    }
    store.commit(batch);
  }

  /** Gets {@link #KEYS} absent keys and returns how many the memtable's filter answered. */
  private static long memtableBloomMisses(RocksDbStore store) {
    return PerfCounts.during(
        store.rocksDb(),
        () -> {
          for (int i = 0; i < KEYS; i++) {
            assertThat(store.get(partition(i), key("absent", i))).isEmpty();
          }
        },
        PerfContext::getBloomMemtableMissCount);
  }

  private static void assertEveryKeyIsFoundAndNoOther(RocksDbStore store) {
    for (int i = 0; i < KEYS; i++) {
      assertThat(store.get(partition(i), key("i", i))).as("key %d", i).isPresent();
      assertThat(store.get(partition(i), key("j", i))).isEmpty();
    }
  }

  private static byte[] partition(int i) {
    return b("p" + i % 20);
  }

  private static byte[] key(String prefix, int i) {
    return b(prefix + String.format("%06d", i));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
