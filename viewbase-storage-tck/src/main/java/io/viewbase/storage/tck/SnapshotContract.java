package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static io.viewbase.storage.tck.TestBytes.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Point-in-time reads: snapshots, and cursors, which see one state of the data from start to end.
 */
public interface SnapshotContract extends StoreFixture {

  @Test
  default void snapshotDoesNotSeeWritesMadeAfterIt() {
    assumeTrue(store().capabilities().snapshots(), "backend declares no snapshots");
    write(put("p", "a", 1, "a1"), put("p", "b", 1, "b1"), put("q", "x", 1, "x1"));

    try (Snapshot snapshot = store().snapshot()) {
      write(
          put("p", "a", 2, "a2"), delete("p", "b"), put("p", "c", 1, "c1"), put("r", "y", 1, "y1"));

      assertThat(snapshot.get(b("p"), b("a")).orElseThrow().version()).isEqualTo(1);
      assertThat(snapshot.get(b("p"), b("b"))).isPresent();
      assertThat(snapshot.get(b("p"), b("c"))).isEmpty();
      assertThat(Entry.drain(snapshot.scan(b("p"), KeyRange.ALL, false)))
          .containsExactly(new Entry("p", "a", 1, "a1"), new Entry("p", "b", 1, "b1"));
      assertThat(Entry.drain(snapshot.scan(b("p"), KeyRange.ALL, true)))
          .extracting(Entry::key)
          .containsExactly("b", "a");
      assertThat(Entry.drain(snapshot.scanAll(b(""), null, null)))
          .extracting(Entry::key)
          .containsExactlyInAnyOrder("a", "b", "x");
      assertThat(partitions(snapshot.partitions(b(""), null))).containsExactlyInAnyOrder("p", "q");
    }
    assertThat(store().get(b("p"), b("a")).orElseThrow().version()).isEqualTo(2);
  }

  @Test
  default void cursorOpenedOnASnapshotBeforeWritesSeesTheSnapshot() {
    assumeTrue(store().capabilities().snapshots(), "backend declares no snapshots");
    write(put("p", "a", 1, "a1"));

    try (Snapshot snapshot = store().snapshot();
        Cursor cursor = snapshot.scan(b("p"), KeyRange.ALL, false)) {
      write(put("p", "a", 2, "a2"), put("p", "b", 1, "b1"));

      assertThat(cursor.next()).isTrue();
      assertThat(cursor.version()).isEqualTo(1);
      assertThat(cursor.next()).isFalse();
    }
  }

  @Test
  default void snapshotsTakenAtDifferentTimesSeeTheirOwnState() {
    assumeTrue(store().capabilities().snapshots(), "backend declares no snapshots");
    write(put("p", "k", 1, "one"));
    try (Snapshot first = store().snapshot()) {
      write(put("p", "k", 2, "two"));
      try (Snapshot second = store().snapshot()) {
        write(delete("p", "k"));

        assertThat(first.get(b("p"), b("k")).orElseThrow().version()).isEqualTo(1);
        assertThat(second.get(b("p"), b("k")).orElseThrow().version()).isEqualTo(2);
        assertThat(store().get(b("p"), b("k"))).isEmpty();
      }
    }
  }

  @Test
  default void scanOpenedBeforeABatchNeverShowsHalfOfIt() {
    List<Mutation> before = new ArrayList<>();
    List<Mutation> after = new ArrayList<>();
    for (char c = 'a'; c <= 'z'; c++) {
      before.add(put("p", String.valueOf(c), 1, "old"));
      after.add(put("p", String.valueOf(c), 2, "new"));
    }
    write(before.toArray(Mutation[]::new));

    Set<Long> versions = new HashSet<>();
    try (Cursor cursor = store().scan(b("p"), KeyRange.ALL, false)) {
      assertThat(cursor.next()).isTrue();
      versions.add(cursor.version());
      write(after.toArray(Mutation[]::new));
      while (cursor.next()) {
        versions.add(cursor.version());
      }
    }

    assertThat(versions).hasSize(1);
  }

  @Test
  default void scanAllOpenedBeforeABatchAcrossPartitionsNeverShowsHalfOfIt() {
    List<Mutation> before = new ArrayList<>();
    List<Mutation> after = new ArrayList<>();
    for (char c = 'a'; c <= 'z'; c++) {
      before.add(put(String.valueOf(c), "k", 1, "old"));
      after.add(put(String.valueOf(c), "k", 2, "new"));
    }
    write(before.toArray(Mutation[]::new));

    Set<Long> versions = new HashSet<>();
    int count = 0;
    try (Cursor cursor = store().scanAll(b(""), null, null)) {
      assertThat(cursor.next()).isTrue();
      versions.add(cursor.version());
      count++;
      write(after.toArray(Mutation[]::new));
      write(put("zz", "k", 1, "later"));
      while (cursor.next()) {
        versions.add(cursor.version());
        count++;
      }
    }

    assertThat(versions).hasSize(1);
    assertThat(count).isEqualTo(26);
  }

  private static List<String> partitions(PartitionCursor cursor) {
    try (cursor) {
      List<String> out = new ArrayList<>();
      while (cursor.next()) {
        out.add(s(cursor.partition()));
      }
      return out;
    }
  }
}
