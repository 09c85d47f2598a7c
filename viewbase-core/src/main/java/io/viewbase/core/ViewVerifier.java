package io.viewbase.core;

import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.util.ArrayList;
import java.util.Arrays;
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
      checkSourceSide(snapshot);
      checkViewSide(snapshot);
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
