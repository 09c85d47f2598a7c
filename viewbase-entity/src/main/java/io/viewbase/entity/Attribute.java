package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One attribute of an entity: its name, type and rules. Built with the static constructors and the
 * {@code with}-style methods, each of which returns a new attribute: {@code
 * Attribute.string("email").required().validate(e -> e.toString().contains("@"), "an e-mail
 * address")}.
 *
 * @param name the name callers use (a Java record component or map key)
 * @param type what values it accepts and how they are stored
 * @param enumValues for {@link AttributeType#ENUM}, the allowed values
 * @param isRequired a create or put without it is refused
 * @param defaults supplies a value when a create or put lacks one (null: none)
 * @param validator a check on the value (null: none); a false result is an InvalidInput error
 * @param validation what the validator expects, for the error message
 * @param isReadOnly set when the item is created, never changed by a patch or update
 * @param isHidden stored, but never returned to callers
 * @param field the stored property name (default: the name)
 * @param label the key label (default: the name lower-cased)
 * @param padding width that key values are left-padded to with zeros (0: none)
 * @param getter applied to the stored value when read (null: identity)
 * @param setter applied to the given value before it is validated and stored (null: identity)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Attribute(
    String name,
    AttributeType type,
    List<String> enumValues,
    boolean isRequired,
    Supplier<Object> defaults,
    Predicate<Object> validator,
    String validation,
    boolean isReadOnly,
    boolean isHidden,
    String field,
    String label,
    int padding,
    UnaryOperator<Object> getter,
    UnaryOperator<Object> setter) {

  public Attribute {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    enumValues = enumValues == null ? List.of() : List.copyOf(enumValues);
    field = field == null ? name : field;
    label = label == null ? name.toLowerCase(Locale.ROOT) : label;
  }

  public static Attribute of(String name, AttributeType type) {
    return new Attribute(
        name, type, List.of(), false, null, null, null, false, false, null, null, 0, null, null);
  }

  public static Attribute string(String name) {
    return of(name, AttributeType.STRING);
  }

  public static Attribute number(String name) {
    return of(name, AttributeType.NUMBER);
  }

  public static Attribute bool(String name) {
    return of(name, AttributeType.BOOLEAN);
  }

  public static Attribute enumOf(String name, String... values) {
    return of(name, AttributeType.ENUM).withEnumValues(Arrays.asList(values));
  }

  public static <E extends Enum<E>> Attribute enumOf(String name, Class<E> values) {
    return enumOf(
        name, Arrays.stream(values.getEnumConstants()).map(Enum::name).toArray(String[]::new));
  }

  public static Attribute list(String name) {
    return of(name, AttributeType.LIST);
  }

  public static Attribute map(String name) {
    return of(name, AttributeType.MAP);
  }

  public static Attribute set(String name) {
    return of(name, AttributeType.SET);
  }

  public static Attribute any(String name) {
    return of(name, AttributeType.ANY);
  }

  public Attribute withEnumValues(List<String> values) {
    return new Attribute(
        name,
        type,
        values,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        label,
        padding,
        getter,
        setter);
  }

  public Attribute required() {
    return new Attribute(
        name,
        type,
        enumValues,
        true,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        label,
        padding,
        getter,
        setter);
  }

  /** A constant default value. */
  public Attribute defaultValue(Object value) {
    return defaultValue(() -> value);
  }

  /** A default computed for each new item (an id generator, a clock). */
  public Attribute defaultValue(Supplier<Object> supplier) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        supplier,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        label,
        padding,
        getter,
        setter);
  }

  /** A check on each value written; {@code expectation} completes "must be ..." in the error. */
  public Attribute validate(Predicate<Object> check, String expectation) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        check,
        expectation,
        isReadOnly,
        isHidden,
        field,
        label,
        padding,
        getter,
        setter);
  }

  public Attribute readOnly() {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        true,
        isHidden,
        field,
        label,
        padding,
        getter,
        setter);
  }

  public Attribute hidden() {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        true,
        field,
        label,
        padding,
        getter,
        setter);
  }

  public Attribute field(String storedName) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        storedName,
        label,
        padding,
        getter,
        setter);
  }

  public Attribute label(String keyLabel) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        keyLabel,
        padding,
        getter,
        setter);
  }

  /**
   * Left-pads key values with zeros to this width, so that non-negative integers sort numerically.
   */
  public Attribute padding(int width) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        label,
        width,
        getter,
        setter);
  }

  public Attribute get(UnaryOperator<Object> onRead) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        label,
        padding,
        onRead,
        setter);
  }

  public Attribute set(UnaryOperator<Object> onWrite) {
    return new Attribute(
        name,
        type,
        enumValues,
        isRequired,
        defaults,
        validator,
        validation,
        isReadOnly,
        isHidden,
        field,
        label,
        padding,
        getter,
        onWrite);
  }
}
