package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Range scans within one partition. The partition "p" holds the keys below (in unsigned byte
 * order); neighbouring partitions hold decoys that must never show up.
 */
public interface ScanContract extends StoreFixture {
  /**
   * The keys of partition "p", ascending: empty, 0x00, a, b, b 0x00, b 0xFF, c, d, 0xFF, 0xFF 0xFF.
   */
  List<String> SCAN_KEYS =
      List.of("", "\0", "a", "b", "b\0", "b\u00ff", "c", "d", "\u00ff", "\u00ff\u00ff");

  private void writeKeys() {
    List<io.viewbase.storage.spi.Mutation> batch = new ArrayList<>();
    for (String key : SCAN_KEYS) {
      batch.add(put("p", key, 1, "v" + key));
      batch.add(put("o", key, 1, "decoy"));
      batch.add(put("p\0", key, 1, "decoy"));
      batch.add(put("q", key, 1, "decoy"));
    }
    write(batch.toArray(io.viewbase.storage.spi.Mutation[]::new));
  }

  private List<String> scan(KeyRange range, boolean reverse) {
    return Entry.keys(Entry.drain(store().scan(b("p"), range, reverse)));
  }

  @Test
  default void scanOfAllAscendingReturnsEveryKeyInUnsignedOrder() {
    writeKeys();

    List<Entry> entries = Entry.drain(store().scan(b("p"), KeyRange.ALL, false));

    assertThat(Entry.keys(entries)).containsExactlyElementsOf(SCAN_KEYS);
    assertThat(entries)
        .allSatisfy(
            e -> {
              assertThat(e.partition()).isEqualTo("p");
              assertThat(e.value()).isEqualTo("v" + e.key());
              assertThat(e.version()).isEqualTo(1);
            });
  }

  @Test
  default void scanOfAllDescendingReturnsEveryKeyInReverseOrder() {
    writeKeys();
    List<String> reversed = new ArrayList<>(SCAN_KEYS);
    Collections.reverse(reversed);

    assertThat(scan(KeyRange.ALL, true)).containsExactlyElementsOf(reversed);
  }

  /**
   * Bounds as text, with {@code %00} for a 0x00 byte and {@code %FF} for 0xFF (CSV would trim a raw
   * 0x00); "~" stands for an open (null) bound. Expected keys are listed ascending.
   */
  @ParameterizedTest(name = "{0}{1},{2}{3} -> {4}")
  @CsvSource(
      delimiter = '|',
      value = {
        "[ | b       | d       | ] | b,b%00,b%FF,c,d",
        "( | b       | d       | ) | b%00,b%FF,c",
        "[ | b       | d       | ) | b,b%00,b%FF,c",
        "( | b       | d       | ] | b%00,b%FF,c,d",
        "[ | ~       | a       | ) | ,%00",
        "[ | ~       | a       | ] | ,%00,a",
        "( | c       | ~       | ) | d,%FF,%FF%FF",
        "[ | %FF     | ~       | ) | %FF,%FF%FF",
        "( | %FF%FF  | ~       | ) | ",
        "[ | bb      | c       | ) | b%FF",
        "[ | b%00    | b%FF    | ] | b%00,b%FF",
        "( | b       | b%00    | ) | ",
        "( | ~       | ~       | ) | ,%00,a,b,b%00,b%FF,c,d,%FF,%FF%FF",
      })
  default void scanHonoursOpenInclusiveAndExclusiveBoundsInBothDirections(
      String lowerSide, String lower, String upper, String upperSide, String expected) {
    writeKeys();
    KeyRange range =
        new KeyRange(
            lower.equals("~") ? null : b(unescape(lower)),
            lowerSide.equals("["),
            upper.equals("~") ? null : b(unescape(upper)),
            upperSide.equals("]"));
    List<String> ascending =
        expected == null
            ? List.of()
            : Arrays.stream(expected.split(",", -1)).map(ScanContract::unescape).toList();
    List<String> descending = new ArrayList<>(ascending);
    Collections.reverse(descending);

    assertThat(scan(range, false)).as("ascending %s", range).containsExactlyElementsOf(ascending);
    assertThat(scan(range, true)).as("descending %s", range).containsExactlyElementsOf(descending);
  }

  private static String unescape(String text) {
    return text.replace("%00", "\0").replace("%FF", "\u00ff");
  }

  @Test
  default void scanOfAPrefixReturnsExactlyTheKeysStartingWithIt() {
    writeKeys();

    assertThat(scan(KeyRange.prefix(b("b")), false)).containsExactly("b", "b\0", "b\u00ff");
    assertThat(scan(KeyRange.prefix(b("b")), true)).containsExactly("b\u00ff", "b\0", "b");
    assertThat(scan(KeyRange.prefix(b("\u00ff")), false)).containsExactly("\u00ff", "\u00ff\u00ff");
    assertThat(scan(KeyRange.prefix(b("")), false)).containsExactlyElementsOf(SCAN_KEYS);
    assertThat(scan(KeyRange.prefix(b("x")), false)).isEmpty();
  }

