package io.viewbase.core;

import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a view from the items its source already holds, while writes go on.
 *
 * <p>Writes maintain the view from the moment it is registered, so the backfill only has to copy
 * what existed before. It walks the source in chunks; each chunk commits as one batch that checks
 * every copied source item is still at the version read (else a writer has already maintained it:
 * re-read and retry), claims each view key only if it is free, and records the resume position in
 * the catalog, so a restart resumes after the last committed chunk and never leaves a view that
 * claims to be ready with entries missing. A chunk that busy writers keep failing lands in halves
 * (down to single items). Two source items with one view key are conflicts; the view then ends
 * {@code failed}, naming them.
 *
 * <p>A history view gets one entry per item, at the item's version (operation {@code backfill}); an
 * entry a writer already wrote for that version is left as it is. A partitions view's backfill
 * counts, per source partition of a chunk, the matching items stored at or before the view's {@link
 * ViewRecord#countsAfter()} (writers count the later ones), checks each one counted is unchanged,
 * adds them to the entry at the version read, and notes in the entry how far it got ({@link
 * ViewMaintainer.Counted}); it starts once the clock is past {@code countsAfter}, and ends by
 * clearing those notes.
 */
final class ViewBackfill implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ViewBackfill.class);
  private static final int CHUNK = 512;
  private static final int MAX_ATTEMPTS = 100;
  private static final int READ_FIRST_AFTER_A_MISS = 16;

  /**
   * Failed tries of one chunk after which it lands in halves: a slow store under busy writers may
   * never land it whole.
   */
  private static final int SPLIT_AFTER = 2;

  private record Source(byte[] partition, byte[] key, long version, byte[] value) {}

  private final Store store;
  private final Catalog catalog;
  private final ViewHandle view;
  private final ItemRules rules;
  private final BooleanSupplier closing;
  private int readFirstChunks;

  ViewBackfill(
      Store store, Catalog catalog, ViewHandle view, ItemRules rules, BooleanSupplier closing) {
    this.store = store;
    this.catalog = catalog;
    this.view = view;
    this.rules = rules;
    this.closing = closing;
  }

  @Override
  public void run() {
    try {
      build();
    } catch (RuntimeException e) {
      if (closing.getAsBoolean() || view.isStopped()) {
        return; // shutting down or dropped: a later open resumes from the last committed chunk
      }
      LOG.error("The backfill of view {} failed", view.name(), e);
      catalog.failView(
          view,
          new ViewStatus.Conflict(
              null, null, null, null, null, "backfill error: " + e.getMessage()));
    }
  }

  private boolean stopped() {
    return view.isStopped() || closing.getAsBoolean() || Thread.currentThread().isInterrupted();
  }

  private void build() {
    if (view.spec().kind() == ViewDefinition.Kind.PARTITIONS) {
      waitUntilPast(view.record().countsAfter());
    }
    byte[] sourcePrefix = KeyLayout.tablePrefix(view.source().id());
    ViewRecord.SourceEntry resume = view.record().progress().resumeAfter();
    if (resume == null) {
      view.recordTotal(count(sourcePrefix));
    }
    long startNanos = System.nanoTime();
    long doneAtStart = view.record().progress().done();
    byte[] afterPartition = resume == null ? null : resume.partition();
    byte[] afterKey = resume == null ? null : resume.key();
    while (!stopped()) {
      List<Source> chunk = new ArrayList<>(CHUNK);
      try (Cursor c = store.scanAll(sourcePrefix, afterPartition, afterKey)) {
        while (chunk.size() < CHUNK && c.next()) {
          chunk.add(new Source(c.partition(), c.key(), c.version(), c.value()));
        }
      }
      if (chunk.isEmpty()) {
        break;
      }
      Source last = chunk.get(chunk.size() - 1);
      commitChunk(chunk, last);
      afterPartition = last.partition();
      afterKey = last.key();
      double seconds = (System.nanoTime() - startNanos) / 1e9;
      view.recordRate(seconds > 0 ? (view.record().progress().done() - doneAtStart) / seconds : 0);
    }
    if (!stopped() && view.spec().kind() == ViewDefinition.Kind.PARTITIONS) {
      clearCountedThrough();
    }
    if (!stopped()) {
      catalog.finishView(view);
    }
    if (!stopped() && view.isReady() && view.spec().kind() == ViewDefinition.Kind.PARTITIONS) {
      // A write decided while the view was building may have landed after the first pass and
      // noted an entry it created; once ready, every write drops such a note, and so does this.
      clearCountedThrough();
    }
  }

  /**
   * Waits until every version the clock issues is past {@code version}: the writers of a partitions
   * view count the states after it, the backfill the rest, which are final by then.
   */
  private void waitUntilPast(long version) {
    while (!stopped() && nowTicks() <= version) {
      try {
        Thread.sleep(Math.max(1, (version - nowTicks()) / 10_000 + 1));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static long nowTicks() {
    Instant now = Instant.now();
    return now.getEpochSecond() * Value.DateTime.TICKS_PER_SECOND + now.getNano() / 100;
  }

  /**
   * Once every chunk is counted, every partition is: removes the backfill's notes from the entries,
   * each at the version read (a writer may rewrite one meanwhile: read it again).
   */
  private void clearCountedThrough() {
    List<byte[][]> noted = new ArrayList<>();
    try (Cursor c = store.scanAll(KeyLayout.tablePrefix(view.table().id()), null, null)) {
      while (c.next()) {
        if (ViewMaintainer.Counted.of(c.value()).through() != ViewMaintainer.Counted.COMPLETE) {
          noted.add(new byte[][] {c.partition(), c.key()});
        }
      }
    }
    for (byte[][] entry : noted) {
      for (int attempt = 0; attempt < MAX_ATTEMPTS && !stopped(); attempt++) {
        Optional<Versioned> now = store.get(entry[0], entry[1]);
        if (now.isEmpty()) {
          break;
        }
        ViewMaintainer.Counted counted = ViewMaintainer.Counted.of(now.get().value());
        if (counted.through() == ViewMaintainer.Counted.COMPLETE) {
          break;
        }
        String sourcePk = ItemCodec.decodeView(now.get().value()).sourcePartitionKey();
        Mutation m =
            counted.count() <= 0
                ? new Mutation.Delete(entry[0], entry[1], Condition.version(now.get().version()))
                : new Mutation.Put(
                    entry[0],
                    entry[1],
                    after(now.get().version()),
                    ViewMaintainer.Counted.encode(
                        sourcePk, counted.count(), ViewMaintainer.Counted.COMPLETE),
                    Condition.version(now.get().version()));
        view.table().beginWrite();
        try {
          store.commit(List.of(m));
          break;
        } catch (ConditionFailedException e) {
          // a writer changed the count: read it again
        } finally {
          view.table().endWrite();
        }
      }
    }
  }

  /**
   * A version for a rewritten count entry: any other than the one read fails the condition of a
   * writer that read it, and this one is also later.
   */
  private static long after(long read) {
    return Math.max(read + 1, nowTicks());
  }

  private long count(byte[] sourcePrefix) {
    long n = 0;
    try (Cursor c = store.scanAll(sourcePrefix, null, null)) {
      while (c.next()) {
        n++;
      }
    }
    return n;
  }

  private void commitChunk(List<Source> chunk, Source last) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      List<Mutation> batch = new ArrayList<>(chunk.size() * 2 + 1);
      List<ViewStatus.Conflict> conflicts = new ArrayList<>();
      Map<ViewSpec.ViewKey, Source> claimed = new HashMap<>();
      // First try without reading the view: in a backfill almost every key is free, and a taken
      // one fails the batch's condition; the retry then reads each key to tell why. Where writers
      // have been busy ahead of the backfill, reading first for a while saves the failed tries.
      boolean readFirst = attempt > 0 || readFirstChunks > 0;
      switch (view.spec().kind()) {
        case COPY -> {
          for (Source s : chunk) {
            copy(s, batch, claimed, conflicts, readFirst);
          }
        }
        case HISTORY -> {
          for (Source s : chunk) {
            record(s, batch, conflicts, readFirst);
          }
        }
        case PARTITIONS -> count(chunk, batch, conflicts);
      }
      // The catalog record written with the chunk carries the progress after it; the view takes it
      // once the chunk has landed.
      ViewRecord before = view.record();
      ViewRecord.Progress after =
          before
              .progress()
              .afterChunk(new ViewRecord.SourceEntry(last.partition(), last.key()), chunk.size());
      batch.add(catalog.viewRecordPut(before.withProgress(after).withConflicts(conflicts)));
      // Holding the view's write gate keeps a drop from purging while this chunk lands.
      view.table().beginWrite();
      try {
        store.commit(batch);
        view.recordProgress(after, conflicts);
        readFirstChunks = Math.max(0, readFirstChunks - 1);
        return;
      } catch (ConditionFailedException e) {
        readFirstChunks = READ_FIRST_AFTER_A_MISS;
        chunk = reread(chunk);
        if (chunk.isEmpty()) {
          return;
        }
      } finally {
        view.table().endWrite();
      }
      if (attempt + 1 >= SPLIT_AFTER && chunk.size() > 1) {
        // On a store where a chunk's commit takes long (Cassandra claims its keys one by one),
        // writers keep changing some item of a large chunk before it lands: land it in halves.
        int half = chunk.size() / 2;
        commitChunk(new ArrayList<>(chunk.subList(0, half)), chunk.get(half - 1));
        commitChunk(new ArrayList<>(chunk.subList(half, chunk.size())), last);
        return;
      }
    }
    throw new IllegalStateException(
        "the source changed under the backfill " + MAX_ATTEMPTS + " times in a row");
  }

  /** Adds the mutations that copy one source item, or records why it cannot be copied. */
  private void copy(
      Source s,
      List<Mutation> batch,
      Map<ViewSpec.ViewKey, Source> claimed,
      List<ViewStatus.Conflict> conflicts,
      boolean readFirst) {
    String pk = KeyLayout.partitionKeyOf(s.partition());
    String id = KeyLayout.idOf(s.key());
    Map<String, Value> properties = ItemCodec.decode(s.value());
    ViewSpec.ViewKey key = view.spec().keyOf(pk, id, properties);
    if (key == null) {
      return;
    }
    try {
      rules.checkKey("view partitionKey", key.partitionKey());
      rules.checkKey("view id", key.id());
    } catch (ViewbaseException e) {
      conflicts.add(
          new ViewStatus.Conflict(key.partitionKey(), key.id(), pk, id, null, e.getMessage()));
      return;
    }
    Source earlier = claimed.putIfAbsent(key, s);
    if (earlier != null) {
      conflicts.add(
          new ViewStatus.Conflict(
              key.partitionKey(),
              key.id(),
              pk,
              id,
              KeyLayout.partitionKeyOf(earlier.partition()),
              KeyLayout.idOf(earlier.key())));
      return;
    }
    byte[] viewPartition = KeyLayout.partition(view.table().id(), key.partitionKey());
    byte[] viewKey = KeyLayout.sortKey(key.id());
    Optional<Versioned> existing = readFirst ? store.get(viewPartition, viewKey) : Optional.empty();
    if (existing.isPresent()) {
      ItemCodec.ViewValue owner = ItemCodec.decodeView(existing.get().value());
      if (!owner.sourcePartitionKey().equals(pk) || !owner.sourceId().equals(id)) {
        conflicts.add(
            new ViewStatus.Conflict(
                key.partitionKey(),
                key.id(),
                pk,
                id,
                owner.sourcePartitionKey(),
                owner.sourceId()));
      }
      return; // already there: a writer maintained it
    }
    batch.add(new Mutation.Check(s.partition(), s.key(), Condition.version(s.version())));
    byte[] value = ItemCodec.encodeView(pk, id, view.spec().project(properties));
    batch.add(new Mutation.Put(viewPartition, viewKey, s.version(), value, Condition.ABSENT));
  }

  /**
   * Adds the history entry of one source item at its version, unless a writer already wrote it
   * (read first, or else found by the claim's condition, and the chunk retried reading).
   */
  private void record(
      Source s, List<Mutation> batch, List<ViewStatus.Conflict> conflicts, boolean readFirst) {
    String pk = KeyLayout.partitionKeyOf(s.partition());
    String id = KeyLayout.idOf(s.key());
    Map<String, Value> properties = ItemCodec.decode(s.value());
    String partition = view.spec().historyPartition(pk, id, properties);
    if (partition == null) {
      return;
    }
    ViewSpec.ViewKey key = new ViewSpec.ViewKey(partition, ViewSpec.historyId(s.version(), pk, id));
    if (!validKey(key, pk, id, conflicts)) {
      return;
    }
    byte[] viewPartition = KeyLayout.partition(view.table().id(), key.partitionKey());
    byte[] viewKey = KeyLayout.sortKey(key.id());
    if (readFirst && store.get(viewPartition, viewKey).isPresent()) {
      return; // a writer wrote this version's entry
    }
    batch.add(new Mutation.Check(s.partition(), s.key(), Condition.version(s.version())));
    byte[] value =
        ItemCodec.encodeView(pk, id, view.spec().historyEntry(properties, ViewSpec.BACKFILL));
    batch.add(new Mutation.Put(viewPartition, viewKey, s.version(), value, Condition.ABSENT));
  }

  /**
   * Adds to each partitions entry of the chunk's source partitions the items the backfill counts
   * (see the class comment), and notes how far it got: through the chunk's last id if the partition
   * goes on after the chunk, else the whole partition.
   */
  private void count(
      List<Source> chunk, List<Mutation> batch, List<ViewStatus.Conflict> conflicts) {
    long countsAfter = view.record().countsAfter();
    int from = 0;
    while (from < chunk.size()) {
      byte[] sourcePartition = chunk.get(from).partition();
      int to = from;
      while (to < chunk.size() && Arrays.equals(chunk.get(to).partition(), sourcePartition)) {
        to++;
      }
      String pk = KeyLayout.partitionKeyOf(sourcePartition);
      ViewSpec.ViewKey key = new ViewSpec.ViewKey(view.spec().countPartition(pk), pk);
      if (validKey(key, pk, null, conflicts)) {
        byte[] viewPartition = KeyLayout.partition(view.table().id(), key.partitionKey());
        byte[] viewKey = KeyLayout.sortKey(key.id());
        Optional<Versioned> existing = store.get(viewPartition, viewKey);
        Condition unchanged =
            existing.map(v -> Condition.version(v.version())).orElse(Condition.ABSENT);
        ViewMaintainer.Counted entry =
            ViewMaintainer.Counted.of(existing.map(Versioned::value).orElse(null));
        long added = 0;
        for (Source s : chunk.subList(from, to)) {
          String id = KeyLayout.idOf(s.key());
          if (s.version() <= countsAfter
              && !entry.counts(id, s.version(), countsAfter)
              && view.spec().matches(pk, id, ItemCodec.decode(s.value()))) {
            added++;
            batch.add(new Mutation.Check(s.partition(), s.key(), Condition.version(s.version())));
          }
        }
        Source last = chunk.get(to - 1);
        boolean goesOn = to == chunk.size() && continuesAfter(last);
        Value through =
            goesOn ? Value.of(KeyLayout.idOf(last.key())) : ViewMaintainer.Counted.COMPLETE;
        long next = entry.count() + added;
        if (next <= 0) {
          batch.add(
              existing.isPresent()
                  ? new Mutation.Delete(viewPartition, viewKey, unchanged)
                  : new Mutation.Check(viewPartition, viewKey, unchanged));
        } else {
          long version = existing.map(v -> after(v.version())).orElse(nowTicks());
          batch.add(
              new Mutation.Put(
                  viewPartition,
                  viewKey,
                  version,
                  ViewMaintainer.Counted.encode(pk, next, through),
                  unchanged));
        }
      }
      from = to;
    }
  }

  /** Whether the source partition of {@code s} holds an item after it. */
  private boolean continuesAfter(Source s) {
    try (Cursor c = store.scan(s.partition(), KeyRange.ALL.after(s.key()), false)) {
      return c.next();
    }
  }

  /** Whether a rendered key is a valid key; else records why the item cannot be in the view. */
  private boolean validKey(
      ViewSpec.ViewKey key, String pk, String id, List<ViewStatus.Conflict> conflicts) {
    try {
      rules.checkKey("view partitionKey", key.partitionKey());
      rules.checkKey("view id", key.id());
      return true;
    } catch (ViewbaseException e) {
      conflicts.add(
          new ViewStatus.Conflict(key.partitionKey(), key.id(), pk, id, null, e.getMessage()));
      return false;
    }
  }

  /** The chunk's items as they are now (deleted ones dropped). */
  private List<Source> reread(List<Source> chunk) {
    List<Source> fresh = new ArrayList<>(chunk.size());
    for (Source s : chunk) {
      store
          .get(s.partition(), s.key())
          .ifPresent(v -> fresh.add(new Source(s.partition(), s.key(), v.version(), v.value())));
    }
    return fresh;
  }
}
