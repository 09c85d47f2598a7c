package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Value;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The names of stored items are decoded through {@link ItemCodec.PropertyNames}: whatever the cache
 * holds, a decoded item has exactly the names it was written with.
 */
class ItemCodecPropertyNamesTest {
  @Test
  void aNameIsDecodedAsItsBytesSayWhateverTheSlotHeld() {
    Random random = new Random(20261204L);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 5 * ItemCodec.PropertyNames.SLOTS; i++) {
      names.add(name(random, i));
    }
    names.add("x".repeat(ItemCodec.PropertyNames.MAX_BYTES));
    names.add("y".repeat(ItemCodec.PropertyNames.MAX_BYTES + 1));
    names.add("ünïcødé 名前 \uD83D\uDE00");
    names.add("\uD800 lone"); // encoded as '?' by UTF-8, decoded as '?' both ways
    for (int round = 0; round < 3; round++) {
      for (String name : names) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        byte[] padded = new byte[utf8.length + 6];
        System.arraycopy(utf8, 0, padded, 3, utf8.length);
        assertThat(ItemCodec.PropertyNames.decode(padded, 3, utf8.length))
            .isEqualTo(new String(utf8, StandardCharsets.UTF_8));
      }
    }
  }

  @Test
  void itemsDecodedOnManyThreadsAtOnceKeepTheirNames() throws Exception {
    // more distinct names than slots, so that threads keep replacing each other's entries
    List<Map<String, Value>> items = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < 400; i++) {
      Map<String, Value> properties = new LinkedHashMap<>();
      for (int p = 0; p < 8; p++) {
        properties.put(name(random, i * 8 + p), Value.of("v" + p));
      }
      Map<String, Value> nested = new LinkedHashMap<>();
      nested.put(name(random, i), Value.of(i));
      properties.put("nested", new Value.Obj(nested));
      items.add(properties);
    }
    List<byte[]> encoded = items.stream().map(ItemCodec::encode).toList();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> checks = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        checks.add(
            pool.submit(
                () -> {
                  int checked = 0;
                  for (int round = 0; round < 50; round++) {
                    for (int i = 0; i < items.size(); i++) {
                      int k = (i * 7 + offset * 13 + round) % items.size();
                      assertThat(ItemCodec.decode(encoded.get(k))).isEqualTo(items.get(k));
                      checked++;
                    }
                  }
                  return checked;
                }));
      }
      for (Future<Integer> check : checks) {
        assertThat(check.get()).isEqualTo(50 * items.size());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static String name(Random random, int i) {
    String[] parts = {"n", "name", "é", "名", "a_b", "Z"};
    return parts[random.nextInt(parts.length)] + i;
  }
}
