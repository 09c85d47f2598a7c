package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.filter.Filters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filtered scans, which test the filter on only the properties it names, against the brute-force
 * answer on whole items: the filtered names sit after nested objects and arrays, are missing, null
 * or of another type on some items, and share names with system properties; pages are of random
 * size and some queries select properties. Prints the seed; rerun with {@code -Dviewbase.seed=N}.
 */
class FilteredScanDifferentialTest {
  /** Stored names; the Azure system names are user properties here, never read by a filter. */
  private static final List<String> NAMES =
      List.of("n", "s", "b", "d", "é€", "PartitionKey", "RowKey", "Timestamp");

  /** Names a filter reads: the stored ones, the native system names, and one no item has. */
  private static final List<String> FILTER_NAMES =
      List.of(
          "n",
          "s",
          "b",
          "d",
          "é€",
          "PartitionKey",
          "RowKey",
          "Timestamp",
          "partitionKey",
          "id",
          "_timestamp",
          "absent");

  @TempDir Path dir;

  @Test
  void filteredScanReturnsWhatTheFilterMatchesOnWholeItems() {
    long seed = Long.getLong("viewbase.seed", System.nanoTime());
    Random random = new Random(seed);
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      db.createTable("Things");
      Table things = db.table("Things");
      List<Item> stored = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        Item.Builder b = Item.builder("p" + random.nextInt(5), "i" + random.nextInt(40) + "-" + i);
        if (random.nextBoolean()) {
          b.put(
              "blob",
              new Value.Obj(
                  Map.of(
                      "n",
                      new Value.Int32(3),
                      "list",
                      new Value.Arr(
                          List.of(
                              new Value.Str("x"),
                              new Value.Binary(new byte[] {1, 2}),
                              Value.Null.INSTANCE)))));
        }
        for (String name : NAMES) {
          if (random.nextInt(4) > 0) {
            b.put(name, randomValue(random));
          }
        }
        stored.add(things.insert(b.build()));
      }
      stored.sort(
          (a, c) -> {
            int k = KeySpace.compare(a.partitionKey(), c.partitionKey());
            return k != 0 ? k : KeySpace.compare(a.id(), c.id());
          });
      for (int round = 0; round < 200; round++) {
        String filter = randomFilter(random, 2);
        List<String> select = random.nextInt(3) == 0 ? List.of("s", "n") : List.of();
        Query query =
            Query.all().withFilter(filter).withSelect(select).withLimit(1 + random.nextInt(50));
        List<Item> expected = new ArrayList<>();
        for (Item item : stored) {
          if (Filters.matches(
              Filters.parse(filter),
              item.partitionKey(),
              item.id(),
              item.timestamp(),
              item.properties())) {
            expected.add(select.isEmpty() ? item : item.withProperties(selected(item, select)));
          }
        }
        List<Item> actual = new ArrayList<>();
        Query q = query;
        for (int pages = 0; pages < 1000; pages++) {
          Page page = things.query(q);
          actual.addAll(page.items());
          if (!page.hasMore()) {
            break;
          }
          q = q.withContinuation(page.continuation());
        }
        assertThat(actual)
            .as("seed %d filter %s", seed, filter)
            .containsExactlyElementsOf(expected);
      }
    }
    System.out.println("FilteredScanDifferentialTest passed with seed " + seed);
  }

  private static Map<String, Value> selected(Item item, List<String> select) {
    Map<String, Value> kept = new LinkedHashMap<>();
    for (String name : select) {
      Value v = item.properties().get(name);
      if (v != null) {
        kept.put(name, v);
      }
    }
    return kept;
  }

  private static Value randomValue(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> new Value.Int32(random.nextInt(10));
      case 1 -> new Value.Str("v" + random.nextInt(10));
      case 2 -> new Value.Bool(random.nextBoolean());
      case 3 -> new Value.Double(random.nextInt(10) + 0.5);
      case 4 -> new Value.Int64(random.nextInt(10));
      default -> Value.Null.INSTANCE;
    };
  }

  private static String randomFilter(Random random, int depth) {
    int choice = random.nextInt(depth <= 0 ? 5 : 8);
    String name = FILTER_NAMES.get(random.nextInt(FILTER_NAMES.size()));
    return switch (choice) {
      case 0 -> (name.equals("é€") ? "n" : name) + " " + op(random) + " " + random.nextInt(10);
      case 1 ->
          (name.equals("é€") ? "s" : name) + " " + op(random) + " 'v" + random.nextInt(10) + "'";
      case 2 -> random.nextBoolean() ? "b" : "b eq " + random.nextBoolean();
      case 3 -> "d " + op(random) + " " + random.nextInt(10) + ".5";
      case 4 -> "RowKey " + op(random) + " 'i" + random.nextInt(40) + "'";
      case 5 ->
          "(" + randomFilter(random, depth - 1) + ") and (" + randomFilter(random, depth - 1) + ")";
      case 6 ->
          "(" + randomFilter(random, depth - 1) + ") or (" + randomFilter(random, depth - 1) + ")";
      default -> "not (" + randomFilter(random, depth - 1) + ")";
    };
  }

  private static String op(Random random) {
    return List.of("eq", "ne", "gt", "ge", "lt", "le").get(random.nextInt(6));
  }
}
