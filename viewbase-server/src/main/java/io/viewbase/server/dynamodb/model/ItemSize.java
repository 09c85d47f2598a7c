package io.viewbase.server.dynamodb.model;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.util.Map;

/**
 * An item's size as DynamoDB counts it against its 400 KB limit (the developer guide's "Item sizes
 * and formats"): each attribute's name in UTF-8 bytes plus its value's size.
 *
 * <pre>
 * value      | size in bytes
 * -----------+-------------------------------------------------------------
 * S          | UTF-8 length
 * N          | ceil(significant digits / 2) + 1  (the guide: "approximately")
 * B          | raw length (not the base64 text)
 * BOOL, NULL | 1
 * M          | 3 + for each entry: name's UTF-8 length + value's size + 1
 * L          | 3 + for each element: value's size + 1
 * SS, NS, BS | the sum of the members' sizes, each as its scalar
 * </pre>
 *
 * The guide gives the Number rule only approximately; DynamoDB's exact encoding (digits in pairs
 * aligned to the decimal point) can differ from it by a byte. Sizes are {@code long}: a value
 * cannot overflow them however it was built.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class ItemSize {
  /** DynamoDB's limit on an item: 400 KB. */
  public static final int MAX_BYTES = 400 * 1024;

  static final String TOO_LARGE = "Item size has exceeded the maximum allowed size";
  static final String UPDATE_TOO_LARGE =
      "Item size to update has exceeded the maximum allowed size";

  private ItemSize() {}

  /** The size of an item: its attributes' names and values. */
  public static long of(Map<String, AttributeValue> item) {
    long size = 0;
    for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
      size += utf8Length(e.getKey()) + of(e.getValue());
    }
    return size;
  }

  /** The size of one value, without a name. */
  public static long of(AttributeValue value) {
    if (value instanceof AttributeValue.S s) {
      return utf8Length(s.value());
    } else if (value instanceof AttributeValue.N n) {
      return number(n.value());
    } else if (value instanceof AttributeValue.B b) {
      return b.length();
    } else if (value instanceof AttributeValue.Bool || value instanceof AttributeValue.Null) {
      return 1;
    } else if (value instanceof AttributeValue.M m) {
      long size = 3;
      for (Map.Entry<String, AttributeValue> e : m.value().entrySet()) {
        size += utf8Length(e.getKey()) + of(e.getValue()) + 1;
      }
      return size;
    } else if (value instanceof AttributeValue.L l) {
      long size = 3;
      for (AttributeValue element : l.value()) {
        size += of(element) + 1;
      }
      return size;
    } else if (value instanceof AttributeValue.SS ss) {
      long size = 0;
      for (String member : ss.value()) {
        size += utf8Length(member);
      }
      return size;
    } else if (value instanceof AttributeValue.NS ns) {
      long size = 0;
      for (BigDecimal member : ns.value()) {
        size += number(member);
      }
      return size;
    } else {
      long size = 0;
      for (AttributeValue.B member : ((AttributeValue.BS) value).value()) {
        size += member.length();
      }
      return size;
    }
  }

  /**
   * Refuses an item over 400 KB, as PutItem (and the writes of a batch or transaction) does.
   *
   * @throws ViewbaseException InvalidInput "Item size has exceeded the maximum allowed size"
   */
  public static void check(Map<String, AttributeValue> item) {
    if (of(item) > MAX_BYTES) {
      throw ViewbaseException.of(ErrorCode.InvalidInput, TOO_LARGE);
    }
  }

  /**
   * Refuses an item that an update would make larger than 400 KB.
   *
   * @throws ViewbaseException InvalidInput "Item size to update has exceeded the maximum allowed
   *     size"
   */
  public static void checkUpdated(Map<String, AttributeValue> item) {
    if (of(item) > MAX_BYTES) {
      throw ViewbaseException.of(ErrorCode.InvalidInput, UPDATE_TOO_LARGE);
    }
  }

  /** The number of bytes of a string in UTF-8, counted without encoding it. */
  public static long utf8Length(String s) {
    long bytes = 0;
    int length = s.length();
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        // A lone surrogate is encoded as '?' by Java's encoder, but JSON text cannot carry one
        // without an escape; count it as the three bytes its code unit would take.
        bytes += 3;
      }
    }
    return bytes;
  }

  private static long number(BigDecimal canonical) {
    int digits = canonical.signum() == 0 ? 1 : canonical.precision();
    return (digits + 1) / 2 + 1;
  }
}
