package io.viewbase.api;

/**
 * How a query is answered, and why: what {@link Table#explain} and the native API's {@code
 * explain=true} report.
 *
 * <pre>
 * kind        | reads
 * ------------+-----------------------------------------------------------------------------
 * pointRead   | one lookup per (partition key, id) the filter names exactly
 * keyRange    | ordered id ranges of named partitions, or a range of partitions
 * viewLookup  | a ready view whose key the filter fixes by equality (a lookup or a prefix range
 *             | in the view), each entry mapped back to its source item
 * scan        | every item of the table, filtered (a partition query is a keyRange at worst)
 * empty       | nothing: the filter can never be true
 * </pre>
 *
 * @param kind one of the kinds above
 * @param source the table or view read
 * @param description what is read, e.g. {@code partition 'a', ids ['x', 'y')}
 * @param reason why this plan was chosen
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record QueryPlan(String kind, String source, String description, String reason) {
  public static final String POINT_READ = "pointRead";
  public static final String KEY_RANGE = "keyRange";
  public static final String VIEW_LOOKUP = "viewLookup";
  public static final String SCAN = "scan";
  public static final String EMPTY = "empty";
}
