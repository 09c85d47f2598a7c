package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static io.viewbase.storage.tck.TestBytes.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Partitions: isolation between partitions whose keys are prefixes of each other or contain 0x00
 * and 0xFF, walks over every partition under a prefix, and resuming such walks.
 */
public interface PartitionContract extends StoreFixture {
  /** Partitions in unsigned byte order; several are prefixes of others. */
  List<String> PARTITIONS =
      List.of(
          "",
          "\0",
          "a",
          "a\0",
          "a\0\0",
          "a\0b",
          "ab",
          "ab\0",
          "a\u00ff",
          "b",
          "\u00ff",
          "\u00ff\u00ff");

  /** Keys in every partition; ("a", "\0b") and ("a\0", "b") must not be confused. */
  List<String> PARTITION_KEYS = List.of("", "\0", "\0b", "b", "\u00ff");

  private void writeAll() {
    List<Mutation> batch = new ArrayList<>();
    for (String partition : PARTITIONS) {
      for (String key : PARTITION_KEYS) {
        batch.add(put(partition, key, 1, partition + "|" + key));
      }
    }
    write(batch.toArray(Mutation[]::new));
  }

  /** Every entry whose partition starts with the prefix, in the order a scanAll must produce. */
  private static List<Entry> expected(String prefix) {
    List<Entry> out = new ArrayList<>();
    for (String partition : PARTITIONS) {
      if (partition.startsWith(prefix)) {
        for (String key : PARTITION_KEYS) {
          out.add(new Entry(partition, key, 1, partition + "|" + key));
        }
      }
    }
    return out;
  }

  private boolean ordered() {
    return store().capabilities().orderedPartitions();
  }

  private List<String> partitions(String prefix, String after) {
    List<String> out = new ArrayList<>();
    try (PartitionCursor cursor = store().partitions(b(prefix), after == null ? null : b(after))) {
      while (cursor.next()) {
        out.add(s(cursor.partition()));
      }
    }
    return out;
  }

  @Test
  default void scanOfAPartitionNeverShowsItsNeighbours() {
    writeAll();

    for (String partition : PARTITIONS) {
      List<Entry> entries = Entry.drain(store().scan(b(partition), KeyRange.ALL, false));
      assertThat(entries)
          .as("partition %s", partition)
          .extracting(Entry::value)
          .allMatch(v -> v.startsWith(partition + "|"));
      assertThat(Entry.keys(entries)).containsExactlyElementsOf(PARTITION_KEYS);
      List<String> reversed = new ArrayList<>(PARTITION_KEYS);
      Collections.reverse(reversed);
      assertThat(Entry.keys(Entry.drain(store().scan(b(partition), KeyRange.ALL, true))))
          .containsExactlyElementsOf(reversed);
    }
  }

  @Test
  default void getNeverCrossesPartitions() {
    write(put("a", "\0b", 1, "a-zero-b"));

    assertThat(store().get(b("a\0"), b("b"))).isEmpty();
    assertThat(store().get(b("a"), b("\0b"))).isPresent();
    assertThat(store().get(b("a"), b("\0"))).isEmpty();
  }

  @Test
  default void scanAllWithPrefixVisitsOnlyThosePartitionsKeysAscending() {
    writeAll();

    for (String prefix : List.of("", "a", "a\0", "ab", "\u00ff", "\0", "c")) {
      List<Entry> actual = Entry.drain(store().scanAll(b(prefix), null, null));
      if (ordered()) {
        assertThat(actual).as("prefix %s", prefix).containsExactlyElementsOf(expected(prefix));
      } else {
        assertThat(actual)
            .as("prefix %s", prefix)
            .containsExactlyInAnyOrderElementsOf(expected(prefix));
      }
    }
  }

  @Test
  default void scanAllResumedAfterAnyEntryReturnsExactlyTheRest() {
    writeAll();

    for (String prefix : List.of("", "a")) {
      List<Entry> all = Entry.drain(store().scanAll(b(prefix), null, null));
      for (int i = 0; i < all.size(); i++) {
        Entry last = all.get(i);
        List<Entry> rest =
            Entry.drain(store().scanAll(b(prefix), b(last.partition()), b(last.key())));
        assertThat(rest)
            .as("prefix %s after %s", prefix, last)
            .containsExactlyElementsOf(all.subList(i + 1, all.size()));
      }
    }
  }

