package io.viewbase.storage.spi;

import java.util.Arrays;

/** A range of sort keys within one partition, compared as unsigned bytes. A null bound is open. */
public record KeyRange(byte[] lower, boolean lowerInclusive, byte[] upper, boolean upperInclusive) {
  public static final KeyRange ALL = new KeyRange(null, true, null, false);

  /** Keys in [from, to). */
  public static KeyRange halfOpen(byte[] from, byte[] to) {
    return new KeyRange(from, true, to, false);
  }

  /** Keys that start with {@code prefix}. */
  public static KeyRange prefix(byte[] prefix) {
    return new KeyRange(prefix, true, Bytes.prefixEnd(prefix), false);
  }

  public boolean contains(byte[] key) {
    if (lower != null) {
      int c = Arrays.compareUnsigned(key, lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = Arrays.compareUnsigned(key, upper);
      return c < 0 || (c == 0 && upperInclusive);
    }
    return true;
  }

  /** Whether no key can fall in this range. */
  public boolean isEmpty() {
    if (lower == null || upper == null) {
      return false;
    }
    int c = Arrays.compareUnsigned(lower, upper);
    return c > 0 || (c == 0 && !(lowerInclusive && upperInclusive));
  }

  /** The part of this range strictly above {@code key} (ascending resume). */
  public KeyRange after(byte[] key) {
    if (lower != null && Arrays.compareUnsigned(lower, key) > 0) {
      return this;
    }
    return new KeyRange(key, false, upper, upperInclusive);
  }

  /** The part of this range strictly below {@code key} (descending resume). */
  public KeyRange before(byte[] key) {
    if (upper != null && Arrays.compareUnsigned(upper, key) < 0) {
      return this;
    }
    return new KeyRange(lower, lowerInclusive, key, false);
  }

  @Override
  public String toString() {
    return (lowerInclusive ? "[" : "(")
        + Bytes.toDisplay(lower)
        + ", "
        + Bytes.toDisplay(upper)
        + (upperInclusive ? "]" : ")");
  }
}
