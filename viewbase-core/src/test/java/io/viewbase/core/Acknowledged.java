package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * What concurrent writers were told: each stored item returned (its version and properties) and
 * each delete acknowledged, per source item; and the checks that a history view holds exactly
 * those, in commit order, and a partitions view counts what a scan of the source finds.
 */
final class Acknowledged {
  private final ConcurrentMap<String, List<Item>> stored = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, AtomicInteger> deletes = new ConcurrentHashMap<>();

  private static String identity(String pk, String id) {
    return pk + "#" + id;
  }

  void stored(Item item) {
    stored
        .computeIfAbsent(
            identity(item.partitionKey(), item.id()),
            k -> Collections.synchronizedList(new ArrayList<>()))
        .add(item);
  }

  void storedAll(List<Item> items) {
    for (Item item : items) {
      if (item != null) {
        stored(item);
      }
    }
  }

  void deleted(String pk, String id) {
    deletes.computeIfAbsent(identity(pk, id), k -> new AtomicInteger()).incrementAndGet();
  }

  /**
   * The history view (partitioned by {@code {partitionKey}#{id}}) holds, per item, an entry for
   * every acknowledged write at its version with its properties, in version order, and a tombstone
   * for every acknowledged delete; the newest entry says whether the item exists.
   */
  void checkHistory(Database db, String view, String source) {
    Table history = db.table(view);
    Map<String, List<Item>> byItem = new TreeMap<>();
    for (Item e : ViewKindsContract.all(history, Query.all())) {
      byItem.computeIfAbsent(e.partitionKey(), k -> new ArrayList<>()).add(e);
    }
    for (String identity : union()) {
      List<Item> entries = byItem.getOrDefault(identity, List.of());
      assertThat(entries.stream().map(Item::id).toList()).as("ids of %s", identity).isSorted();
      List<Item> written = entries.stream().filter(e -> !ViewKindsContract.deleted(e)).toList();
      List<Item> acked = new ArrayList<>(stored.getOrDefault(identity, List.of()));
      acked.sort(Comparator.comparing(Item::timestamp));
      assertThat(written.stream().map(Item::timestamp).toList())
          .as("versions of %s", identity)
          .isEqualTo(acked.stream().map(Item::timestamp).toList());
      for (int i = 0; i < acked.size(); i++) {
        Map<String, Value> p = new java.util.LinkedHashMap<>(written.get(i).properties());
        p.remove("_operation");
        assertThat(p).as("entry %s of %s", i, identity).isEqualTo(acked.get(i).properties());
      }
      long tombstones = entries.size() - written.size();
      assertThat(tombstones)
          .as("tombstones of %s", identity)
          .isEqualTo(deletes.getOrDefault(identity, new AtomicInteger()).get());
      String[] key = split(identity);
      boolean exists = db.table(source).get(key[0], key[1]).isPresent();
      if (!entries.isEmpty()) {
        Item newest = entries.get(entries.size() - 1);
        assertThat(!ViewKindsContract.deleted(newest))
            .as("newest of %s", identity)
            .isEqualTo(exists);
        if (exists) {
          assertThat(newest.timestamp())
              .isEqualTo(db.table(source).get(key[0], key[1]).orElseThrow().timestamp());
        }
      }
    }
    assertThat(union()).containsAll(byItem.keySet());
  }

  private List<String> union() {
    List<String> all = new ArrayList<>(stored.keySet());
    for (String k : deletes.keySet()) {
      if (!all.contains(k)) {
        all.add(k);
      }
    }
    return all;
  }

  private static String[] split(String identity) {
    int hash = identity.indexOf('#');
    return new String[] {identity.substring(0, hash), identity.substring(hash + 1)};
  }

  /** The partitions view's entries (in partition {@code all}) equal the counts of a scan. */
  static void checkCounts(Database db, String view, String source, Predicate<Item> where) {
    Map<String, Long> scanned = new TreeMap<>();
    for (Item item : ViewKindsContract.all(db.table(source), Query.all())) {
      if (where.test(item)) {
        scanned.merge(item.partitionKey(), 1L, Long::sum);
      }
    }
    Map<String, Long> counted = new TreeMap<>();
    for (Item e : ViewKindsContract.all(db.table(view), Query.all())) {
      assertThat(e.partitionKey()).isEqualTo("all");
      assertThat(e.properties()).containsOnlyKeys("count");
      counted.put(e.id(), ((Value.Int64) e.properties().get("count")).value());
    }
    assertThat(counted).as("counts of %s", view).isEqualTo(scanned);
  }
}
