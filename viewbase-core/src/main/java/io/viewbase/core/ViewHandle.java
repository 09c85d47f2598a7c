package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A view at run time: its compiled definition, its source, its state, and its backfill progress.
 * A view is maintained by every source write while it is {@code building} or {@code ready}.
 */
final class ViewHandle {
  static final int MAX_CONFLICTS = 100;

  private final TableEntry table;
  private final TableEntry source;
  private final ViewSpec spec;
  private volatile String state;
  private final AtomicLong done = new AtomicLong();
  private volatile long total;
  private volatile double rate;
  private final List<ViewStatus.Conflict> conflicts = new ArrayList<>();
  private volatile boolean stopped;
  /** Where a restarted backfill resumes: after this source entry (null: from the start). */
  private volatile byte[] resumePartition;
  private volatile byte[] resumeKey;

  ViewHandle(TableEntry table, TableEntry source, ViewSpec spec, String state) {
    this.table = table;
    this.source = source;
    this.spec = spec;
    this.state = state;
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

  String state() {
    return state;
  }

  void state(String newState) {
    state = newState;
  }

  boolean isReady() {
    return ViewStatus.READY.equals(state);
  }

  /** Whether source writes keep this view in step. */
  boolean isMaintained() {
    return !stopped && (ViewStatus.READY.equals(state) || ViewStatus.BUILDING.equals(state));
  }

  /** Stops maintenance and any backfill (the view is being dropped or has failed). */
  void stop() {
    stopped = true;
  }

  boolean isStopped() {
    return stopped;
  }

  void resumeAfter(byte[] partition, byte[] key) {
    resumePartition = partition;
    resumeKey = key;
  }

  byte[] resumePartition() {
    return resumePartition;
  }

  byte[] resumeKey() {
    return resumeKey;
  }

  AtomicLong done() {
    return done;
  }

  void total(long n) {
    total = n;
  }

  long total() {
    return total;
  }

  void rate(double itemsPerSecond) {
    rate = itemsPerSecond;
  }

  synchronized void addConflict(ViewStatus.Conflict conflict) {
    if (conflicts.size() < MAX_CONFLICTS) {
      conflicts.add(conflict);
    }
  }

  synchronized List<ViewStatus.Conflict> conflicts() {
    return List.copyOf(conflicts);
  }

  synchronized void conflicts(List<ViewStatus.Conflict> restored) {
    conflicts.clear();
    conflicts.addAll(restored);
  }

  /** Fails with ViewNotReady unless the view serves reads. */
  void checkReadable() {
    if (!isReady()) {
      throw ViewbaseException.of(ErrorCode.ViewNotReady, "The view is not ready to be read", "view", name(),
          "state", state);
    }
  }

  ViewStatus status() {
    long d = done.get();
    long t = Math.max(total, d);
    boolean building = ViewStatus.BUILDING.equals(state);
    double r = building ? rate : 0;
    long eta = building && r > 0 ? (long) Math.ceil((t - d) / r) : -1;
    return new ViewStatus(spec.definition(), state, new ViewStatus.Progress(d, t, r, eta), conflicts(),
        table.created() == null ? Instant.EPOCH : table.created());
  }
}
