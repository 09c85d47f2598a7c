package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import java.util.List;

/**
 * A view at run time: its compiled definition, its source, and what the catalog holds of it (its
 * {@link ViewRecord}: state, backfill progress, conflicts), plus what only this process knows (the
 * backfill's rate, whether it was stopped). A view is maintained by every source write while it is
 * building or ready.
 *
 * <p>The record is replaced whole, never changed in place, so a reader (a writer asking {@link
 * #isMaintained()}, a status request) sees one consistent record without a lock; changes take this
 * object's monitor, so two of them (a backfill's chunk, a refresh) never lose one another. No
 * change here waits for a table's write gate: the catalog removes a failed view from its source
 * after the change, outside this monitor.
 */
final class ViewHandle {
  private final TableEntry table;
  private final TableEntry source;
  private final ViewSpec spec;
  private volatile ViewRecord record;
  private volatile double rate;
  private volatile boolean stopped;

  ViewHandle(TableEntry table, TableEntry source, ViewSpec spec, ViewRecord record) {
    this.table = table;
    this.source = source;
    this.spec = spec;
    this.record = record;
  }

  TableEntry table() {
    return table;
  }

  TableEntry source() {
    return source;
  }

  ViewSpec spec() {
    return spec;
  }

  String name() {
    return table.name();
  }

  /** What the catalog holds of this view now. */
  ViewRecord record() {
    return record;
  }

  ViewState state() {
    return record.state();
  }

  boolean isReady() {
    return record.state() == ViewState.READY;
  }

  /** Whether source writes keep this view in step. */
  boolean isMaintained() {
    return !stopped && record.state().isMaintained();
  }

  /** Stops maintenance and any backfill (the view is being dropped or has failed). */
  void stop() {
    stopped = true;
  }

  boolean isStopped() {
    return stopped;
  }

  /**
   * The backfill counted the source: {@code sourceItems} is the total its progress counts towards.
   */
  synchronized void recordTotal(long sourceItems) {
    record = record.withProgress(record.progress().withTotal(sourceItems));
  }

  /** A backfill chunk was committed with this progress, having found these conflicts. */
  synchronized void recordProgress(ViewRecord.Progress progress, List<ViewStatus.Conflict> found) {
    record = record.withProgress(progress).withConflicts(found);
  }

  /** A partitions view's countsAfter has been chosen and stored: writers count from now on. */
  synchronized void countAfter(long version) {
    record = record.withCountsAfter(version);
  }

  /** The backfill's recent rate, shown while it builds; not stored. */
  void recordRate(double itemsPerSecond) {
    rate = itemsPerSecond;
  }

  /**
   * Ends the build: ready, or failed if it found conflicts (those already recorded, or {@code
   * found}). Returns the record to store.
   */
  synchronized ViewRecord finishBuild(List<ViewStatus.Conflict> found) {
    ViewRecord withFound = record.withConflicts(found);
    record =
        withFound.inState(withFound.conflicts().isEmpty() ? ViewState.READY : ViewState.FAILED);
    return record;
  }

  /**
   * Takes what another process stored for this view, only forward: a final state (with its progress
   * and conflicts) while this process still sees it building, or the further progress of a backfill
   * another process runs. Returns whether the view has just failed: the caller then stops
   * maintaining it.
   *
   * <table>
   *   <caption>what is taken</caption>
   *   <tr><th>held</th><th>stored</th><th>then</th></tr>
   *   <tr><td>building</td><td>ready or failed</td><td>the stored state, done, total and conflicts</td></tr>
   *   <tr><td>any</td><td>building, further done</td><td>the stored done and total</td></tr>
   *   <tr><td colspan="2">anything else</td><td>nothing</td></tr>
   * </table>
   */
  synchronized boolean catchUpFrom(ViewRecord stored) {
    if (record.countsAfter() == ViewRecord.COUNTS_AFTER_PENDING
        && stored.countsAfter() != ViewRecord.COUNTS_AFTER_PENDING) {
      record = record.withCountsAfter(stored.countsAfter()); // chosen by the creating process
    }
    ViewRecord.Progress held = record.progress();
    ViewRecord.Progress theirs =
        new ViewRecord.Progress(
            stored.progress().done(), stored.progress().total(), held.resumeAfter());
    if (record.state() == ViewState.BUILDING && stored.state() != ViewState.BUILDING) {
      record =
          new ViewRecord(
              record.table(),
              record.definition(),
              stored.state(),
              theirs,
              stored.conflicts(),
              record.countsAfter());
      return stored.state() == ViewState.FAILED;
    }
    if (stored.state() == ViewState.BUILDING && theirs.done() > held.done()) {
      record = record.withProgress(theirs);
    }
    return false;
  }

  /** Fails with ViewNotReady unless the view serves reads. */
  void checkReadable() {
    ViewState state = record.state();
    if (state != ViewState.READY) {
      throw ViewbaseException.of(
          ErrorCode.ViewNotReady,
          "The view is not ready to be read",
          "view",
          name(),
          "state",
          state.text());
    }
  }

  ViewStatus status() {
    ViewRecord r = record;
    long done = r.progress().done();
    long total = Math.max(r.progress().total(), done);
    boolean building = r.state() == ViewState.BUILDING;
    double itemsPerSecond = building ? rate : 0;
    long eta =
        building && itemsPerSecond > 0 ? (long) Math.ceil((total - done) / itemsPerSecond) : -1;
    return new ViewStatus(
        r.definition(),
        r.state().text(),
        new ViewStatus.Progress(done, total, itemsPerSecond, eta),
        r.conflicts(),
        r.table().created());
  }
}
