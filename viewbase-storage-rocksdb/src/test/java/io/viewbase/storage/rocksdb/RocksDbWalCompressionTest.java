package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StoreConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-ahead log's compression ({@code rocksdb.walCompression}): on by default, recovered on
 * reopen.
 */
class RocksDbWalCompressionTest {
  private static final int ITEMS = 2_000;

  @TempDir Path dir;

  @Test
  void theLogIsCompressedByDefaultAndReopeningRecoversEveryWriteFromIt() throws IOException {
    Path compressed = dir.resolve("default");
    Path plain = dir.resolve("none");
    writeItems(compressed, Map.of(), 0);
    writeItems(plain, Map.of(RocksDbSettings.WAL_COMPRESSION, "none"), 0);

    // closed without a flush: every write is still only in the log, which reopening must replay
    long compressedBytes = logBytes(compressed);
    long plainBytes = logBytes(plain);
    assertThat(plainBytes).isGreaterThan(ITEMS * 200L);
    assertThat(compressedBytes)
        .as("log bytes with zstd against none (%d)", plainBytes)
        .isLessThan(plainBytes / 3);

    assertItems(compressed, Map.of(), 0);
    assertItems(plain, Map.of(RocksDbSettings.WAL_COMPRESSION, "none"), 0);
  }

  @Test
  void aDirectoryCanSwitchBetweenCompressedAndPlainLogs() {
    Map<String, String> none = Map.of(RocksDbSettings.WAL_COMPRESSION, "NONE");
    Map<String, String> zstd = Map.of(RocksDbSettings.WAL_COMPRESSION, "zstd");
    writeItems(dir, none, 1);
    assertItems(dir, zstd, 1);
    writeItems(dir, zstd, 2);
    assertItems(dir, none, 2);
  }

  @Test
  void anUnknownCompressionFailsNamingTheOptionAndValue() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                RocksDbStore.open(
                    new StoreConfig(dir, true, Map.of(RocksDbSettings.WAL_COMPRESSION, "lz4"))))
        .withMessageContaining(RocksDbSettings.WAL_COMPRESSION)
        .withMessageContaining("'lz4'")
        .withMessageContaining("zstd or none");
  }

  private static void writeItems(Path directory, Map<String, String> options, int revision) {
    try (RocksDbStore store = RocksDbStore.open(new StoreConfig(directory, true, options))) {
      for (int i = 0; i < ITEMS; i += 50) {
        List<Mutation> batch = new ArrayList<>();
        for (int j = i; j < i + 50; j++) {
          batch.add(
              Mutation.put(
                  b("p" + j % 10), b(String.format("i%05d", j)), revision + 1, value(j, revision)));
        }
        store.commit(batch);
      }
    } catch (ConditionFailedException e) {
      throw new AssertionError(e);
    }
  }

  private static void assertItems(Path directory, Map<String, String> options, int revision) {
    try (RocksDbStore store = RocksDbStore.open(new StoreConfig(directory, true, options))) {
      for (int j = 0; j < ITEMS; j++) {
        var stored = store.get(b("p" + j % 10), b(String.format("i%05d", j))).orElseThrow();
        assertThat(stored.version()).isEqualTo(revision + 1);
        assertThat(stored.value()).isEqualTo(value(j, revision));
      }
    }
  }

  /** A document-like value: names and text that repeat from item to item, as stored items' do. */
  private static byte[] value(int i, int revision) {
    return ("{\"name\":\"Person "
            + i
            + "\",\"email\":\"person"
            + i
            + "@example.com\",\"city\":\"Rotterdam\","
            + "\"revision\":"
            + revision
            + ",\"bio\":\"Prefers short meetings, long walks and well-indexed tables; "
            + "writes benchmarks before optimising anything at all.\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static long logBytes(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".log"))
          .mapToLong(
              f -> {
                try {
                  return Files.size(f);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    }
  }

  private static byte[] b(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