  @Test
  default void scanOfAnEmptyOrInvertedRangeReturnsNothing() {
    writeKeys();

    for (boolean reverse : new boolean[] {false, true}) {
      assertThat(scan(new KeyRange(b("c"), true, b("c"), false), reverse)).isEmpty();
      assertThat(scan(new KeyRange(b("c"), false, b("c"), true), reverse)).isEmpty();
      assertThat(scan(new KeyRange(b("d"), true, b("a"), true), reverse)).isEmpty();
      assertThat(scan(new KeyRange(b("c"), true, b("c"), true), reverse)).containsExactly("c");
    }
  }

  @Test
  default void scanOfAnAbsentPartitionReturnsNothing() {
    writeKeys();

    assertThat(Entry.drain(store().scan(b("pp"), KeyRange.ALL, false))).isEmpty();
    assertThat(Entry.drain(store().scan(b(""), KeyRange.ALL, true))).isEmpty();
  }

  @Test
  default void nextAfterTheLastEntryKeepsReturningFalse() {
    write(put("p", "only", 1, "v"));

    try (Cursor cursor = store().scan(b("p"), KeyRange.ALL, false)) {
      assertThat(cursor.next()).isTrue();
      assertThat(cursor.next()).isFalse();
      assertThat(cursor.next()).isFalse();
    }
  }

  @Test
  default void cursorReturnsArraysTheCallerOwns() {
    write(put("p", "k", 1, "value"));

    try (Cursor cursor = store().scan(b("p"), KeyRange.ALL, false)) {
      assertThat(cursor.next()).isTrue();
      cursor.key()[0] = 'x';
      cursor.value()[0] = 'x';
      cursor.partition()[0] = 'x';

      assertThat(cursor.key()).isEqualTo(b("k"));
      assertThat(cursor.value()).isEqualTo(b("value"));
      assertThat(cursor.partition()).isEqualTo(b("p"));
    }
  }

  @Test
  default void scanShowsDeletesAndOverwrites() {
    writeKeys();
    write(TestBytes.delete("p", "b"), put("p", "c", 2, "new"));

    List<Entry> entries =
        Entry.drain(store().scan(b("p"), new KeyRange(b("b"), true, b("c"), true), false));

    assertThat(entries)
        .containsExactly(
            new Entry("p", "b\0", 1, "vb\0"),
            new Entry("p", "b\u00ff", 1, "vb\u00ff"),
            new Entry("p", "c", 2, "new"));
  }

  /**
   * Keys and values of very different sizes, a short one right after a long one, in both directions
   * and across partitions: a cursor that reuses buffers from entry to entry must still return each
   * entry exactly, never a tail left over from a longer one.
   */
  @Test
  default void entriesOfEverySizeScanExactly() {
    int[] keySizes = {1, 700, 2, 63, 64, 65, 300, 3, 1024};
    int[] valueSizes = {100_000, 0, 257, 1, 255, 256, 5_000, 3, 70_000};
    java.util.Random random = new java.util.Random(11);
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    List<io.viewbase.storage.spi.Mutation> batch = new ArrayList<>();
    for (int i = 0; i < keySizes.length; i++) {
      byte[] key = new byte[keySizes[i]];
      random.nextBytes(key);
      key[0] = (byte) (0x10 * i); // distinct first bytes: the keys' order is their index order
      byte[] value = new byte[valueSizes[i]];
      random.nextBytes(value);
      keys.add(key);
      values.add(value);
      batch.add(io.viewbase.storage.spi.Mutation.put(b("p"), key, 100 + i, value));
      batch.add(
          io.viewbase.storage.spi.Mutation.put(
              b("p" + "\u00ff".repeat(i + 1)), key, 200 + i, value));
    }
    write(batch.toArray(io.viewbase.storage.spi.Mutation[]::new));

    for (boolean reverse : new boolean[] {false, true}) {
      try (Cursor cursor = store().scan(b("p"), KeyRange.ALL, reverse)) {
        for (int n = 0; n < keys.size(); n++) {
          int i = reverse ? keys.size() - 1 - n : n;
          assertThat(cursor.next()).isTrue();
          assertThat(cursor.key()).as("key %d", i).isEqualTo(keys.get(i));
          assertThat(cursor.partition()).isEqualTo(b("p"));
          assertThat(cursor.version()).isEqualTo(100 + i);
          assertThat(cursor.value()).as("value %d", i).isEqualTo(values.get(i));
        }
        assertThat(cursor.next()).isFalse();
      }
    }
    int seen = 0;
    try (Cursor cursor = store().scanAll(b("p\u00ff"), null, null)) {
      while (cursor.next()) {
        int i = (int) (cursor.version() - 200);
        assertThat(cursor.partition()).isEqualTo(b("p" + "\u00ff".repeat(i + 1)));
        assertThat(cursor.key()).as("key %d", i).isEqualTo(keys.get(i));
        assertThat(cursor.value()).as("value %d", i).isEqualTo(values.get(i));
        seen++;
      }
    }
    assertThat(seen).isEqualTo(keys.size());
  }
}
