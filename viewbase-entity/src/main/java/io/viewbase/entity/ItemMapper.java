package io.viewbase.entity;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns an entity's Java values into stored properties and back, applying the attribute rules.
 * Every check runs before anything is written, so a refused write changes nothing.
 *
 * <pre>
 * write             | defaults | required | readOnly, primary composites | type, enum, validate
 * ------------------+----------+----------+------------------------------+---------------------
 * create, put       | applied  | checked  | -                            | checked
 * patch, update     | -        | no removal | refused if given           | checked on what is given
 * key (get, query)  | -        | -        | -                            | type checked
 * </pre>
 */
final class ItemMapper<T> {
  private static final Pattern FIELD = Pattern.compile("[\\p{L}][\\p{L}\\p{N}_]*");

  private final Entity<T> entity;
  private final Map<String, Attribute> byName;
  private final Map<String, Attribute> byField = new LinkedHashMap<>();

  ItemMapper(Entity<T> entity, Map<String, Attribute> attributes) {
    this.entity = entity;
    this.byName = new LinkedHashMap<>(attributes);
    attributes.values().forEach(a -> byField.put(a.field(), a));
  }

  Collection<Attribute> declared() {
    return java.util.Collections.unmodifiableCollection(byName.values());
  }

  boolean schemaless() {
    return Map.class.isAssignableFrom(entity.type());
  }