  /**
   * Resuming with a partition but no key skips that whole partition, as {@code partitions()} does.
   */
  @Test
  default void scanAllResumedAfterAPartitionWithoutAKeySkipsThatPartition() {
    writeAll();
    if (!ordered()) {
      return;
    }

    List<Entry> rest = Entry.drain(store().scanAll(b("a"), b("a\0"), null));

    assertThat(rest)
        .extracting(Entry::partition)
        .doesNotContain("a", "a\0")
        .contains("a\0\0", "ab");
    assertThat(rest).first().isEqualTo(new Entry("a\0\0", "", 1, "a\0\0|"));
  }

  @Test
  default void scanAllResumedAfterAKeyThatIsGoneContinuesAtTheNextOne() {
    writeAll();
    write(delete("a", "b"));

    List<Entry> rest = Entry.drain(store().scanAll(b("a"), b("a"), b("b")));

    assertThat(rest).first().isEqualTo(new Entry("a", "\u00ff", 1, "a|\u00ff"));
  }

  @Test
  default void scanAllResumedAfterAnEntryBeforeThePrefixStartsAtThePrefix() {
    writeAll();
    if (!ordered()) {
      return;
    }

    assertThat(Entry.drain(store().scanAll(b("ab"), b("a"), b("b"))))
        .containsExactlyElementsOf(expected("ab"));
  }

  /** A position past the prefix's last partition (a stale token, a hostile one) ends the walk. */
  @Test
  default void walksResumedAfterAPositionPastThePrefixFindNothing() {
    writeAll();
    if (!ordered()) {
      return;
    }

    for (String after : List.of("b", "a\u00ff\u00ff", "\u00ff\u00ff\u00ff")) {
      assertThat(Entry.drain(store().scanAll(b("a"), b(after), b(""))))
          .as("after %s", after)
          .isEmpty();
      assertThat(Entry.drain(store().scanAll(b("a"), b(after), null)))
          .as("after %s", after)
          .isEmpty();
      assertThat(partitions("a", after)).as("after %s", after).isEmpty();
    }
    assertThat(Entry.drain(store().scanAll(b("\u00ff"), b("\u00ff"), b("\u00ff"))))
        .extracting(Entry::partition)
        .containsOnly("\u00ff\u00ff");
  }

  @Test
  default void partitionsListsEachPartitionUnderThePrefixOnce() {
    writeAll();

    for (String prefix : List.of("", "a", "a\0", "\u00ff", "c")) {
      List<String> expected = PARTITIONS.stream().filter(p -> p.startsWith(prefix)).toList();
      if (ordered()) {
        assertThat(partitions(prefix, null))
            .as("prefix %s", prefix)
            .containsExactlyElementsOf(expected);
      } else {
        assertThat(partitions(prefix, null))
            .as("prefix %s", prefix)
            .containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  @Test
  default void partitionsAfterAPartitionReturnsExactlyTheRest() {
    writeAll();

    List<String> all = partitions("a", null);
    for (int i = 0; i < all.size(); i++) {
      assertThat(partitions("a", all.get(i)))
          .as("after %s", all.get(i))
          .containsExactlyElementsOf(all.subList(i + 1, all.size()));
    }
  }

  @Test
  default void partitionsOmitsAPartitionWhoseKeysWereAllDeleted() {
    write(
        put("a", "k", 1, "v"),
        put("b", "k1", 1, "v"),
        put("b", "k2", 1, "v"),
        put("c", "k", 1, "v"));

    write(delete("b", "k1"), delete("b", "k2"));

    assertThat(partitions("", null)).containsExactlyInAnyOrder("a", "c");
    assertThat(Entry.drain(store().scanAll(b(""), null, null)))
        .extracting(Entry::partition)
        .containsExactlyInAnyOrder("a", "c");
  }
}
