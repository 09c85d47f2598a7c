package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random writes and queries against the RocksDB-backed engine, mirrored into a plain in-memory
 * model; every outcome (success, error code, stored item, query page) must match the model. The
 * database is closed and reopened now and then. On failure the message names the seed and step;
 * rerun with {@code -Dviewbase.seed=N}.
 */
class EngineModelTest {
  private static final List<String> PARTITIONS = List.of("a", "ab", "b", "ü", "a\u00a0");
  private static final int STEPS = 4000;

  @TempDir Path dir;

  record Stored(Map<String, Value> properties, String etag) {}

  private final Map<String, TreeMap<String, Stored>> model =
      new TreeMap<>(EngineModelTest::utf8Compare);
  private final Map<String, List<String>> oldEtags = new HashMap<>();

  @Test
  void randomOperationsMatchTheModel() {
    long seed = Long.getLong("viewbase.seed", System.nanoTime());
    Random random = new Random(seed);
    Database db = Viewbase.open(OpenOptions.at(dir).withSync(false));
    db.createTable("Things");
    Table table = db.table("Things");
    int step = 0;
    try {
      for (step = 0; step < STEPS; step++) {
        if (random.nextInt(500) == 0) {
          db.close();
          db = Viewbase.open(OpenOptions.at(dir).withSync(false));
          table = db.table("things");
        }
        step(table, random);
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "seed=" + seed + " step=" + step + " op=" + currentOp + ": " + e.getMessage(), e);
    } finally {
      db.close();
    }
    System.out.println("EngineModelTest passed with seed " + seed);
  }

  private String currentOp = "";

  private void step(Table table, Random random) {
    String pk = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
    String id = "k" + random.nextInt(40);
    Stored current = model.getOrDefault(pk, new TreeMap<>()).get(id);
    String ifMatch = randomEtag(random, pk, id, current);
    Map<String, Value> props = randomProperties(random);
    Item item = Item.of(pk, id, props);
    int kind = random.nextInt(10);
    String op =
        List.of(
                    "insert",
                    "replace",
                    "upsert",
                    "merge",
                    "upsertMerge",
                    "delete",
                    "get",
                    "query",
                    "query",
                    "scan")
                .get(kind)
            + " "
            + pk
            + "/"
            + id
            + " ifMatch="
            + ifMatch;
    currentOp = op;
    switch (kind) {
      case 0 ->
          expect(
              () -> table.insert(item),
              current != null ? ErrorCode.ItemAlreadyExists : null,
              r -> put(pk, id, props, r.etag()));
      case 1 ->
          expect(
              () -> table.replace(item, ifMatch),
              conditionError(current, ifMatch),
              r -> put(pk, id, props, r.etag()));
      case 2 -> expect(() -> table.upsert(item), null, r -> put(pk, id, props, r.etag()));
      case 3, 4 -> {
        boolean upsert = kind == 4;
        ErrorCode error = upsert ? null : conditionError(current, ifMatch);
        expect(
            () -> upsert ? table.upsertMerge(item) : table.merge(item, ifMatch),
            error,
            r -> {
              Map<String, Value> merged =
                  new LinkedHashMap<>(current == null ? Map.of() : current.properties());
              merged.putAll(props);
              put(pk, id, merged, r.etag());
              assertThat(r.properties()).isEqualTo(merged);
            });
      }
      case 5 ->
          expect(
              () -> {
                table.delete(pk, id, ifMatch);
                return null;
              },
              conditionError(current, ifMatch),
              r -> remove(pk, id));
      case 6 -> {
        Item got = table.get(pk, id).orElse(null);
        if (current == null) {
          assertThat(got).isNull();
        } else {
          assertThat(got).isNotNull();
          assertThat(got.properties()).isEqualTo(current.properties());
          assertThat(got.etag()).isEqualTo(current.etag());
        }
      }
      case 7, 8 -> checkPartitionQuery(table, random, pk);
      default -> checkScan(table, random);
    }
  }

