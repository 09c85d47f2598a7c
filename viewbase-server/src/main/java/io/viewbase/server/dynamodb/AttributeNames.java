package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Stability;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.ViewbaseException;

/**
 * How a DynamoDB attribute name becomes a Viewbase property name and back: the one rule of every
 * DynamoDB operation (items, keys, key schemas, projections, the names in expressions). It is
 * {@link PropertyName#escaped}, the Azure dialect's rule, with one more escape:
 *
 * <pre>
 * DynamoDB attribute                  | stored property  | why
 * ------------------------------------+------------------+------------------------------------------
 * id, partitionKey                    | $id, $partitionKey | Viewbase's identity fields have these names
 * _x (any name starting with '_',     | $_x              | '_' starts Viewbase's system fields; _ttl
 *   _ttl included)                    |                  |   is escaped too (unlike Azure's), since
 *                                     |                  |   DynamoDB's time-to-live is an attribute
 *                                     |                  |   the table names, holding epoch seconds
 * $id, $partitionKey, $_x, $_ttl      | refused          | the escapes above hold those names
 * empty; with '@', a control character | refused         | no Viewbase property may have such a name
 *   or an unpaired surrogate; longer  |                  |   (DynamoDB allows 64 KiB names)
 *   than 255 characters once stored   |                  |
 * anything else, '$x' included        | unchanged        |
 * </pre>
 *
 * A refusal is {@link ErrorCode#InvalidPropertyName}, which the dialect answers as DynamoDB's
 * {@code ValidationException}; its {@code property} context is the attribute name. The names are
 * top-level ones: inside a map (a {@code M} value) every name is allowed as the engine allows it in
 * an object, and is stored unchanged.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class AttributeNames {
  private static final String TTL_ESCAPE = PropertyName.ESCAPE + TimeToLive.PROPERTY;

  private AttributeNames() {}

  /** The stored property of a top-level attribute, with the default name limit (255). */
  public static String property(String attribute) {
    return property(attribute, Limits.DEFAULT.maxPropertyNameLength());
  }

  /**
   * The stored property of a top-level attribute; refuses one no property can hold (the table
   * above), with {@code maxLength} the database's longest property name.
   */
  public static String property(String attribute, int maxLength) {
    if (PropertyName.isEscape(attribute) || attribute.equals(TTL_ESCAPE)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidPropertyName,
          "Viewbase cannot store an attribute whose name is '$' and a name it reserves: "
              + "that name holds the attribute without the '$'",
          "property",
          attribute);
    }
    String stored =
        attribute.equals(TimeToLive.PROPERTY) ? TTL_ESCAPE : PropertyName.escaped(attribute);
    PropertyName.check(stored, true, maxLength);
    return stored;
  }

  /** The attribute name of a stored property: the inverse of {@link #property}. */
  public static String attribute(String property) {
    return property.equals(TTL_ESCAPE) ? TimeToLive.PROPERTY : PropertyName.unescaped(property);
  }
}
