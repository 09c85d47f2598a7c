package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.s;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import java.util.ArrayList;
import java.util.List;

/** One stored entry as text (see {@link TestBytes}), so tests can compare cursors with lists. */
public record Entry(String partition, String key, long version, String value) {

  /** Reads every remaining entry of the cursor, then closes it. */
  public static List<Entry> drain(Cursor cursor) {
    try (cursor) {
      List<Entry> out = new ArrayList<>();
      while (cursor.next()) {
        out.add(
            new Entry(s(cursor.partition()), s(cursor.key()), cursor.version(), s(cursor.value())));
      }
      return out;
    }
  }

  /** The keys of the entries, in order. */
  public static List<String> keys(List<Entry> entries) {
    return entries.stream().map(Entry::key).toList();
  }

  @Override
  public String toString() {
    return Bytes.toDisplay(TestBytes.b(partition))
        + "/"
        + Bytes.toDisplay(TestBytes.b(key))
        + "@"
        + version
        + "="
        + Bytes.toDisplay(TestBytes.b(value));
  }
}