  private void checkPartitionQuery(Table table, Random random, String pk) {
    String from = random.nextBoolean() ? null : "k" + random.nextInt(40);
    String to = random.nextBoolean() ? null : "k" + random.nextInt(40);
    String prefix = random.nextInt(3) == 0 ? "k" + random.nextInt(5) : null;
    boolean desc = random.nextBoolean();
    int limit = 1 + random.nextInt(7);
    List<String> expected = new ArrayList<>();
    for (String id : model.getOrDefault(pk, new TreeMap<>()).keySet()) {
      if ((from == null || utf8Compare(id, from) >= 0)
          && (to == null || utf8Compare(id, to) < 0)
          && (prefix == null || id.startsWith(prefix))) {
        expected.add(id);
      }
    }
    if (desc) {
      java.util.Collections.reverse(expected);
    }
    List<String> actual = new ArrayList<>();
    Query q =
        Query.partition(pk)
            .withRange(from, to)
            .withPrefix(prefix)
            .descending(desc)
            .withLimit(limit);
    for (int pages = 0; pages < 100; pages++) {
      Page page = table.query(q);
      assertThat(page.items().size()).isLessThanOrEqualTo(limit);
      for (Item i : page.items()) {
        actual.add(i.id());
        assertThat(i.properties()).isEqualTo(model.get(pk).get(i.id()).properties());
      }
      if (!page.hasMore()) {
        break;
      }
      q = q.withContinuation(page.continuation());
    }
    assertThat(actual)
        .as("partition %s from %s to %s prefix %s desc %s", pk, from, to, prefix, desc)
        .containsExactlyElementsOf(expected);
  }

  private void checkScan(Table table, Random random) {
    List<String> expected = new ArrayList<>();
    model.forEach((pk, items) -> items.keySet().forEach(id -> expected.add(pk + "|" + id)));
    List<String> actual = new ArrayList<>();
    try (var cursor = table.cursor(Query.all().withLimit(1 + random.nextInt(30)))) {
      cursor.forEachRemaining(i -> actual.add(i.partitionKey() + "|" + i.id()));
    }
    assertThat(actual).containsExactlyElementsOf(expected);
  }

  private <T> void expect(
      Supplier<T> call, ErrorCode expectedError, java.util.function.Consumer<T> onSuccess) {
    T result;
    try {
      result = call.get();
    } catch (ViewbaseException e) {
      if (expectedError == null) {
        fail("expected success but got " + e);
      }
      assertThat(e.code()).isEqualTo(expectedError);
      return;
    }
    if (expectedError != null) {
      fail("expected " + expectedError + " but the operation succeeded");
    }
    onSuccess.accept(result);
  }

  private static ErrorCode conditionError(Stored current, String ifMatch) {
    if (current == null) {
      return ErrorCode.ItemNotFound;
    }
    if (ifMatch == null || ifMatch.equals("*") || ifMatch.equals(current.etag())) {
      return null;
    }
    return ErrorCode.PreconditionFailed;
  }

  private String randomEtag(Random random, String pk, String id, Stored current) {
    int r = random.nextInt(5);
    List<String> old = oldEtags.getOrDefault(pk + "|" + id, List.of());
    if (r == 0) {
      return null;
    } else if (r == 1) {
      return "*";
    } else if (r == 2 && !old.isEmpty()) {
      return old.get(random.nextInt(old.size()));
    } else if (r == 3 && current != null) {
      return current.etag();
    }
    return random.nextBoolean() ? null : "W/\"datetime'2001-01-01T00%3A00%3A00.0000000Z'\"";
  }

  private static Map<String, Value> randomProperties(Random random) {
    Map<String, Value> p = new LinkedHashMap<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      String name = "p" + random.nextInt(6);
      p.put(
          name,
          switch (random.nextInt(4)) {
            case 0 -> Value.of(random.nextInt());
            case 1 -> Value.of("s" + random.nextInt(100));
            case 2 -> Value.of(random.nextLong());
            default -> Value.of(random.nextDouble());
          });
    }
    return p;
  }

  private void put(String pk, String id, Map<String, Value> props, String etag) {
    Stored previous =
        model
            .computeIfAbsent(pk, k -> new TreeMap<>(EngineModelTest::utf8Compare))
            .put(id, new Stored(Map.copyOf(props), etag));
    if (previous != null) {
      oldEtags.computeIfAbsent(pk + "|" + id, k -> new ArrayList<>()).add(previous.etag());
    }
  }

  private void remove(String pk, String id) {
    Stored previous = model.get(pk).remove(id);
    oldEtags.computeIfAbsent(pk + "|" + id, k -> new ArrayList<>()).add(previous.etag());
    if (model.get(pk).isEmpty()) {
      model.remove(pk);
    }
  }

  private static int utf8Compare(String a, String b) {
    return java.util.Arrays.compareUnsigned(
        a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  static final Comparator<String> UTF8 = EngineModelTest::utf8Compare;
}
