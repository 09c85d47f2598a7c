package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random writes over a table with three views (templates with padding and lower-casing, a where
 * filter, projections), mirrored into a plain model with its own, independent idea of each view.
 * Each write must succeed or fail exactly as the model says (including 409 ViewKeyConflict when a
 * unique view key is taken), and every view must equal its recomputation from the model. Prints the
 * seed; rerun with {@code -Dviewbase.seed=N}.
 */
class ViewModelTest {
  @TempDir Path dir;

  /**
   * A view as the test understands it: source item -> view key ("pk|id"), or null; and its
   * projection.
   */
  record ModelView(
      String name,
      ViewDefinition definition,
      java.util.function.BiFunction<Key, Map<String, Value>, String> key,
      List<String> select) {}

  record Key(String pk, String id) {}

  private static String text(Value v) {
    if (v instanceof Value.Str s) {
      return s.value();
    }
    return v instanceof Value.Int32 i ? Integer.toString(i.value()) : null;
  }

  static final List<ModelView> VIEWS =
      List.of(
          new ModelView(
              "ByEmail",
              ViewDefinition.of("ByEmail", "People", "all", "{email}"),
              (k, p) ->
                  p.get("email") == null || text(p.get("email")) == null
                      ? null
                      : "all|" + text(p.get("email")),
              List.of()),
          new ModelView(
              "ActiveByAge",
              ViewDefinition.of("ActiveByAge", "People", "{group}", "{age:04}#{id}")
                  .withWhere("active eq true")
                  .withSelect(List.of("name", "age")),
              (k, p) ->
                  p.get("group") instanceof Value.Str g
                          && p.get("age") instanceof Value.Int32 a
                          && p.get("active") instanceof Value.Bool b
                          && b.value()
                      ? g.value() + "|" + String.format("%04d", a.value()) + "#" + k.id()
                      : null,
              List.of("name", "age")),
          new ModelView(
              "ByName",
              ViewDefinition.of("ByName", "People", "{partitionKey}", "{name|lower}"),
              (k, p) ->
                  p.get("name") instanceof Value.Str n
                      ? k.pk() + "|" + n.value().toLowerCase(Locale.ROOT)
                      : null,
              List.of()));

  private final Map<Key, Map<String, Value>> model = new HashMap<>();

  /**
   * How many random writes the sequential test makes; viewbase-cassandra-it lowers it for a slower
   * backend.
   */
  private static final int STEPS = Integer.getInteger("viewbase.test.viewModel.steps", 3000);

  /** How many writes each thread of the concurrent test makes. */
  private static final int WRITES_PER_THREAD =
      Integer.getInteger("viewbase.test.viewModel.writesPerThread", 400);

  private static final AtomicInteger OPENS = new AtomicInteger();

