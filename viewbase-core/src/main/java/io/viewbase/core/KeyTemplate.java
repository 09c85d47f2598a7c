package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.KeyText;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A view key template such as {@code "{lastName}#{firstName}"}, {@code "organization#{orgId}"},
 * {@code "{age:08}"} or {@code "{email|lower}"}, compiled once and rendered for every write.
 *
 * <pre>
 * syntax                 | renders
 * -----------------------+-------------------------------------------------------------------
 * text                   | itself; {{ and }} are literal braces
 * {name}                 | the property's value as text (see below)
 * {partitionKey}, {id}   | the source item's identity
 * {name:08}              | zero-padded on the left to 8 characters (integers: "-0000042")
 * {name|lower}, |upper   | case-folded (Locale.ROOT); case is kept unless asked
 * {name|key}             | {@link KeyText#sortable}: in value order and self-delimiting, so that
 *                        |   {a|key}{b|key} sorts as the tuple (a, b); no width, no case (refused)
 * {partitionKey|key},    | the identity, rendered sortably as a string
 *   {id|key}             |
 * </pre>
 *
 * A value's text is {@link KeyText}'s (the entity layer renders its keys by the same rule); a
 * missing property, or one whose value has no key text (null, binary, object, array; for {@code
 * |key}: boolean, datetime, guid, null, object, array, NaN and the infinities), keeps the item out
 * of the view.
 */
final class KeyTemplate {
  private sealed interface Part permits Literal, Placeholder {}

  private record Literal(String text) implements Part {}

  private record Placeholder(String property, int width, String transform) implements Part {
    boolean sortable() {
      return KEY.equals(transform);
    }
  }

  /** The transform of {@link KeyText#sortable}. */
  private static final String KEY = "key";

  private final String source;
  private final List<Part> parts;

  private KeyTemplate(String source, List<Part> parts) {
    this.source = source;
    this.parts = parts;
  }

  static KeyTemplate parse(String template, String field) {
    if (template == null || template.isEmpty()) {
      throw invalid(field, template, "must not be empty", 0);
    }
    List<Part> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < template.length()) {
      char c = template.charAt(i);
      if (c == '{' && i + 1 < template.length() && template.charAt(i + 1) == '{') {
        literal.append('{');
        i += 2;
      } else if (c == '}' && i + 1 < template.length() && template.charAt(i + 1) == '}') {
        literal.append('}');
        i += 2;
      } else if (c == '}') {
        throw invalid(
            field, template, "has a '}' without its '{' (write }} for a literal brace)", i);
      } else if (c == '{') {
        int end = template.indexOf('}', i);
        if (end < 0) {
          throw invalid(field, template, "has a '{' without its '}'", i);
        }
        if (literal.length() > 0) {
          parts.add(new Literal(literal.toString()));
          literal.setLength(0);
        }
        parts.add(placeholder(template.substring(i + 1, end), field, template, i));
        i = end + 1;
      } else {
        literal.append(c);
        i++;
      }
    }
    if (literal.length() > 0) {
      parts.add(new Literal(literal.toString()));
    }
    return new KeyTemplate(template, List.copyOf(parts));
  }

  private static Placeholder placeholder(String body, String field, String template, int position) {
    String transform = null;
    int bar = body.indexOf('|');
    if (bar >= 0) {
      transform = body.substring(bar + 1);
      body = body.substring(0, bar);
      if (transform.indexOf('|') >= 0 && List.of(transform.split("\\|")).contains(KEY)) {
        throw invalid(
            field,
            template,
            "combines |key with another transform (|key renders its own text: cased, it would"
                + " no longer sort)",
            position);
      }
      if (!transform.equals("lower") && !transform.equals("upper") && !transform.equals(KEY)) {
        throw invalid(
            field,
            template,
            "has an unknown transform '" + transform + "' (lower, upper or key)",
            position);
      }
    }
    int width = 0;
    int colon = body.indexOf(':');
    if (colon >= 0) {
      String spec = body.substring(colon + 1);
      body = body.substring(0, colon);
      if (!spec.matches("0?[1-9][0-9]?")) {
        throw invalid(
            field,
            template,
            "has a padding '" + spec + "' that is not a width such as 08",
            position);
      }
      width = Integer.parseInt(spec);
      if (KEY.equals(transform)) {
        throw invalid(
            field,
            template,
            "gives |key a width (|key renders its own text, which sorts without padding)",
            position);
      }
    }
    if (body.isEmpty() || body.indexOf('{') >= 0) {
      throw invalid(field, template, "has a placeholder without a property name", position);
    }
    return new Placeholder(body, width, transform);
  }

  private static ViewbaseException invalid(
      String field, String template, String why, int position) {
    return ViewbaseException.of(
        ErrorCode.InvalidView,
        "The " + field + " template " + why,
        "field",
        field,
        "template",
        template,
        "position",
        position);
  }

  /** Whether the template reads anything, or is literal text (such as "all"). */
  boolean hasPlaceholders() {
    return parts.stream().anyMatch(p -> p instanceof Placeholder);
  }

  /** The user properties the template reads (not partitionKey or id). */
  Set<String> properties() {
    Set<String> names = new TreeSet<>();
    for (Part p : parts) {
      if (p instanceof Placeholder ph
          && !ph.property().equals("partitionKey")
          && !ph.property().equals("id")) {
        names.add(ph.property());
      }
    }
    return names;
  }

  /**
   * What {@link #renderPrefix} could render: the text, whether it is the whole key, and whether
   * every placeholder after it names the identity ({partitionKey}, {id}), which every item has:
   * only then does every item with the known values sit in the view under this prefix.
   */
  record Prefix(String text, boolean complete, boolean restIsIdentity) {}

  /**
   * Renders as far as the known values allow: the text up to the first placeholder whose value is
   * not known. {@code partitionKey} or {@code id} may be null (unknown). {@code known} holds the
   * literals a filter fixes properties to by equality; a placeholder takes one only if every value
   * equal to it renders that same text ({@link #rendersEveryEqualValueAlike}), else it counts as
   * unknown.
   */
  Prefix renderPrefix(String partitionKey, String id, Map<String, Value> known) {
    StringBuilder sb = new StringBuilder(32);
    for (Part p : parts) {
      if (p instanceof Literal l) {
        sb.append(l.text());
        continue;
      }
      Placeholder ph = (Placeholder) p;
      String text =
          switch (ph.property()) {
            case "partitionKey" -> identity(ph, partitionKey);
            case "id" -> identity(ph, id);
            default -> {
              Value literal = known.get(ph.property());
              yield literal != null && rendersEveryEqualValueAlike(ph, literal)
                  ? text(literal, ph)
                  : null;
            }
          };
      if (text == null) {
        return new Prefix(sb.toString(), false, restIsIdentity(p));
      }
      appendTransformed(sb, ph, text);
    }
    return new Prefix(sb.toString(), true, true);
  }

  /**
   * Whether every stored value that a filter's {@code eq literal} accepts renders as the literal
   * does here, so that a lookup of the literal's key finds every match. Plain text: strings,
   * booleans, guids and datetimes (numbers do not: 34, 34L and 34.0 are equal and render apart).
   * {@code |key}: strings, binaries and numbers of every type ({@link KeyText#sortable} renders
   * equal numbers alike); a literal it cannot render (NaN) leaves the placeholder unknown.
   */
  private static boolean rendersEveryEqualValueAlike(Placeholder ph, Value literal) {
    if (ph.sortable()) {
      return literal instanceof Value.Str
          || literal instanceof Value.Binary
          || literal instanceof Value.Int32
          || literal instanceof Value.Int64
          || literal instanceof Value.Double
          || literal instanceof Value.Decimal;
    }
    return literal instanceof Value.Str
        || literal instanceof Value.Bool
        || literal instanceof Value.Guid
        || literal instanceof Value.DateTime;
  }

  private boolean restIsIdentity(Part from) {
    boolean after = false;
    for (Part p : parts) {
      after |= p == from;
      if (after
          && p instanceof Placeholder ph
          && !ph.property().equals("partitionKey")
          && !ph.property().equals("id")) {
        return false;
      }
    }
    return true;
  }

  private static void appendTransformed(StringBuilder sb, Placeholder ph, String text) {
    if (ph.sortable()) {
      sb.append(text); // rendered whole by text(): sortable text takes no case and no padding
      return;
    }
    if (ph.transform() != null) {
      text =
          ph.transform().equals("lower")
              ? text.toLowerCase(Locale.ROOT)
              : text.toUpperCase(Locale.ROOT);
    }
    KeyText.pad(sb, text, ph.width());
  }

  /**
   * The key for an item, or null when a placeholder has no renderable value (the item is not in the
   * view).
   */
  String render(String partitionKey, String id, Map<String, Value> properties) {
    if (parts.size() == 1 && parts.get(0) instanceof Literal l) {
      return l.text();
    }
    StringBuilder sb = new StringBuilder(32);
    for (Part p : parts) {
      if (p instanceof Literal l) {
        sb.append(l.text());
        continue;
      }
      Placeholder ph = (Placeholder) p;
      String text =
          switch (ph.property()) {
            case "partitionKey" -> identity(ph, partitionKey);
            case "id" -> identity(ph, id);
            default -> text(properties.get(ph.property()), ph);
          };
      if (text == null) {
        return null;
      }
      appendTransformed(sb, ph, text);
    }
    return sb.toString();
  }

  /** A property's text in a key, as every key renderer writes it ({@link KeyText}); null: none. */
  private static String text(Value value, Placeholder ph) {
    return ph.sortable() ? KeyText.sortable(value) : KeyText.of(value, ph.width());
  }

  /** The partition key or id (null: unknown) as a placeholder renders it. */
  private static String identity(Placeholder ph, String key) {
    return key != null && ph.sortable() ? KeyText.sortable(Value.of(key)) : key;
  }

  @Override
  public String toString() {
    return source;
  }
}
