package io.viewbase.entity;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.KeyText;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A compiled partition or sort key: literal text and attribute slots, rendered by the client (for
 * the primary index and for queries) and, as a view template, by the database (for secondary
 * indexes). Both renderings follow the same rules, so a key the client computes finds the entry the
 * database wrote.
 *
 * <pre>
 * key            | format                                             | example (service platform, entity organization, version 1)
 * ---------------+----------------------------------------------------+------------------------------------------------------------
 * partition key  | $service [#namespace part]... [#label_value]...    | $platform#organization#organizationid_293819
 * sort key       | $entity_version [#label_value]...                  | $organization_1#name_Acme
 * template       | the template, ${attribute} replaced by the value   | org#${organizationId} -> org#293819
 *                | ${attribute|key}: by {@link KeyText#sortable}       | ${price|key} -> !>502125 (12.5, then ' ')
 * </pre>
 *
 * Labels are the attribute's {@code label} (its name lower-cased by default); values keep their
 * case unless the key's casing says otherwise; {@code padding} left-pads a value with zeros
 * (integers after their sign). Casing applies to the whole key, literals included.
 *
 * <p>A {@code ${attribute|key}} slot renders the value sortably, as a view template's {@code
 * {field|key}} does: numbers in numeric order whatever their type, strings by code point, each
 * rendering self-delimiting. It takes no padding and no casing (both would break its order), and
 * range bounds after such a slot go past every key that begins with its rendering ({@link #after}).
 */
final class KeyFormat {
  /** Separates the parts of a key; the identity suffix of a non-unique index uses it too. */
  static final char SEPARATOR = '#';

  /**
   * The character just above {@link #SEPARATOR}: a bound that passes every "value#..."
   * continuation.
   */
  static final char AFTER_SEPARATOR = (char) (SEPARATOR + 1);

  sealed interface Part permits Literal, Slot {}

  record Literal(String text) implements Part {}

  /**
   * An attribute's place in the key; {@code sortable}: rendered by {@link KeyText#sortable} ({@code
   * ${name|key}}).
   */
  record Slot(Attribute attribute, boolean sortable) implements Part {}

  /** The suffix of a template slot that renders sortably. */
  private static final String KEY = "|key";

  /**
   * What a partial rendering could produce.
   *
   * @param tight the text up to the end of the last value given (for begins and range bounds)
   * @param loose the tight text plus the literal that follows it (all items with exactly these
   *     values)
   * @param complete whether every slot had a value
   * @param sortableTail the value whose sortable rendering ({@code ${name|key}}) ends the tight
   *     text, or null when the tight text ends otherwise
   */
  record Rendered(String tight, String loose, boolean complete, Value sortableTail) {}

  private final List<Part> parts;
  private final Casing casing;

  private KeyFormat(List<Part> parts, Casing casing) {
    this.parts = List.copyOf(parts);
    this.casing = casing;
  }

  static KeyFormat partitionKey(
      String service,
      List<String> namespace,
      KeyDefinition def,
      Map<String, Attribute> attributes,
      String where) {
    if (def.template() != null) {
      return template(def, attributes, where);
    }
    StringBuilder head = new StringBuilder("$").append(service);
    for (String part : namespace) {
      head.append(SEPARATOR).append(part);
    }
    return standard(head.toString(), def, attributes, where);
  }

  static KeyFormat sortKey(
      String entity,
      String version,
      KeyDefinition def,
      Map<String, Attribute> attributes,
      String where) {
    if (def.template() != null) {
      return template(def, attributes, where);
    }
    return standard("$" + entity + "_" + version, def, attributes, where);
  }

  private static KeyFormat standard(
      String head, KeyDefinition def, Map<String, Attribute> attributes, String where) {
    List<Part> parts = new ArrayList<>();
    parts.add(new Literal(def.casing().apply(head)));
    for (String name : def.composite()) {
      Attribute a = attribute(attributes, name, where);
      parts.add(new Literal(def.casing().apply(SEPARATOR + a.label() + "_")));
      parts.add(new Slot(a, false));
    }
    return new KeyFormat(parts, def.casing());
  }

  /** Parses {@code "org#${organizationId}"}: literal text and {@code ${attribute}} slots. */
  private static KeyFormat template(
      KeyDefinition def, Map<String, Attribute> attributes, String where) {
    String t = def.template();
    List<Part> parts = new ArrayList<>();
    int i = 0;
    while (i < t.length()) {
      int open = t.indexOf("${", i);
      if (open < 0) {
        parts.add(new Literal(def.casing().apply(t.substring(i))));
        break;
      }
      if (open > i) {
        parts.add(new Literal(def.casing().apply(t.substring(i, open))));
      }
      int close = t.indexOf('}', open);
      if (close < 0) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "A key template has a '${' without its '}'",
            "where",
            where,
            "template",
            t);
      }
      String name = t.substring(open + 2, close);
      boolean sortable = name.endsWith(KEY);
      Attribute a =
          attribute(attributes, sortable ? name.substring(0, name.length() - 4) : name, where);
      if (sortable && (a.padding() > 0 || def.casing() != Casing.PRESERVE)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "A ${attribute|key} slot takes no padding and no casing: its text sorts as it is",
            "where",
            where,
            "template",
            t,
            "attribute",
            a.name());
      }
      parts.add(new Slot(a, sortable));
      i = close + 1;
    }
    if (parts.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "A key template must not be empty", "where", where);
    }
    return new KeyFormat(parts, def.casing());
  }

  private static Attribute attribute(Map<String, Attribute> attributes, String name, String where) {
    Attribute a = attributes.get(name);
    if (a == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A key names the attribute '" + name + "', which the entity does not declare",
          "where",
          where,
          "attribute",
          name);
    }
    return a;
  }

  /** The attributes the key is composed of, in order. */
  List<Attribute> composites() {
    List<Attribute> out = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Slot s) {
        out.add(s.attribute());
      }
    }
    return out;
  }

  /**
   * The key, or null when an attribute is missing or has no key text. Values are keyed by attribute
   * name.
   */
  String render(Map<String, Value> values) {
    Rendered r = renderPrefix(values);
    return r.complete() ? r.tight() : null;
  }

  /** Renders the slots in order as far as the given values go. */
  Rendered renderPrefix(Map<String, Value> values) {
    StringBuilder sb = new StringBuilder(48);
    Value sortableTail = null;
    Value beforeLiteral = null; // the sortable tail before the literal just appended
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p instanceof Literal l) {
        sb.append(l.text());
        beforeLiteral = sortableTail;
        sortableTail = null;
        continue;
      }
      Slot slot = (Slot) p;
      Value value = values.get(slot.attribute().name());
      String text = text(slot, value);
      if (text == null) {
        if (i > 1 && parts.get(i - 1) instanceof Literal l) {
          // the tight text stops before the literal that leads to the missing value
          return new Rendered(
              sb.substring(0, sb.length() - l.text().length()),
              sb.toString(),
              false,
              beforeLiteral);
        }
        return new Rendered(sb.toString(), sb.toString(), false, sortableTail);
      }
      if (slot.sortable()) {
        sb.append(text);
        sortableTail = value;
      } else {
        appendValue(sb, text, slot.attribute().padding());
        sortableTail = null;
      }
      beforeLiteral = null;
    }
    return new Rendered(sb.toString(), sb.toString(), true, sortableTail);
  }

  /** A slot's text for a value, or null when it has none. */
  private static String text(Slot slot, Value value) {
    return slot.sortable()
        ? KeyText.sortable(value)
        : Values.keyText(value, slot.attribute().padding());
  }

  /** The names of the attributes whose values the key lacks or cannot render, in key order. */
  List<String> missing(Map<String, Value> values) {
    List<String> out = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Slot s && text(s, values.get(s.attribute().name())) == null) {
        out.add(s.attribute().name());
      }
    }
    return out;
  }

  /**
   * The first key after every key that begins with {@code r.tight()} and then goes on as a key does
   * there: a bound that passes every item with exactly those leading values. After a sortable slot,
   * that is the tight text with its last character raised by one (no rendering begins another, so
   * every greater value renders at or above it); after any other, the tight text and {@link
   * #AFTER_SEPARATOR}, which passes every "value#..." continuation.
   */
  static String after(Rendered r) {
    if (r.sortableTail() != null) {
      String t = r.tight();
      return t.substring(0, t.length() - 1) + (char) (t.charAt(t.length() - 1) + 1);
    }
    return r.tight() + AFTER_SEPARATOR;
  }

  /**
   * The prefix of every key whose values begin with those of {@code r}: its tight text, but a
   * string or binary that ends it in a sortable slot as its {@link KeyText#sortablePrefix}, so that
   * {@code begins} of {@code "An"} finds {@code "Ann"} there too.
   */
  static String begins(Rendered r) {
    String open = KeyText.sortablePrefix(r.sortableTail());
    if (open == null) {
      return r.tight();
    }
    String t = r.tight();
    return t.substring(0, t.length() - KeyText.sortable(r.sortableTail()).length()) + open;
  }

  private void appendValue(StringBuilder sb, String text, int width) {
    KeyText.pad(
        sb, casing.apply(text), width); // cased, then padded: as a template's {name:08|lower}
  }

  /** The same key as a view template, which the database renders from each stored item. */
  String viewTemplate() {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (p instanceof Literal l) {
        sb.append(l.text().replace("{", "{{").replace("}", "}}"));
      } else {
        Slot slot = (Slot) p;
        Attribute a = slot.attribute();
        sb.append('{').append(a.field());
        if (slot.sortable()) {
          sb.append("|key}");
          continue;
        }
        if (a.padding() > 0) {
          sb.append(':').append(a.padding());
        }
        sb.append(casing.templateTransform()).append('}');
      }
    }
    return sb.toString();
  }
}
