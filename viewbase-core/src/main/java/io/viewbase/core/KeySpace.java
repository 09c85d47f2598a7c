package io.viewbase.core;

import io.viewbase.api.Value;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import io.viewbase.filter.SystemProperty;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a filter that speaks about identity: an over-approximation of the (partition key, id)
 * pairs a filter can match, as a union of boxes (a partition-key interval times an id interval).
 * Over-approximation is what makes it safe: the planner reads only inside the boxes and still
 * evaluates the whole filter on every item it reads.
 *
 * <pre>
 * filter                               | boxes
 * -------------------------------------+---------------------------------------------------
 * PartitionKey eq 'a'                  | ['a','a'] x all
 * RowKey ge 'x' and RowKey lt 'y'      | all x ['x','y')
 * a and b                              | pairwise intersections of a's and b's boxes
 * a or b                               | a's boxes and b's boxes (all, if either is all)
 * not, other properties, other types   | all (no constraint)
 * false                                | none
 * </pre>
 *
 * Strings compare by code point, which is the UTF-8 byte order keys are stored in.
 */
final class KeySpace {
  /** Beyond this many boxes the planner gives up on key ranges. */
  static final int MAX_BOXES = 256;

  /** An interval of strings; a null bound is open. */
  record Range(String low, boolean lowInclusive, String high, boolean highInclusive) {
    static final Range ALL = new Range(null, true, null, true);

    static Range point(String s) {
      return new Range(s, true, s, true);
    }

    boolean isPoint() {
      return low != null && high != null && lowInclusive && highInclusive && low.equals(high);
    }

    boolean isAll() {
      return low == null && high == null;
    }

    boolean isEmpty() {
      if (low == null || high == null) {
        return false;
      }
      int c = compare(low, high);
      return c > 0 || (c == 0 && !(lowInclusive && highInclusive));
    }

    Range intersect(Range o) {
      String lo = low;
      boolean loInc = lowInclusive;
      if (o.low != null
          && (lo == null
              || compare(o.low, lo) > 0
              || (compare(o.low, lo) == 0 && !o.lowInclusive))) {
        lo = o.low;
        loInc = o.lowInclusive;
      }
      String hi = high;
      boolean hiInc = highInclusive;
      if (o.high != null
          && (hi == null
              || compare(o.high, hi) < 0
              || (compare(o.high, hi) == 0 && !o.highInclusive))) {
        hi = o.high;
        hiInc = o.highInclusive;
      }
      return new Range(lo, loInc, hi, hiInc);
    }

    /** The smallest range holding both. */
    Range hull(Range o) {
      String lo = low == null || o.low == null ? null : compare(low, o.low) <= 0 ? low : o.low;
      boolean loInc =
          lo == null || (lo.equals(low) && lowInclusive) || (lo.equals(o.low) && o.lowInclusive);
      String hi =
          high == null || o.high == null ? null : compare(high, o.high) >= 0 ? high : o.high;
      boolean hiInc =
          hi == null
              || (hi.equals(high) && highInclusive)
              || (hi.equals(o.high) && o.highInclusive);
      return new Range(lo, loInc, hi, hiInc);
    }

    /** Whether the two ranges overlap or touch, so that their union is one range. */
    boolean meets(Range o) {
      return !new Range(low, true, o.high, true).isEmpty()
          && !new Range(o.low, true, high, true).isEmpty()
          && (low == null
              || o.high == null
              || compare(low, o.high) < 0
              || lowInclusive
              || o.highInclusive)
          && (o.low == null
              || high == null
              || compare(o.low, high) < 0
              || o.lowInclusive
              || highInclusive);
    }

    @Override
    public String toString() {
      if (isPoint()) {
        return "'" + low + "'";
      }
      return (lowInclusive ? "[" : "(")
          + (low == null ? "-inf" : "'" + low + "'")
          + ", "
          + (high == null ? "+inf" : "'" + high + "'")
          + (highInclusive ? "]" : ")");
    }
  }

  /** Partition keys times ids. */
  record Box(Range partitionKeys, Range ids) {
    static final Box ALL = new Box(Range.ALL, Range.ALL);

    Box intersect(Box o) {
      return new Box(partitionKeys.intersect(o.partitionKeys), ids.intersect(o.ids));
    }

    boolean isEmpty() {
      return partitionKeys.isEmpty() || ids.isEmpty();
    }
  }

  private KeySpace() {}

  /** The boxes a filter can match; null when the filter does not constrain identity usefully. */
  static List<Box> boxes(Filter filter) {
    return extract(filter);
  }

  private static List<Box> extract(Filter f) {
    if (f instanceof Filter.And and) {
      List<Box> left = extract(and.left());
      List<Box> right = extract(and.right());
      if (left == null) {
        return right;
      }
      if (right == null) {
        return left;
      }
      List<Box> out = new ArrayList<>();
      for (Box a : left) {
        for (Box b : right) {
          Box both = a.intersect(b);
          if (!both.isEmpty()) {
            out.add(both);
          }
        }
      }
      return out.size() > MAX_BOXES ? null : out;
    } else if (f instanceof Filter.Or or) {
      List<Box> left = extract(or.left());
      List<Box> right = extract(or.right());
      if (left == null || right == null) {
        return null;
      }
      List<Box> out = new ArrayList<>(left);
      out.addAll(right);
      return out.size() > MAX_BOXES ? null : out;
    } else if (f instanceof Filter.Constant c) {
      return c.value() ? null : List.of();
    } else if (f instanceof Filter.Compare cmp && cmp.literal() instanceof Value.Str s) {
      var system = Filters.system(cmp.property());
      if (system.isEmpty() || system.get() == SystemProperty.TIMESTAMP) {
        return null;
      }
      Range range =
          switch (cmp.op()) {
            case EQ -> Range.point(s.value());
            case GT -> new Range(s.value(), false, null, true);
            case GE -> new Range(s.value(), true, null, true);
            case LT -> new Range(null, true, s.value(), false);
            case LE -> new Range(null, true, s.value(), true);
            case NE -> null;
          };
      if (range == null) {
        return null;
      }
      return List.of(
          system.get() == SystemProperty.PARTITION_KEY
              ? new Box(range, Range.ALL)
              : new Box(Range.ALL, range));
    }
    return null;
  }

  /** Orders strings by code point, which is UTF-8 byte order. */
  static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }
}