  /**
   * The database under test: RocksDB in {@code dir}, unless {@code -Dviewbase.test.storage} names
   * another backend, opened with {@code -Dviewbase.test.storage.options} ({@code k=v;k=v}, where
   * {@code {unique}} becomes a fresh name per open so that every test starts on empty storage).
   * viewbase-cassandra-it runs this class on Cassandra that way.
   */
  private OpenOptions openOptions() {
    OpenOptions options = OpenOptions.at(dir).withSync(false);
    String storage = System.getProperty("viewbase.test.storage");
    if (storage == null || storage.isBlank()) {
      return options;
    }
    String unique = "vm" + ProcessHandle.current().pid() + "x" + OPENS.incrementAndGet();
    Map<String, String> backend = new HashMap<>();
    for (String pair : System.getProperty("viewbase.test.storage.options", "").split(";")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        backend.put(
            pair.substring(0, eq).trim(),
            pair.substring(eq + 1).trim().replace("{unique}", unique));
      }
    }
    return options.withStorage(storage).withOptions(backend);
  }

  @Test
  void randomWritesKeepEveryViewEqualToItsRecomputation() {
    long seed = Long.getLong("viewbase.seed", System.nanoTime());
    Random random = new Random(seed);
    int step = 0;
    String op = "";
    try (Database db = Viewbase.open(openOptions())) {
      db.createTable("People");
      for (ModelView v : VIEWS) {
        db.createView(v.definition());
        ViewContract.awaitBuilt(db, v.name());
      }
      Table people = db.table("People");
      for (step = 0; step < STEPS; step++) {
        Key key = new Key("p" + random.nextInt(3), "i" + random.nextInt(25));
        Map<String, Value> props = randomProperties(random);
        int kind = random.nextInt(6);
        op =
            List.of("insert", "upsert", "replace", "merge", "upsertMerge", "delete").get(kind)
                + " "
                + key
                + " "
                + props;
        apply(people, kind, key, props);
        if (step % 50 == 0) {
          checkViews(db);
        }
      }
      checkViews(db);
      for (ModelView v : VIEWS) {
        assertThat(db.verifyView(v.name(), false).drift()).isZero();
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "seed=" + seed + " step=" + step + " op=" + op + ": " + e.getMessage(), e);
    }
    System.out.println("ViewModelTest passed with seed " + seed);
  }

  private void apply(Table people, int kind, Key key, Map<String, Value> props) {
    Map<String, Value> current = model.get(key);
    Map<String, Value> next;
    ErrorCode expected = null;
    switch (kind) {
      case 0 -> {
        next = props;
        expected = current != null ? ErrorCode.ItemAlreadyExists : null;
      }
      case 1 -> next = props;
      case 2 -> {
        next = props;
        expected = current == null ? ErrorCode.ItemNotFound : null;
      }
      case 3, 4 -> {
        expected = current == null && kind == 3 ? ErrorCode.ItemNotFound : null;
        next = new LinkedHashMap<>(current == null ? Map.of() : current);
        next.putAll(props);
      }
      default -> {
        next = null;
        expected = current == null ? ErrorCode.ItemNotFound : null;
      }
    }
    if (expected == null && violatesUniqueness(key, next)) {
      expected = ErrorCode.ViewKeyConflict;
    }
    Item item = Item.of(key.pk(), key.id(), props);
    try {
      switch (kind) {
        case 0 -> people.insert(item);
        case 1 -> people.upsert(item);
        case 2 -> people.replace(item, null);
        case 3 -> people.merge(item, null);
        case 4 -> people.upsertMerge(item);
        default -> people.delete(key.pk(), key.id(), null);
      }
    } catch (ViewbaseException e) {
      if (expected == null) {
        fail("expected success but got " + e);
      }
      assertThat(e.code()).isEqualTo(expected);
      return;
    }
    if (expected != null) {
      fail("expected " + expected + " but the write succeeded");
    }
    if (next == null) {
      model.remove(key);
    } else {
      model.put(key, next);
    }
  }

  private boolean violatesUniqueness(Key key, Map<String, Value> next) {
    if (next == null) {
      return false;
    }
    for (ModelView v : VIEWS) {
      String mine = viewKey(v, key, next);
      if (mine == null) {
        continue;
      }
      for (Map.Entry<Key, Map<String, Value>> other : model.entrySet()) {
        if (!other.getKey().equals(key)
            && mine.equals(viewKey(v, other.getKey(), other.getValue()))) {
          return true;
        }
      }
    }
    return false;
  }

  private static String viewKey(ModelView v, Key key, Map<String, Value> props) {
    return v.key().apply(key, props);
  }

  private void checkViews(Database db) {
    for (ModelView v : VIEWS) {
      Map<String, String> expected = new TreeMap<>();
      model.forEach(
          (key, props) -> {
            String k = viewKey(v, key, props);
            if (k != null) {
              Map<String, Value> projected = new LinkedHashMap<>();
              if (v.select().isEmpty()) {
                projected.putAll(props);
              } else {
                v.select()
                    .forEach(
                        name -> {
                          if (props.containsKey(name)) {
                            projected.put(name, props.get(name));
                          }
                        });
              }
              expected.put(k, key.pk() + "/" + key.id() + " " + new TreeMap<>(projected));
            }
          });
      Map<String, String> actual = new TreeMap<>();
      try (ItemCursor cursor = db.table(v.name()).cursor(Query.all().withLimit(97))) {
        cursor.forEachRemaining(
            i ->
                actual.put(
                    i.partitionKey() + "|" + i.id(),
                    i.sourcePartitionKey()
                        + "/"
                        + i.sourceId()
                        + " "
                        + new TreeMap<>(i.properties())));
      }
      assertThat(actual).as("view %s", v.name()).isEqualTo(expected);
    }
  }

  private static Map<String, Value> randomProperties(Random random) {
    Map<String, Value> p = new LinkedHashMap<>();
    if (random.nextInt(4) > 0) {
      p.put("email", Value.of("u" + random.nextInt(30) + "@x"));
    }
    if (random.nextInt(3) > 0) {
      p.put("name", Value.of((random.nextBoolean() ? "Ann" : "ann") + random.nextInt(12)));
    }
    if (random.nextInt(3) > 0) {
      p.put("group", Value.of("g" + random.nextInt(3)));
    }
    if (random.nextInt(3) > 0) {
      p.put("age", Value.of(random.nextInt(120)));
    }
    if (random.nextInt(3) > 0) {
      p.put("active", Value.of(random.nextBoolean()));
    }
    if (random.nextInt(4) == 0) {
      p.put("email", Value.of(7)); // not a string: renders as "7"
    }
    return p;
  }

  @Test
  void concurrentWritersRacingForKeysLeaveEveryViewExact() throws Exception {
    long seed = Long.getLong("viewbase.seed", System.nanoTime());
    try (Database db = Viewbase.open(openOptions())) {
      db.createTable("People");
      for (ModelView v : VIEWS) {
        db.createView(v.definition());
        ViewContract.awaitBuilt(db, v.name());
      }
      Table people = db.table("People");
      int threads = 6;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Random random = new Random(seed + t);
        results.add(
            pool.submit(
                () -> {
                  int conflicts = 0;
                  for (int i = 0; i < WRITES_PER_THREAD; i++) {
                    String pk = "p" + random.nextInt(2);
                    String id = "i" + random.nextInt(20);
                    try {
                      switch (random.nextInt(4)) {
                        case 0 -> people.upsert(Item.of(pk, id, randomProperties(random)));
                        case 1 -> people.upsertMerge(Item.of(pk, id, randomProperties(random)));
                        case 2 -> people.delete(pk, id, null);
                        default -> people.insert(Item.of(pk, id, randomProperties(random)));
                      }
                    } catch (ViewbaseException e) {
                      assertThat(e.code())
                          .isIn(
                              ErrorCode.ViewKeyConflict,
                              ErrorCode.ItemNotFound,
                              ErrorCode.ItemAlreadyExists);
                      conflicts++;
                    }
                  }
                  return conflicts;
                }));
      }
      for (Future<Integer> f : results) {
        f.get();
      }
      pool.shutdown();
      model.clear();
      try (ItemCursor cursor = people.cursor(Query.all())) {
        cursor.forEachRemaining(i -> model.put(new Key(i.partitionKey(), i.id()), i.properties()));
      }
      checkViews(db);
      for (ModelView v : VIEWS) {
        assertThat(db.verifyView(v.name(), false).drift())
            .as("seed %d view %s", seed, v.name())
            .isZero();
      }
    }
  }
}
