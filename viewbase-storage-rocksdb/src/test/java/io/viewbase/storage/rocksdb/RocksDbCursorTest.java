package io.viewbase.storage.rocksdb;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole-table cursor's shortcuts: a partition decoded once for a run of its entries, and a
 * value read in place.
 */
class RocksDbCursorTest {
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

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;
}
