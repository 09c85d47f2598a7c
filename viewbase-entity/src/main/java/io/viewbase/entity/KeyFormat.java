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
 * </pre>
 *
 * Labels are the attribute's {@code label} (its name lower-cased by default); values keep their
 * case unless the key's casing says otherwise; {@code padding} left-pads a value with zeros
 * (integers after their sign). Casing applies to the whole key, literals included.
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

  record Slot(Attribute attribute) implements Part {}

  /**
   * What a partial rendering could produce.
   *
   * @param tight the text up to the end of the last value given (for begins and range bounds)
   * @param loose the tight text plus the literal that follows it (all items with exactly these
   *     values)
   * @param complete whether every slot had a value
   */
  record Rendered(String tight, String loose, boolean complete) {}

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
      parts.add(new Slot(a));
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
      parts.add(new Slot(attribute(attributes, t.substring(open + 2, close), where)));
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
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p instanceof Literal l) {
        sb.append(l.text());
        continue;
      }
      Attribute a = ((Slot) p).attribute();
      String text = Values.keyText(values.get(a.name()), a.padding());
      if (text == null) {
        return new Rendered(tightEnd(sb, i), sb.toString(), false);
      }
      appendValue(sb, text, a.padding());
    }
    return new Rendered(sb.toString(), sb.toString(), true);
  }

  /** The text before the literal that precedes slot {@code slotIndex}. */
  private String tightEnd(StringBuilder sb, int slotIndex) {
    if (slotIndex > 0 && parts.get(slotIndex - 1) instanceof Literal l && slotIndex - 1 > 0) {
      return sb.substring(0, sb.length() - l.text().length());
    }
    return sb.toString();
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
        Attribute a = ((Slot) p).attribute();
        sb.append('{').append(a.field());
        if (a.padding() > 0) {
          sb.append(':').append(a.padding());
        }
        sb.append(casing.templateTransform()).append('}');
      }
    }
    return sb.toString();
  }
}
