package io.viewbase.api;

import java.util.List;

/**
 * What {@link Database#verifyView} found comparing a view with a recomputation from its source.
 *
 * @param view the view
 * @param checked source items examined
 * @param missing entries the source implies but the view lacks
 * @param extra view entries no source item implies
 * @param different entries present in both whose content differs
 * @param repaired whether the differences were repaired
 * @param samples up to 100 of the differences
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record VerifyReport(
    String view,
    long checked,
    long missing,
    long extra,
    long different,
    boolean repaired,
    List<Difference> samples) {

  public VerifyReport {
    samples = List.copyOf(samples);
  }

  public long drift() {
    return missing + extra + different;
  }

  /**
   * One difference.
   *
   * @param kind {@code missing}, {@code extra} or {@code different}
   */
  public record Difference(
      String kind,
      String viewPartitionKey,
      String viewId,
      String sourcePartitionKey,
      String sourceId) {}
}
