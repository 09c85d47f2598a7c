package io.viewbase.entity;

import io.viewbase.api.Stability;

/**
 * The type of an entity attribute: what a caller may give for it, and how it is stored.
 *
 * <pre>
 * type    | accepts (Java)                    | stored as
 * --------+-----------------------------------+------------------------------------------------
 * STRING  | CharSequence                      | string
 * NUMBER  | Number                            | int64 when integral (and within 2^53), else double
 * BOOLEAN | Boolean                           | boolean
 * ENUM    | String or a Java enum, in its set | string (the constant's name)
 * LIST    | List or array                     | array
 * MAP     | Map                               | object
 * SET     | Collection or array               | array without duplicates, first occurrence kept
 * ANY     | anything Jackson can map          | as converted
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum AttributeType {
  STRING,
  NUMBER,
  BOOLEAN,
  ENUM,
  LIST,
  MAP,
  SET,
  ANY
}
