package io.viewbase.filter;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code $filter} language of Azure Tables: parse text into a {@link Filter}, print it back,
 * evaluate it on an item, and list what it reads. The grammar, literal forms, comparison rules and
 * limits are in {@code docs/filter.md}.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Filters {
  /** The longest filter text accepted, in characters. */
  public static final int MAX_LENGTH = 32 * 1024;

  /**
   * The most conditions (comparisons, boolean properties and constants) in one filter. Azure allows
   * 15; a larger cap serves long {@code or} lists of keys while keeping evaluation bounded.
   */
  public static final int MAX_CONDITIONS = 1000;

  /** How deep parentheses and {@code not} may nest; it bounds the parser's recursion. */
  public static final int MAX_DEPTH = 100;

  private Filters() {}

  /**
   * Parses filter text.
   *
   * @throws ViewbaseException {@link ErrorCode#InvalidFilter} when the text does not parse or is
   *     over a limit; the message names what was expected and the 0-based position ("expected ')'
   *     at 17, found end of filter"), and the context carries {@code position} (and {@code
   *     expected}, {@code found} for syntax errors)
   */
  public static Filter parse(String text) {
    return parse(text, FilterDialect.NATIVE);
  }

  /**
   * Parses filter text written for an API's dialect: {@link FilterDialect#AZURE} reads {@code id},
   * {@code partitionKey} and names starting with '_' as the user properties Viewbase stores as
   * {@code $id}, {@code $partitionKey}, {@code $_x}, and the AST holds those stored names. Print
   * the result ({@link #print}) to hand it on as native text with the same meaning.
   *
   * @throws ViewbaseException {@link ErrorCode#InvalidFilter}, as {@link #parse(String)}
   */
  public static Filter parse(String text, FilterDialect dialect) {
    Objects.requireNonNull(dialect, "dialect");
    if (text == null) {
      throw ViewbaseException.of(ErrorCode.InvalidFilter, "a filter is required");
    }
    if (text.length() > MAX_LENGTH) {
      throw SyntaxErrors.invalid(
          "filter longer than " + MAX_LENGTH + " characters", MAX_LENGTH, null);
    }
    return new Parser(text, dialect).parseFilter();
  }

  /**
   * The canonical native text of a filter; {@code parse(print(f)).equals(f)} for any filter within
   * the limits, whichever dialect it was parsed in (names are stored names, so {@code $id} prints
   * as is).
   */
  public static String print(Filter filter) {
    return Printer.print(Objects.requireNonNull(filter, "filter"));
  }

  /**
   * Both filters: their conjunction as one tree, or the one that is not null (null when both are).
   * Filters that come from different parties (a user's and the range a token allows, an entity's
   * identity and an application's condition) are combined this way, after parsing, never by joining
   * their text: a text such as {@code x eq 1) or (true} would otherwise escape the other.
   */
  /**
   * The filter text of a table's items after the key {@code (partitionKey, id)} in key order, which
   * the planner turns into key ranges: a scan resumes with it from a key it did not issue a
   * continuation for (a DynamoDB {@code ExclusiveStartKey}, a stored position).
   */
  public static String after(String partitionKey, String id) {
    String pk = Literals.print(new Value.Str(partitionKey));
    return "(PartitionKey eq "
        + pk
        + " and RowKey gt "
        + Literals.print(new Value.Str(id))
        + ") or PartitionKey gt "
        + pk;
  }

  public static Filter and(Filter a, Filter b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : new Filter.And(a, b);
  }

  /**
   * Whether an item matches. The names of {@link SystemProperty} read {@code partitionKey}, {@code
   * id} and {@code timestamp} (each may be null, which counts as missing); every other name reads
   * {@code properties}, where an absent name or a {@link Value.Null} is missing. A comparison on a
   * missing property is false, whatever the operator.
   */
  public static boolean matches(
      Filter f, String partitionKey, String id, Instant timestamp, Map<String, Value> properties) {
    return PreparedFilter.of(f).matches(partitionKey, id, timestamp, properties);
  }

  /**
   * Whether {@code actual op literal} holds under the filter's typed comparison rules (null or
   * {@link Value.Null} as {@code actual} is missing, and never matches). For callers that evaluate
   * conditions themselves, such as a planner checking key bounds.
   */
  public static boolean test(Value actual, Filter.Op op, Value literal) {
    return ValueOrder.test(
        actual, Objects.requireNonNull(op, "op"), Objects.requireNonNull(literal, "literal"));
  }

  /**
   * Orders two strings the way filters do: by Unicode code point, which is also the order of their
   * UTF-8 bytes and so of keys in storage. Returns -1, 0 or 1.
   */
  public static int compareStrings(String a, String b) {
    return ValueOrder.compareStrings(a, b);
  }

  /**
   * {@link #compareStrings} of a string held as UTF-8 bytes, {@code utf8[offset, offset + length)},
   * and one given as all of {@code literalUtf8}: for testing stored strings without decoding them.
   */
  public static int compareUtf8(byte[] utf8, int offset, int length, byte[] literalUtf8) {
    return ValueOrder.compareUtf8(utf8, offset, length, literalUtf8);
  }

  /** The property names a filter reads, as written, in order of first appearance. */
  public static Set<String> properties(Filter f) {
    Set<String> names = new LinkedHashSet<>();
    collect(Objects.requireNonNull(f, "filter"), names);
    return Collections.unmodifiableSet(names);
  }

  /**
   * The system property a name means, if any.
   *
   * <table>
   *   <caption>Names</caption>
   *   <tr><th>name</th><th>result</th></tr>
   *   <tr><td>{@code PartitionKey}, {@code partitionKey}</td><td>PARTITION_KEY</td></tr>
   *   <tr><td>{@code RowKey}, {@code id}</td><td>ID</td></tr>
   *   <tr><td>{@code Timestamp}, {@code _timestamp}</td><td>TIMESTAMP</td></tr>
   *   <tr><td>anything else (names are case-sensitive)</td><td>empty: a user property</td></tr>
   * </table>
   */
  public static Optional<SystemProperty> system(String name) {
    if (name == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        switch (name) {
          case "PartitionKey", "partitionKey" -> SystemProperty.PARTITION_KEY;
          case "RowKey", "id" -> SystemProperty.ID;
          case "Timestamp", "_timestamp" -> SystemProperty.TIMESTAMP;
          default -> null;
        });
  }

  private static void collect(Filter f, Set<String> names) {
    if (f instanceof Filter.And and) {
      collect(and.left(), names);
      collect(and.right(), names);
    } else if (f instanceof Filter.Or or) {
      collect(or.left(), names);
      collect(or.right(), names);
    } else if (f instanceof Filter.Not not) {
      collect(not.inner(), names);
    } else if (f instanceof Filter.Compare compare) {
      names.add(compare.property());
    } else if (f instanceof Filter.BoolProperty bool) {
      names.add(bool.property());
    }
  }
}
