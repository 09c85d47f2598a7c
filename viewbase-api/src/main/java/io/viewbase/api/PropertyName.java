package io.viewbase.api;

/**
 * What may name a user property: the one copy of the rule that the engine applies to every write
 * and that each interface applies (or maps its own names onto) before it gets there.
 *
 * <pre>
 * name                                              | top level          | inside an object
 * --------------------------------------------------+--------------------+-----------------
 * empty                                             | refused            | refused
 * longer than the limit (characters, UTF-16 units)  | refused            | refused
 * starting with '_' (system properties: _etag, ...) | refused (reserved) | allowed
 *   but _ttl (an item's own time-to-live)           | allowed            | allowed
 * partitionKey, id (the item's identity)            | refused (reserved) | allowed
 * with '@' (JSON type annotations use it), a        | refused            | refused
 *   control character or an unpaired surrogate     |                    |
 * anything else, '$' included                       | allowed            | allowed
 * </pre>
 *
 * A refusal is {@link ErrorCode#InvalidPropertyName}; its {@code property} context is the name,
 * {@link #shortened} when it is long. The entity layer refuses reserved names as attribute fields
 * when an entity is defined.
 *
 * <p>Protocols whose property names include Viewbase's reserved ones as ordinary names (on Azure
 * and on DynamoDB, {@code id} and {@code _x} are common) store such a name {@link #escaped}: with
 * {@value #ESCAPE} in front, which makes it an ordinary Viewbase name, and read it back {@link
 * #unescaped}. One rule for every such protocol, so an item written through one reads the same
 * through the other:
 *
 * <pre>
 * the protocol's name                     | stored as               | read back as
 * ----------------------------------------+-------------------------+-------------------------
 * reserved here: id, partitionKey, _x     | $id, $partitionKey, $_x | id, partitionKey, _x
 * _ttl (an item's own time-to-live)       | _ttl                    | _ttl
 * an escape itself: $id, $partitionKey,   | refused by the protocol (Azure refuses every '$'),
 *   $_x                                   |   or two of its names would share a stored name
 * anything else, $other included          | unchanged               | unchanged
 * </pre>
 *
 * A protocol may escape a name more: the DynamoDB dialect escapes {@code _ttl} too, as {@code
 * $_ttl}, since DynamoDB's time-to-live is an attribute the table names, never Viewbase's own; it
 * then refuses {@code $_ttl} as well.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class PropertyName {
  /** The identity field naming an item's partition key. */
  public static final String PARTITION_KEY = "partitionKey";

  /** The identity field naming an item's id within its partition. */
  public static final String ID = "id";

  /** What {@link #escaped} puts in front of a reserved name. */
  public static final String ESCAPE = "$";

  /** How many characters of a long name an error's context keeps. */
  private static final int SHOWN = 64;

  private PropertyName() {}

  /**
   * Whether a top-level property may not have this name: it starts with '_' (system properties) or
   * is {@code partitionKey} or {@code id} (the identity). {@code _ttl} ({@link
   * TimeToLive#PROPERTY}) is no system property but the user's: an item's own time-to-live.
   */
  public static boolean isReserved(String name) {
    return name.startsWith("_") && !name.equals(TimeToLive.PROPERTY)
        || name.equals(PARTITION_KEY)
        || name.equals(ID);
  }

  /**
   * The stored name of a property named {@code name} by a protocol where Viewbase's reserved names
   * are ordinary ones: {@value #ESCAPE} and the name for a {@link #isReserved reserved} one, the
   * name itself otherwise. The protocol must never pass on a name that {@link #isEscape is an
   * escape}.
   */
  public static String escaped(String name) {
    return isReserved(name) ? ESCAPE + name : name;
  }

  /**
   * The protocol's name of a stored property, the inverse of {@link #escaped}: an escape loses its
   * {@value #ESCAPE}; any other name ({@code $other}, written natively) is itself.
   */
  public static String unescaped(String stored) {
    return isEscape(stored) ? stored.substring(ESCAPE.length()) : stored;
  }

  /** Whether a name is the escape of a reserved name ({@code $id}, {@code $_x}). */
  public static boolean isEscape(String name) {
    return name.startsWith(ESCAPE) && isReserved(name.substring(ESCAPE.length()));
  }

  /**
   * Refuses a name the table above refuses, with {@link ErrorCode#InvalidPropertyName}; {@code
   * topLevel} says whether the name is an item's own property (where reserved names are refused) or
   * one inside an object.
   */
  public static void check(String name, boolean topLevel, int maxLength) {
    if (name == null || name.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidPropertyName, "A property name must not be empty");
    }
    checkLength(name, maxLength);
    if (topLevel && isReserved(name)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidPropertyName,
          "Property names starting with '_' (but _ttl) and the names partitionKey and id are reserved",
          "property",
          name);
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isISOControl(c) || c == '@' || Character.isSurrogate(c) && !pairedAt(name, i)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidPropertyName,
            "A property name contains a control character, an unpaired surrogate or '@'",
            "property",
            shortened(name));
      }
    }
  }

  /**
   * Refuses a name longer than {@code maxLength} characters (UTF-16 units), naming the limit, with
   * the name {@link #shortened}, its length and the limit as context.
   */
  public static void checkLength(String name, int maxLength) {
    if (name.length() > maxLength) {
      throw ViewbaseException.of(
          ErrorCode.InvalidPropertyName,
          "A property name is longer than " + maxLength + " characters",
          "property",
          shortened(name),
          "length",
          name.length(),
          "maxPropertyNameLength",
          maxLength);
    }
  }

  /**
   * A name for an error's context: whole up to 64 characters, else its first 64 (63 when the 64th
   * would split a surrogate pair) and an ellipsis.
   */
  public static String shortened(String name) {
    if (name.length() <= SHOWN) {
      return name;
    }
    int end = Character.isHighSurrogate(name.charAt(SHOWN - 1)) ? SHOWN - 1 : SHOWN;
    return name.substring(0, end) + "…";
  }

  private static boolean pairedAt(String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
