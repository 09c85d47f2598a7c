package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.check;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.ReadView;
import io.viewbase.storage.spi.Snapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random batches of puts, deletes and checks with random conditions, mirrored into a {@link
 * TreeMap} model (H2's TestRandomMapOps, for a store). After every few batches the whole store and
 * random range scans must equal the model. The seed is printed and named in every failure; rerun
 * one with {@code -Dviewbase.tck.seed=<seed>}.
 */
public interface RandomizedModelContract extends StoreFixture {
  List<String> MODEL_PARTITIONS = List.of("", "\0", "a", "a\0", "ab", "b", "\u00ff");
  List<String> MODEL_KEYS = List.of("", "\0", "k", "k\0", "k\u00ff", "l", "\u00ff", "\u00ff\u00ff");
  int BATCHES = 400;

  @Test
  default void randomBatchesMatchATreeMapModel() {
    long seed = Long.getLong("viewbase.tck.seed", new Random().nextLong());
    System.out.println(
        getClass().getSimpleName() + ".randomBatchesMatchATreeMapModel seed=" + seed);
    Random random = new Random(seed);
    // String order on ISO-8859-1 text is unsigned byte order, so the model orders like the store.
    TreeMap<String, TreeMap<String, Entry>> model = new TreeMap<>();
    Snapshot snapshot = null;
    List<Entry> atSnapshot = null;
    long nextVersion = 1;
    try {
      for (int op = 0; op < BATCHES; op++) {
        String where = "seed=" + seed + " op=" + op;
        List<Mutation> batch = randomBatch(random, model, nextVersion);
        nextVersion += batch.size();
        Integer failing = firstFailing(batch, model);
        try {
          store().commit(batch);
          assertThat(failing)
              .as("%s: expected mutation %s of %s to fail", where, failing, batch)
              .isNull();
          apply(batch, model);
        } catch (ConditionFailedException e) {
          assertThat(e.index()).as("%s: failing index of %s", where, batch).isEqualTo(failing);
        }
        if (op % 25 == 24) {
          assertMatches(store(), model, random, where);
        }
        if (op == BATCHES / 2 && store().capabilities().snapshots()) {
          snapshot = store().snapshot();
          atSnapshot = all(model);
        }
      }
      assertMatches(store(), model, random, "seed=" + seed + " at the end");
      if (snapshot != null) {
        assertThat(Entry.drain(snapshot.scanAll(b(""), null, null)))
            .as("seed=%s snapshot", seed)
            .containsExactlyElementsOf(atSnapshot);
      }
    } finally {
      if (snapshot != null) {
        snapshot.close();
      }
    }
  }

  private List<Mutation> randomBatch(
      Random random, Map<String, TreeMap<String, Entry>> model, long version) {
    int size = 1 + random.nextInt(4);
    Set<String> used = new HashSet<>();
    List<Mutation> batch = new ArrayList<>();
    while (batch.size() < size) {
      String partition = MODEL_PARTITIONS.get(random.nextInt(MODEL_PARTITIONS.size()));
      String key = MODEL_KEYS.get(random.nextInt(MODEL_KEYS.size()));
      if (!used.add(partition + "\u0100" + key)) {
        continue;
      }
      Entry current = model.getOrDefault(partition, new TreeMap<>()).get(key);
      Condition condition =
          switch (random.nextInt(6)) {
            case 0, 1 -> Condition.NONE;
            case 2 -> Condition.ABSENT;
            case 3 -> Condition.EXISTS;
            default ->
                Condition.version(
                    current != null && random.nextInt(4) > 0 ? current.version() : version - 1);
          };
      long v = version + batch.size();
      batch.add(
          switch (random.nextInt(10)) {
            case 0, 1, 2 -> delete(partition, key, condition);
            case 3 -> check(partition, key, condition);
            default -> put(partition, key, v, "v" + v, condition);
          });
    }
    return batch;
  }

  private static Integer firstFailing(
      List<Mutation> batch, Map<String, TreeMap<String, Entry>> model) {
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      Entry current =
          model.getOrDefault(TestBytes.s(m.partition()), new TreeMap<>()).get(TestBytes.s(m.key()));
      if (!m.condition().isMetBy(current == null ? null : current.version())) {
        return i;
      }
    }
    return null;
  }

  private static void apply(List<Mutation> batch, Map<String, TreeMap<String, Entry>> model) {
    for (Mutation m : batch) {
      String partition = TestBytes.s(m.partition());
      String key = TestBytes.s(m.key());
      if (m instanceof Mutation.Put put) {
        model
            .computeIfAbsent(partition, p -> new TreeMap<>())
            .put(key, new Entry(partition, key, put.version(), TestBytes.s(put.value())));
      } else if (m instanceof Mutation.Delete) {
        TreeMap<String, Entry> entries = model.get(partition);
        if (entries != null) {
          entries.remove(key);
          if (entries.isEmpty()) {
            model.remove(partition);
          }
        }
      }
    }
  }

  private static List<Entry> all(TreeMap<String, TreeMap<String, Entry>> model) {
    List<Entry> out = new ArrayList<>();
    model.values().forEach(entries -> out.addAll(entries.values()));
    return out;
  }

  private void assertMatches(
      ReadView view, TreeMap<String, TreeMap<String, Entry>> model, Random random, String where) {
    List<Entry> expected = all(model);
    List<Entry> actual = Entry.drain(view.scanAll(b(""), null, null));
    if (store().capabilities().orderedPartitions()) {
      assertThat(actual).as("%s: full scan", where).containsExactlyElementsOf(expected);
    } else {
      assertThat(actual).as("%s: full scan", where).containsExactlyInAnyOrderElementsOf(expected);
    }
    for (int i = 0; i < 5; i++) {
      String partition = MODEL_PARTITIONS.get(random.nextInt(MODEL_PARTITIONS.size()));
      String lower =
          random.nextInt(4) == 0 ? null : MODEL_KEYS.get(random.nextInt(MODEL_KEYS.size()));
      String upper =
          random.nextInt(4) == 0 ? null : MODEL_KEYS.get(random.nextInt(MODEL_KEYS.size()));
      KeyRange range =
          new KeyRange(
              lower == null ? null : b(lower),
              random.nextBoolean(),
              upper == null ? null : b(upper),
              random.nextBoolean());
      boolean reverse = random.nextBoolean();
      List<Entry> inRange =
          new ArrayList<>(
              model.getOrDefault(partition, new TreeMap<>()).values().stream()
                  .filter(e -> range.contains(b(e.key())))
                  .toList());
      if (reverse) {
        Collections.reverse(inRange);
      }
      assertThat(Entry.drain(view.scan(b(partition), range, reverse)))
          .as("%s: scan of %s %s reverse=%s", where, Bytes.toDisplay(b(partition)), range, reverse)
          .containsExactlyElementsOf(inRange);
    }
  }
}
