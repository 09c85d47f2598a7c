package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The constraint checks DynamoDB makes of a request's members before it looks at their meaning,
 * collected as DynamoDB collects them (at most ten) and refused as one ValidationException:
 *
 * <pre>
 * 2 validation errors detected: Value null at 'tableName' failed to satisfy constraint: Member must
 * not be null; Value '0' at 'limit' failed to satisfy constraint: Member must have value greater
 * than or equal to 1
 * </pre>
 *
 * A path is the member's name with a lower-case first letter, its parents' before it and list
 * positions counted from 1 ({@code globalSecondaryIndexes.1.member.indexName}).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Violations {
  private static final int MAX = 10;
  private final List<String> found = new ArrayList<>();

  /** Adds a violation of {@code constraint} (DynamoDB's words) by {@code value} at {@code path}. */
  public Violations add(Object value, String path, String constraint) {
    if (found.size() < MAX) {
      found.add(
          "Value "
              + shown(value)
              + " at '"
              + path
              + "' failed to satisfy constraint: "
              + constraint);
    }
    return this;
  }

  /** A member that must be given. */
  public Violations notNull(Object value, String path) {
    return value == null ? add(null, path, "Member must not be null") : this;
  }

  /** A string's length (or a list's size) within bounds; nothing for an absent member. */
  public Violations length(Object value, String path, int min, int max) {
    int length =
        value instanceof String s ? s.length() : value instanceof List<?> l ? l.size() : -1;
    if (length < 0) {
      return this;
    }
    if (length < min) {
      add(value, path, "Member must have length greater than or equal to " + min);
    }
    if (length > max) {
      add(value, path, "Member must have length less than or equal to " + max);
    }
    return this;
  }

  /** A string matching a pattern (DynamoDB's, as it shows it); nothing for an absent member. */
  public Violations pattern(String value, String path, Pattern pattern, String shown) {
    if (value != null && !pattern.matcher(value).matches()) {
      add(value, path, "Member must satisfy regular expression pattern: " + shown);
    }
    return this;
  }

  /** A string of an enumeration; nothing for an absent member. */
  public Violations oneOf(String value, String path, List<String> allowed) {
    if (value != null && !allowed.contains(value)) {
      add(value, path, "Member must satisfy enum value set: [" + String.join(", ", allowed) + "]");
    }
    return this;
  }

  /** A number within bounds; nothing for an absent member. */
  public Violations range(Long value, String path, long min, long max) {
    if (value == null) {
      return this;
    }
    if (value < min) {
      add(value, path, "Member must have value greater than or equal to " + min);
    }
    if (value > max) {
      add(value, path, "Member must have value less than or equal to " + max);
    }
    return this;
  }

  /** Whether any constraint failed. */
  public boolean any() {
    return !found.isEmpty();
  }

  /** Refuses the request if any constraint failed. */
  public void check() {
    if (found.isEmpty()) {
      return;
    }
    throw new ViewbaseException(
        ErrorCode.ValidationFailure,
        found.size()
            + " validation error"
            + (found.size() > 1 ? "s" : "")
            + " detected: "
            + String.join("; ", found));
  }

  /** A value as DynamoDB shows it in a violation: null bare, anything else quoted. */
  private static String shown(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof List<?> l) {
      List<String> parts = new ArrayList<>();
      for (Object o : l) {
        parts.add(String.valueOf(o));
      }
      return "'[" + String.join(", ", parts) + "]'";
    }
    return "'" + value + "'";
  }

  /** A path's member: the name with a lower-case first letter, after its parent's path. */
  public static String path(String parent, String member) {
    String name = Character.toLowerCase(member.charAt(0)) + member.substring(1);
    return parent == null || parent.isEmpty() ? name : parent + "." + name;
  }
}