  /** The attributes of a Java item, by attribute name; nulls are absent attributes. */
  Map<String, Object> attributesOf(T value) {
    if (value == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "An item of '" + entity.name() + "' must not be null",
          "entity",
          entity.name());
    }
    Map<String, Object> raw;
    if (value instanceof Map<?, ?> m) {
      raw = new LinkedHashMap<>();
      m.forEach((k, v) -> raw.put(String.valueOf(k), v));
    } else {
      @SuppressWarnings("unchecked")
      Map<String, Object> converted = Json.MAPPER.convertValue(value, LinkedHashMap.class);
      raw = converted;
    }
    raw.values().removeIf(java.util.Objects::isNull);
    return raw;
  }

  /** A Java item from attributes by name. */
  @SuppressWarnings("unchecked")
  T toJava(Map<String, Object> attributes) {
    if (schemaless()) {
      return (T) attributes;
    }
    try {
      return Json.MAPPER.convertValue(attributes, entity.type());
    } catch (IllegalArgumentException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidValue,
          "A stored item of '"
              + entity.name()
              + "' does not map to "
              + entity.type().getSimpleName()
              + ": "
              + e.getMessage(),
          "entity",
          entity.name());
    }
  }

  /**
   * Every attribute of a new or replaced item, by name: set transforms, defaults, required, types,
   * validation.
   */
  Map<String, Value> whole(Map<String, Object> given) {
    Map<String, Value> out = new LinkedHashMap<>();
    for (Attribute a : byName.values()) {
      Object v = given.get(a.name());
      if (a.setter() != null) {
        v = a.setter().apply(v);
      }
      if (v == null && a.defaults() != null) {
        v = a.defaults().get();
      }
      if (v == null) {
        if (a.isRequired()) {
          throw error(a, "is required", null);
        }
        continue;
      }
      out.put(a.name(), checked(a, v));
    }
    undeclared(given, out);
    return out;
  }

  /** The attributes a patch or update sets, by name; removals are checked to be allowed. */
  Map<String, Value> changes(Map<String, Object> set, Collection<String> remove) {
    Set<String> primaryComposites = new java.util.HashSet<>();
    entity.primary().pk().composites().forEach(a -> primaryComposites.add(a.name()));
    entity.primary().sk().composites().forEach(a -> primaryComposites.add(a.name()));
    Map<String, Value> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : set.entrySet()) {
      Attribute a = byName.get(e.getKey());
      if (a == null) {
        continue;
      }
      if (primaryComposites.contains(a.name())) {
        throw error(
            a,
            "is part of the primary key, which is the item's identity and never changes "
                + "(to move an item, create the new one and delete the old one in a transaction)",
            null);
      }
      if (a.isReadOnly()) {
        throw error(a, "is read-only: it is set when the item is created and never changed", null);
      }
      Object v = a.setter() == null ? e.getValue() : a.setter().apply(e.getValue());
      if (v == null) {
        throw error(a, "cannot be set to null in a patch; remove it instead", null);
      }
      out.put(a.name(), checked(a, v));
    }
    undeclared(set, out);
    for (String name : remove) {
      Attribute a = byName.get(name);
      if (a != null && (a.isRequired() || a.isReadOnly() || primaryComposites.contains(name))) {
        throw error(
            a, "cannot be removed: it is " + (a.isRequired() ? "required" : "read-only"), null);
      }
    }
    return out;
  }

  /**
   * Key attributes given to a get, delete or query, by name: set transforms and type checks only.
   */
  Map<String, Value> keyValues(Map<String, ?> key) {
    Map<String, Value> out = new LinkedHashMap<>();
    key.forEach(
        (name, value) -> {
          Attribute a = byName.get(name);
          if (a == null) {
            throw ViewbaseException.of(
                ErrorCode.InvalidInput,
                "A key of '"
                    + entity.name()
                    + "' names '"
                    + name
                    + "', which is not one of its attributes",
                "entity",
                entity.name(),
                "attribute",
                name);
          }
          Object v = a.setter() == null ? value : a.setter().apply(value);
          if (v != null) {
            out.put(name, checked(a, v, false));
          }
        });
    return out;
  }

  /** Stored properties (by field) from attributes (by name). */
  Map<String, Value> stored(Map<String, Value> byAttribute) {
    Map<String, Value> out = new LinkedHashMap<>();
    byAttribute.forEach(
        (name, v) -> {
          Attribute a = byName.get(name);
          out.put(a == null ? name : a.field(), v);
        });
    return out;
  }

  /** The identity fields every full write stores. */
  Map<String, Value> markers() {
    Map<String, Value> m = new LinkedHashMap<>();
    m.put(Entity.SERVICE_FIELD, Value.of(entity.service()));
    m.put(Entity.ENTITY_FIELD, Value.of(entity.name()));
    m.put(Entity.VERSION_FIELD, Value.of(entity.version()));
    return m;
  }

  /**
   * Attributes by name, as the caller sees them: get transforms applied, hidden ones and markers
   * left out.
   */
  Map<String, Object> read(Item item) {
    Map<String, Object> out = new LinkedHashMap<>();
    item.properties()
        .forEach(
            (field, v) -> {
              if (field.startsWith("vb_")) {
                return;
              }
              Attribute a = byField.get(field);
              if (a != null && a.isHidden()) {
                return;
              }
              Object java = Values.toJava(v);
              if (a != null && a.getter() != null) {
                java = a.getter().apply(java);
              }
              if (java != null) {
                out.put(a == null ? field : a.name(), java);
              }
            });
    return out;
  }

  /** Stored values by attribute name, for rendering keys of a stored item. */
  Map<String, Value> storedByName(Item item) {
    Map<String, Value> out = new LinkedHashMap<>();
    item.properties()
        .forEach(
            (field, v) -> {
              Attribute a = byField.get(field);
              out.put(a == null ? field : a.name(), v);
            });
    return out;
  }

  private void undeclared(Map<String, Object> given, Map<String, Value> out) {
    for (Map.Entry<String, Object> e : given.entrySet()) {
      String name = e.getKey();
      if (byName.containsKey(name) || e.getValue() == null) {
        continue;
      }
      if (!FIELD.matcher(name).matches()
          || name.startsWith("vb_")
          || PropertyName.isReserved(name)
          || byField.containsKey(name)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The undeclared attribute '"
                + name
                + "' of '"
                + entity.name()
                + "' cannot be stored under that name "
                + "(a letter then letters, digits or '_'; not partitionKey, id, vb_..., or a declared field)",
            "entity",
            entity.name(),
            "attribute",
            name);
      }
      out.put(name, Values.toValue(e.getValue()));
    }
  }

  private Value checked(Attribute a, Object v) {
    return checked(a, v, true);
  }

  private Value checked(Attribute a, Object v, boolean validate) {
    Object normal =
        switch (a.type()) {
          case STRING -> v instanceof CharSequence ? v.toString() : wrongType(a, v, "a string");
          case NUMBER ->
              v instanceof Number n && Double.isFinite(n.doubleValue())
                  ? v
                  : wrongType(a, v, "a finite number");
          case BOOLEAN -> v instanceof Boolean ? v : wrongType(a, v, "a boolean");
          case ENUM -> enumValue(a, v);
          case LIST ->
              v instanceof List<?> || v.getClass().isArray() ? v : wrongType(a, v, "a list");
          case MAP -> v instanceof Map<?, ?> ? v : wrongType(a, v, "a map");
          case SET -> setValue(a, v);
          case ANY -> v;
        };
    if (validate && a.validator() != null) {
      boolean ok;
      try {
        ok = a.validator().test(normal);
      } catch (RuntimeException e) {
        ok = false;
      }
      if (!ok) {
        throw error(a, "must be " + (a.validation() == null ? "valid" : a.validation()), v);
      }
    }
    return Values.toValue(normal);
  }

  private Object enumValue(Attribute a, Object v) {
    String text =
        v instanceof Enum<?> e ? e.name() : v instanceof CharSequence s ? s.toString() : null;
    if (text == null || !a.enumValues().contains(text)) {
      throw error(a, "must be one of " + a.enumValues(), v);
    }
    return text;
  }

  private Object setValue(Attribute a, Object v) {
    Collection<Object> elements = new LinkedHashSet<>();
    if (v instanceof Collection<?> c) {
      elements.addAll(c);
    } else if (v.getClass().isArray()) {
      for (int i = 0; i < Array.getLength(v); i++) {
        elements.add(Array.get(v, i));
      }
    } else {
      return wrongType(a, v, "a set (a collection or array)");
    }
    return new ArrayList<>(elements);
  }

  private Object wrongType(Attribute a, Object v, String expected) {
    throw error(a, "must be " + expected + ", not " + v.getClass().getSimpleName(), v);
  }

  private ViewbaseException error(Attribute a, String what, Object found) {
    return ViewbaseException.of(
        ErrorCode.InvalidInput,
        "The attribute '"
            + a.name()
            + "' of '"
            + entity.name()
            + "' "
            + what
            + (found == null ? "" : " (found " + abbreviated(found) + ")"),
        "entity",
        entity.name(),
        "attribute",
        a.name());
  }

  private static String abbreviated(Object found) {
    String s = String.valueOf(found);
    return s.length() > 80 ? s.substring(0, 80) + "…" : "'" + s + "'";
  }
}
