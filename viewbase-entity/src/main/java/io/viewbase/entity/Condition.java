package io.viewbase.entity;

import io.viewbase.api.Stability;

/**
 * The condition of a conditional write: the item must still be at an ETag, or must match an OData
 * $filter over its stored fields. When it does not hold the write fails with 412 PreconditionFailed
 * and nothing is written. A filter is checked by reading the item with it and then writing at the
 * ETag read, so nothing can change in between.
 *
 * @param ifMatch an ETag the item must have, or null
 * @param where a filter the item must match, or null
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Condition(String ifMatch, String where) {
  public static final Condition NONE = new Condition(null, null);

  public static Condition ifMatch(String etag) {
    return new Condition(etag, null);
  }

  public static Condition where(String odataFilter) {
    return new Condition(null, odataFilter);
  }

  boolean none() {
    return ifMatch == null && where == null;
  }
}
