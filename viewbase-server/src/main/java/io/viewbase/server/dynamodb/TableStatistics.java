package io.viewbase.server.dynamodb;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.KeyText;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ItemCount and TableSizeBytes of a table or index, as DescribeTable reports them: counted by
 * reading the table (or the index's view), at most {@value #MAX_ITEMS} items, and kept for {@link
 * #FRESH} per table. DynamoDB itself updates these figures about every six hours; these are exact
 * for a small table and a second old at most, and for a table of more items they report the first
 * {@value #MAX_ITEMS} (a count that stops there, and their size). Sizes are DynamoDB's rule of
 * thumb over the stored properties: each name's and string's UTF-8 bytes, a number's digits halved,
 * a binary's bytes, one byte for a boolean or null, three more for each map or list.
 */
final class TableStatistics {
  static final int MAX_ITEMS = 100_000;
  static final Duration FRESH = Duration.ofSeconds(1);

  /** What a count found. */
  record Figures(long itemCount, long sizeBytes) {
    static final Figures NONE = new Figures(0, 0);
  }

  private record Counted(Figures figures, long at) {}

  private final Database db;
  private final Map<String, Counted> counted = new ConcurrentHashMap<>();

  TableStatistics(Database db) {
    this.db = db;
  }

  /** The figures of a Viewbase table or view; none for one that cannot be read now. */
  Figures of(String viewbaseName) {
    Counted c = counted.get(viewbaseName.toLowerCase(Locale.ROOT));
    if (c != null && System.nanoTime() - c.at() < FRESH.toNanos()) {
      return c.figures();
    }
    Figures f = count(viewbaseName);
    counted.put(viewbaseName.toLowerCase(Locale.ROOT), new Counted(f, System.nanoTime()));
    return f;
  }

  private Figures count(String viewbaseName) {
    long items = 0;
    long bytes = 0;
    try (ItemCursor cursor = db.table(viewbaseName).cursor(Query.all())) {
      while (items < MAX_ITEMS && cursor.hasNext()) {
        bytes += size(cursor.next());
        items++;
      }
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound || e.code() == ErrorCode.ViewNotReady) {
        return Figures.NONE;
      }
      throw e;
    }
    return new Figures(items, bytes);
  }

  static long size(Item item) {
    long bytes = 0;
    for (Map.Entry<String, Value> p : item.properties().entrySet()) {
      bytes += utf8(AttributeNames.attribute(p.getKey())) + size(p.getValue());
    }
    return bytes;
  }

  private static long size(Value v) {
    return switch (v.type()) {
      case STRING -> utf8(((Value.Str) v).value());
      case BINARY -> ((Value.Binary) v).value().length;
      case BOOLEAN, NULL -> 1;
      case OBJECT -> {
        long n = 3;
        for (Map.Entry<String, Value> e : ((Value.Obj) v).properties().entrySet()) {
          n += utf8(e.getKey()) + size(e.getValue()) + 1;
        }
        yield n;
      }
      case ARRAY -> {
        long n = 3;
        List<Value> elements = ((Value.Arr) v).elements();
        for (Value e : elements) {
          n += size(e) + 1;
        }
        yield n;
      }
      default -> {
        String text = KeyText.of(v, 0);
        yield 1 + (text == null ? 8 : (text.length() + 1) / 2);
      }
    };
  }

  private static long utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
