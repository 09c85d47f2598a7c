package io.viewbase.core;

import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A view as the catalog stores it: the table it is (name, id, created), its definition, its state,
 * how far its backfill got, and the conflicts found (at most {@link #MAX_CONFLICTS}). Immutable: a
 * change is a new record, written to the catalog and then taken by the view's {@link ViewHandle}.
 *
 * @param table the view's own table: its name (the definition's), id and creation time
 * @param definition the definition, its source named with the source table's stored case
 * @param countsAfter partitions views only (else 0): the version after which writers count an item
 *     state; the backfill counts the states at or before it ({@link ViewMaintainer})
 */
record ViewRecord(
    TableRecord table,
    ViewDefinition definition,
    ViewState state,
    Progress progress,
    List<ViewStatus.Conflict> conflicts,
    long countsAfter)
    implements CatalogRecord {
  static final int MAX_CONFLICTS = 100;

  /**
   * The countsAfter of a partitions view registered but not yet given one: every state is the
   * backfill's, so writers count nothing.
   */
  static final long COUNTS_AFTER_PENDING = Long.MAX_VALUE;

  ViewRecord {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(definition, "definition");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(progress, "progress");
    if (!table.name().equals(definition.name())) {
      throw new IllegalArgumentException(
          "a view's table is named " + table.name() + ", its definition " + definition.name());
    }
    conflicts = List.copyOf(conflicts);
  }

  /** A record of a view that is not a partitions view (nothing counted). */
  ViewRecord(
      TableRecord table,
      ViewDefinition definition,
      ViewState state,
      Progress progress,
      List<ViewStatus.Conflict> conflicts) {
    this(table, definition, state, progress, conflicts, 0);
  }

  /** A view just created that is not a partitions view: building, nothing copied yet. */
  static ViewRecord building(TableRecord table, ViewDefinition definition) {
    return building(table, definition, 0);
  }

  /**
   * A view just created: building, nothing copied yet; {@code countsAfter} as the record's (0 but
   * for a partitions view).
   */
  static ViewRecord building(TableRecord table, ViewDefinition definition, long countsAfter) {
    return new ViewRecord(
        table, definition, ViewState.BUILDING, Progress.NONE, List.of(), countsAfter);
  }

  String name() {
    return table.name();
  }

  ViewRecord inState(ViewState next) {
    return new ViewRecord(table, definition, next, progress, conflicts, countsAfter);
  }

  ViewRecord withCountsAfter(long version) {
    return new ViewRecord(table, definition, state, progress, conflicts, version);
  }

  ViewRecord withProgress(Progress next) {
    return new ViewRecord(table, definition, state, next, conflicts, countsAfter);
  }

  /** This record with {@code found} added to its conflicts, up to {@link #MAX_CONFLICTS} in all. */
  ViewRecord withConflicts(List<ViewStatus.Conflict> found) {
    if (found.isEmpty() || conflicts.size() >= MAX_CONFLICTS) {
      return this;
    }
    List<ViewStatus.Conflict> all = new ArrayList<>(conflicts);
    all.addAll(found.subList(0, Math.min(found.size(), MAX_CONFLICTS - conflicts.size())));
    return new ViewRecord(table, definition, state, progress, all, countsAfter);
  }

  /**
   * How far a backfill got.
   *
   * @param done source items examined
   * @param total source items counted when the backfill started (writes go on, so an estimate)
   * @param resumeAfter the last source entry of the last chunk committed; null: start from the
   *     beginning
   */
  record Progress(long done, long total, SourceEntry resumeAfter) {
    static final Progress NONE = new Progress(0, 0, null);

    /** The progress once a chunk of {@code items} ending at {@code last} has been committed. */
    Progress afterChunk(SourceEntry last, int items) {
      return new Progress(done + items, total, last);
    }

    Progress withTotal(long counted) {
      return new Progress(done, counted, resumeAfter);
    }
  }

  /** A source entry's storage address (partition and sort key bytes); compared by content. */
  record SourceEntry(byte[] partition, byte[] key) {
    SourceEntry {
      partition = partition.clone();
      key = key.clone();
    }

    @Override
    public byte[] partition() {
      return partition.clone();
    }

    @Override
    public byte[] key() {
      return key.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SourceEntry other
          && Arrays.equals(partition, other.partition)
          && Arrays.equals(key, other.key);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(partition) + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
      return "SourceEntry[partition="
          + Arrays.toString(partition)
          + ", key="
          + Arrays.toString(key)
          + "]";
    }
  }
}
