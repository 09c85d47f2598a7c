package io.viewbase.server.dynamodb.model;

import io.viewbase.api.Stability;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One DynamoDB attribute value: a scalar (S, N, B, BOOL, NULL), a document (M, L) or a set (SS, NS,
 * BS). Values are immutable and compare by content: numbers by value ({@code 1.50} equals {@code
 * 1.5}), binaries by their bytes, sets ignoring order.
 *
 * <pre>
 * record | type() | holds                      | rules enforced on construction
 * -------+--------+----------------------------+---------------------------------------------
 * S      | S      | String                     | (empty allowed: only key attributes refuse it)
 * N      | N      | BigDecimal, canonical      | 38 digits; 1E-130 .. 9.99..E+125 or zero
 * B      | B      | bytes                      | (empty allowed, as for S)
 * Bool   | BOOL   | boolean                    |
 * Null   | NULL   | nothing                    |
 * M      | M      | names to values, in order  |
 * L      | L      | values, in order           |
 * SS     | SS     | strings                    | not empty
 * NS     | NS     | canonical numbers          | not empty; each number as for N
 * BS     | BS     | binary values              | not empty
 * </pre>
 *
 * Duplicates in a set are refused where a set is read from a request ({@link AttributeValues}); the
 * records take sets, which hold no duplicates by construction.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public sealed interface AttributeValue
    permits AttributeValue.S,
        AttributeValue.N,
        AttributeValue.B,
        AttributeValue.Bool,
        AttributeValue.Null,
        AttributeValue.M,
        AttributeValue.L,
        AttributeValue.SS,
        AttributeValue.NS,
        AttributeValue.BS {

  /** DynamoDB's data type descriptor: S, N, B, BOOL, NULL, M, L, SS, NS or BS. */
  String type();

  /** A string. */
  record S(String value) implements AttributeValue {
    public S {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String type() {
      return "S";
    }
  }

  /** A number, held in its canonical form: trailing zeros stripped, zero as {@code 0}. */
  record N(BigDecimal value) implements AttributeValue {
    /**
     * @throws io.viewbase.api.ViewbaseException InvalidInput, with DynamoDB's message, when the
     *     number has more than 38 significant digits or its magnitude is out of range
     */
    public N {
      value = Numbers.canonical(Objects.requireNonNull(value, "value"));
    }

    /**
     * Reads DynamoDB's number text ({@code "1.50"}, {@code "-1E+2"}, {@code ".5"}).
     *
     * @throws io.viewbase.api.ViewbaseException InvalidInput, with DynamoDB's message, for text
     *     that is not a number or a number out of range
     */
    public static N parse(String text) {
      return new N(Numbers.parse(text));
    }

    public static N of(long value) {
      return new N(BigDecimal.valueOf(value));
    }

    /** The number as DynamoDB answers it: plain digits, no exponent ({@code 1E+2} is "100"). */
    public String text() {
      return Numbers.text(value);
    }

    @Override
    public String type() {
      return "N";
    }

    @Override
    public String toString() {
      return "N[" + text() + "]";
    }
  }

  /** A binary value. The bytes are copied in and out; equality and hashing use the content. */
  record B(byte[] value) implements AttributeValue, Comparable<B> {
    public B {
      value = Objects.requireNonNull(value, "value").clone();
    }

    @Override
    public byte[] value() {
      return value.clone();
    }

    public int length() {
      return value.length;
    }

    /** The bytes in standard base64 with padding, as DynamoDB JSON carries them. */
    public String base64() {
      return Base64.getEncoder().encodeToString(value);
    }

    /** Whether this value's bytes begin with the other's. */
    public boolean startsWith(B prefix) {
      return prefix.value.length <= value.length
          && Arrays.equals(value, 0, prefix.value.length, prefix.value, 0, prefix.value.length);
    }

    /** DynamoDB's order of binaries: bytewise, each byte unsigned. */
    @Override
    public int compareTo(B other) {
      return Arrays.compareUnsigned(value, other.value);
    }

    @Override
    public String type() {
      return "B";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof B other && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
      return "B[" + base64() + "]";
    }
  }

  /** A boolean. */
  record Bool(boolean value) implements AttributeValue {
    public static final Bool TRUE = new Bool(true);
    public static final Bool FALSE = new Bool(false);

    @Override
    public String type() {
      return "BOOL";
    }
  }

  /** The null value ({@code {"NULL": true}}); all instances are equal. */
  record Null() implements AttributeValue {
    public static final Null INSTANCE = new Null();

    @Override
    public String type() {
      return "NULL";
    }
  }

  /** A map of names to values; the order given is kept (DynamoDB itself promises none). */
  record M(Map<String, AttributeValue> value) implements AttributeValue {
    public M {
      value = Collections.unmodifiableMap(new LinkedHashMap<>(value));
    }

    @Override
    public String type() {
      return "M";
    }
  }

  /** A list of values. */
  record L(List<AttributeValue> value) implements AttributeValue {
    public L {
      value = List.copyOf(value);
    }

    @Override
    public String type() {
      return "L";
    }
  }

  /** A non-empty set of strings. */
  record SS(Set<String> value) implements AttributeValue {
    /**
     * @throws io.viewbase.api.ViewbaseException InvalidInput, DynamoDB's message, when empty
     */
    public SS {
      value = ordered(value, AttributeValues.EMPTY_SS);
    }

    public static SS of(String... members) {
      return new SS(new LinkedHashSet<>(Arrays.asList(members)));
    }

    @Override
    public String type() {
      return "SS";
    }
  }

  /** A non-empty set of numbers, each canonical. */
  record NS(Set<BigDecimal> value) implements AttributeValue {
    /**
     * @throws io.viewbase.api.ViewbaseException InvalidInput, DynamoDB's message, when empty or
     *     when a member is out of range
     */
    public NS {
      Set<BigDecimal> canonical = new LinkedHashSet<>();
      for (BigDecimal member : value) {
        canonical.add(Numbers.canonical(member));
      }
      value = ordered(canonical, AttributeValues.EMPTY_NS);
    }

    /** The members as DynamoDB answers them. */
    public List<String> texts() {
      return value.stream().map(Numbers::text).toList();
    }

    @Override
    public String type() {
      return "NS";
    }
  }

  /** A non-empty set of binary values. */
  record BS(Set<B> value) implements AttributeValue {
    /**
     * @throws io.viewbase.api.ViewbaseException InvalidInput, DynamoDB's message, when empty
     */
    public BS {
      value = ordered(value, AttributeValues.EMPTY_BS);
    }

    @Override
    public String type() {
      return "BS";
    }
  }

  private static <T> Set<T> ordered(Collection<T> members, String emptyMessage) {
    if (members.isEmpty()) {
      throw AttributeValues.invalid(emptyMessage);
    }
    for (T member : members) {
      Objects.requireNonNull(member, "set member");
    }
    return Collections.unmodifiableSet(new LinkedHashSet<>(members));
  }
}
