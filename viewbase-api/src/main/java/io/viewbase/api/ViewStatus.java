package io.viewbase.api;

import java.time.Instant;
import java.util.List;

/**
 * A view's definition and build state.
 *
 * <pre>
 * state    | meaning
 * ---------+---------------------------------------------------------------------------------
 * building | backfilling from the source; writes already maintain it; reads answer ViewNotReady
 * ready    | an exact copy of the source; reads are served
 * failed   | the source holds items that map to the same view key ({@link #conflicts()}); the
 *          | view is not maintained and holds no data; drop it, fix the data, create it again
 * </pre>
 *
 * @param definition the definition as created
 * @param state {@code building}, {@code ready} or {@code failed}
 * @param progress backfill progress (complete once ready)
 * @param conflicts for a failed view, the clashing keys found (at most 100)
 * @param created when the view was created
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ViewStatus(
    ViewDefinition definition,
    String state,
    Progress progress,
    List<Conflict> conflicts,
    Instant created) {

  public static final String BUILDING = "building";
  public static final String READY = "ready";
  public static final String FAILED = "failed";

  public ViewStatus {
    conflicts = conflicts == null ? List.of() : List.copyOf(conflicts);
  }

  public boolean isReady() {
    return READY.equals(state);
  }

  /**
   * Backfill progress.
   *
   * @param done source items examined
   * @param total source items when the build started (an estimate if writes go on)
   * @param itemsPerSecond recent rate, 0 when not building
   * @param etaSeconds estimated seconds left while building; -1 when unknown or not building
   */
  public record Progress(long done, long total, double itemsPerSecond, long etaSeconds) {}

  /** Two source items that map to one view key. */
  public record Conflict(
      String viewPartitionKey,
      String viewId,
      String sourcePartitionKey,
      String sourceId,
      String otherSourcePartitionKey,
      String otherSourceId) {}
}
