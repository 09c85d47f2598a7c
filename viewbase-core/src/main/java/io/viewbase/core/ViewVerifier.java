package io.viewbase.core;

import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares a view with a recomputation from its source, at one snapshot of both, and optionally
 * repairs the drift. Repairs are conditional on the snapshot still being current for the entries
 * they touch; an entry a writer changed meanwhile was maintained by that write and is left alone.
 *
 * <pre>
 * finding   | meaning                                              | repair
 * ----------+------------------------------------------------------+------------------------------
 * missing   | a source item implies an entry the view lacks         | put it (source unchanged)
 * different | the entry's properties or origin differ from implied | rewrite it (both unchanged)
 * extra     | no source item implies this entry                    | delete it (entry unchanged)
 * </pre>
 *
 * A history view is checked for what it must hold whatever the past: each item's newest entry in
 * its partition is the item at its version, and an item that is not there (deleted, out of {@code
 * where}, moved) has a tombstone as its newest entry there:
 *
 * <pre>
 * finding   | meaning                                                | repair
 * ----------+--------------------------------------------------------+--------------------------
 * missing   | no entry at the item's version#item, though retention  | put it, operation backfill
 *           |   would keep it (younger than maxAge, fewer than       |   (source unchanged)
 *           |   maxVersions newer entries in its partition)          |
 * different | that entry's properties (but _operation) differ, or it | rewrite it (both unchanged)
 *           |   is a tombstone                                       |
 * extra     | an item's newest entry is newer than the item, or is   | delete it, or add a
 *           |   not a tombstone though the item is not in this       |   tombstone after it
 *           |   partition (any more)                                 |   (operation repair)
 * </pre>
 *
 * A partitions view is compared with the counts of matching items per source partition, computed at
 * the snapshot: an entry missing, with another count (or a backfill's note left), or for a
 * partition with no matching item; repairs put or delete the entry, at the version seen.
 */
final class ViewVerifier {
  private static final int MAX_SAMPLES = 100;
  private static final int REPAIR_CHUNK = 200;

  private final Store store;
  private final ViewHandle view;
  private final boolean repair;
  private final List<VerifyReport.Difference> samples = new ArrayList<>();
  private final List<List<Mutation>> pendingRepairs = new ArrayList<>();
  private long checked;
  private long missing;
  private long extra;
  private long different;

  ViewVerifier(Store store, ViewHandle view, boolean repair) {
    this.store = store;
    this.view = view;
    this.repair = repair;
  }

  VerifyReport run() {
    try (Snapshot snapshot = store.snapshot()) {
      switch (view.spec().kind()) {
        case COPY -> {
          checkSourceSide(snapshot);
          checkViewSide(snapshot);
        }
        case HISTORY -> {
          checkNewestEntries(snapshot);
          checkTombstones(snapshot);
        }
        case PARTITIONS -> checkCounts(snapshot);
      }
    }
    flushRepairs();
    return new VerifyReport(view.name(), checked, missing, extra, different, repair, samples);
  }

  private void checkSourceSide(Snapshot snapshot) {
    try (Cursor c = snapshot.scanAll(KeyLayout.tablePrefix(view.source().id()), null, null)) {
      while (c.next()) {
        checked++;
        String pk = KeyLayout.partitionKeyOf(c.partition());
        String id = KeyLayout.idOf(c.key());
        Map<String, Value> properties = ItemCodec.decode(c.value());
        ViewSpec.ViewKey key = view.spec().keyOf(pk, id, properties);
        if (key == null) {
          continue;
        }
        byte[] viewPartition = KeyLayout.partition(view.table().id(), key.partitionKey());
        byte[] viewKey = KeyLayout.sortKey(key.id());
        byte[] expected = ItemCodec.encodeView(pk, id, view.spec().project(properties));
        Optional<Versioned> actual = snapshot.get(viewPartition, viewKey);
        Mutation.Check sourceUnchanged =
            new Mutation.Check(c.partition(), c.key(), Condition.version(c.version()));
        if (actual.isEmpty()) {
          missing++;
          sample("missing", key, pk, id);
          repair(
              List.of(
                  sourceUnchanged,
                  new Mutation.Put(
                      viewPartition, viewKey, c.version(), expected, Condition.ABSENT)));
        } else if (!Arrays.equals(actual.get().value(), expected)) {
          different++;
          sample("different", key, pk, id);
          repair(
              List.of(
                  sourceUnchanged,
                  new Mutation.Put(
                      viewPartition,
                      viewKey,
                      c.version(),
                      expected,
                      Condition.version(actual.get().version()))));
        }
      }
    }
  }

  private void checkViewSide(Snapshot snapshot) {
    try (Cursor c = snapshot.scanAll(KeyLayout.tablePrefix(view.table().id()), null, null)) {
      while (c.next()) {
        ViewSpec.ViewKey here =
            new ViewSpec.ViewKey(KeyLayout.partitionKeyOf(c.partition()), KeyLayout.idOf(c.key()));
        String sourcePk = null;
        String sourceId = null;
        boolean implied = false;
        if (ItemCodec.isView(c.value())) {
          ItemCodec.ViewValue entry = ItemCodec.decodeView(c.value());
          sourcePk = entry.sourcePartitionKey();
          sourceId = entry.sourceId();
          Optional<Versioned> source =
              snapshot.get(
                  KeyLayout.partition(view.source().id(), sourcePk), KeyLayout.sortKey(sourceId));
          implied =
              source.isPresent()
                  && here.equals(
                      view.spec()
                          .keyOf(sourcePk, sourceId, ItemCodec.decode(source.get().value())));
        }
        if (!implied) {
          extra++;
          sample("extra", here, sourcePk, sourceId);
          repair(
              List.of(new Mutation.Delete(c.partition(), c.key(), Condition.version(c.version()))));
        }
      }
    }
  }

  /** History: every item's entry at its version (or retention explains its absence). */
  private void checkNewestEntries(Snapshot snapshot) {
    ViewDefinition.Retention retention = view.spec().definition().retention();
    long ageBound =
        retention == null || retention.maxAge() == null
            ? Long.MIN_VALUE
            : Value.DateTime.of(Instant.now().minus(retention.maxAge())).ticks();
    try (Cursor c = snapshot.scanAll(KeyLayout.tablePrefix(view.source().id()), null, null)) {
      while (c.next()) {
        checked++;
        String pk = KeyLayout.partitionKeyOf(c.partition());
        String id = KeyLayout.idOf(c.key());
        Map<String, Value> properties = ItemCodec.decode(c.value());
        String partition = view.spec().historyPartition(pk, id, properties);
        if (partition == null) {
          continue;
        }
        ViewSpec.ViewKey key =
            new ViewSpec.ViewKey(partition, ViewSpec.historyId(c.version(), pk, id));
        byte[] viewPartition = KeyLayout.partition(view.table().id(), partition);
        byte[] viewKey = KeyLayout.sortKey(key.id());
        Optional<Versioned> actual = snapshot.get(viewPartition, viewKey);
        Mutation.Check sourceUnchanged =
            new Mutation.Check(c.partition(), c.key(), Condition.version(c.version()));
        if (actual.isEmpty()) {
          if (c.version() < ageBound
              || trimmedByCount(snapshot, viewPartition, viewKey, retention)) {
            continue; // retention has removed it, or will
          }
          missing++;
          sample("missing", key, pk, id);
          byte[] value =
              ItemCodec.encodeView(pk, id, view.spec().historyEntry(properties, ViewSpec.BACKFILL));
          repair(
              List.of(
                  sourceUnchanged,
                  new Mutation.Put(viewPartition, viewKey, c.version(), value, Condition.ABSENT)));
          continue;
        }
        Map<String, Value> held =
            new LinkedHashMap<>(ItemCodec.decodeView(actual.get().value()).properties());
        Value operation = held.remove(ViewSpec.OPERATION);
        boolean tombstone = held.remove(ViewSpec.DELETED) != null;
        if (tombstone || !held.equals(view.spec().project(properties))) {
          different++;
          sample("different", key, pk, id);
          String op =
              operation instanceof Value.Str text && !tombstone ? text.value() : ViewSpec.BACKFILL;
          byte[] value = ItemCodec.encodeView(pk, id, view.spec().historyEntry(properties, op));
          repair(
              List.of(
                  sourceUnchanged,
                  new Mutation.Put(
                      viewPartition,
                      viewKey,
                      c.version(),
                      value,
                      Condition.version(actual.get().version()))));
        }
      }
    }
  }

  /** Whether the partition holds at least maxVersions entries after this key. */
  private static boolean trimmedByCount(
      Snapshot snapshot, byte[] viewPartition, byte[] viewKey, ViewDefinition.Retention retention) {
    if (retention == null || retention.maxVersions() <= 0) {
      return false;
    }
    long newer = 0;
    try (Cursor c = snapshot.scan(viewPartition, KeyRange.ALL.after(viewKey), false)) {
      while (newer < retention.maxVersions() && c.next()) {
        newer++;
      }
    }
    return newer >= retention.maxVersions();
  }

  /** An item's newest entry in one history partition. */
  private record Newest(byte[] partition, byte[] key, long version, boolean tombstone) {}

  /**
   * History: the newest entry of each item in each partition is not newer than the item, and is a
   * tombstone unless the item is there now.
   */
  private void checkTombstones(Snapshot snapshot) {
    byte[] current = null;
    Map<List<String>, Newest> newest = new LinkedHashMap<>();
    try (Cursor c = snapshot.scanAll(KeyLayout.tablePrefix(view.table().id()), null, null)) {
      while (c.next()) {
        if (current != null && !Arrays.equals(current, c.partition())) {
          judge(snapshot, newest);
          newest.clear();
        }
        current = c.partition();
        ItemCodec.ViewValue entry = ItemCodec.decodeView(c.value());
        newest.put(
            List.of(entry.sourcePartitionKey(), entry.sourceId()),
            new Newest(
                c.partition(),
                c.key(),
                c.version(),
                entry.properties().containsKey(ViewSpec.DELETED)));
      }
    }
    judge(snapshot, newest);
  }

  private void judge(Snapshot snapshot, Map<List<String>, Newest> newest) {
    for (Map.Entry<List<String>, Newest> e : newest.entrySet()) {
      String pk = e.getKey().get(0);
      String id = e.getKey().get(1);
      Newest n = e.getValue();
      String here = KeyLayout.partitionKeyOf(n.partition());
      Optional<Versioned> source =
          snapshot.get(KeyLayout.partition(view.source().id(), pk), KeyLayout.sortKey(id));
      boolean there =
          source.isPresent()
              && here.equals(
                  view.spec().historyPartition(pk, id, ItemCodec.decode(source.get().value())));
      ViewSpec.ViewKey key = new ViewSpec.ViewKey(here, KeyLayout.idOf(n.key()));
      Condition unchanged = Condition.version(n.version());
      if (there && n.version() > source.get().version()) {
        extra++;
        sample("extra", key, pk, id);
        repair(List.of(new Mutation.Delete(n.partition(), n.key(), unchanged)));
      } else if (!there && !n.tombstone()) {
        extra++;
        sample("extra", key, pk, id);
        long version = n.version() + 1;
        repair(
            List.of(
                new Mutation.Check(n.partition(), n.key(), unchanged),
                new Mutation.Put(
                    n.partition(),
                    KeyLayout.sortKey(ViewSpec.historyId(version, pk, id)),
                    version,
                    ItemCodec.encodeView(pk, id, ViewSpec.tombstone(REPAIR)),
                    Condition.ABSENT)));
      }
    }
  }

  /** The operation of a tombstone a verify's repair adds. */
  static final String REPAIR = "repair";

  /** Partitions: each entry's count equals the matching items of its source partition. */
  private void checkCounts(Snapshot snapshot) {
    Map<String, Long> counts = new LinkedHashMap<>();
    try (Cursor c = snapshot.scanAll(KeyLayout.tablePrefix(view.source().id()), null, null)) {
      while (c.next()) {
        checked++;
        String pk = KeyLayout.partitionKeyOf(c.partition());
        if (view.spec().matches(pk, KeyLayout.idOf(c.key()), ItemCodec.decode(c.value()))) {
          counts.merge(pk, 1L, Long::sum);
        }
      }
    }
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      String pk = e.getKey();
      ViewSpec.ViewKey key = new ViewSpec.ViewKey(view.spec().countPartition(pk), pk);
      byte[] viewPartition = KeyLayout.partition(view.table().id(), key.partitionKey());
      byte[] viewKey = KeyLayout.sortKey(pk);
      Optional<Versioned> actual = snapshot.get(viewPartition, viewKey);
      byte[] expected =
          ViewMaintainer.Counted.encode(pk, e.getValue(), ViewMaintainer.Counted.COMPLETE);
      if (actual.isEmpty()) {
        missing++;
        sample("missing", key, pk, null);
        repair(
            List.of(
                new Mutation.Put(viewPartition, viewKey, nowTicks(), expected, Condition.ABSENT)));
      } else if (!Arrays.equals(actual.get().value(), expected)) {
        different++;
        sample("different", key, pk, null);
        repair(
            List.of(
                new Mutation.Put(
                    viewPartition,
                    viewKey,
                    Math.max(actual.get().version() + 1, nowTicks()),
                    expected,
                    Condition.version(actual.get().version()))));
      }
    }
    try (Cursor c = snapshot.scanAll(KeyLayout.tablePrefix(view.table().id()), null, null)) {
      while (c.next()) {
        String here = KeyLayout.partitionKeyOf(c.partition());
        String pk = KeyLayout.idOf(c.key());
        if (!counts.containsKey(pk) || !here.equals(view.spec().countPartition(pk))) {
          extra++;
          sample("extra", new ViewSpec.ViewKey(here, pk), pk, null);
          repair(
              List.of(new Mutation.Delete(c.partition(), c.key(), Condition.version(c.version()))));
        }
      }
    }
  }

  private static long nowTicks() {
    return Value.DateTime.of(Instant.now()).ticks();
  }

  private void sample(String kind, ViewSpec.ViewKey key, String sourcePk, String sourceId) {
    if (samples.size() < MAX_SAMPLES) {
      samples.add(
          new VerifyReport.Difference(kind, key.partitionKey(), key.id(), sourcePk, sourceId));
    }
  }

  private void repair(List<Mutation> batch) {
    if (!repair) {
      return;
    }
    pendingRepairs.add(batch);
    if (pendingRepairs.size() >= REPAIR_CHUNK) {
      flushRepairs();
    }
  }

  /** Commits each repair on its own conditions; a repair whose entries moved on is skipped. */
  private void flushRepairs() {
    for (List<Mutation> batch : pendingRepairs) {
      try {
        store.commit(batch);
      } catch (ConditionFailedException e) {
        // a writer changed the source or the entry since the snapshot, and maintained the view
      }
    }
    pendingRepairs.clear();
  }
}
