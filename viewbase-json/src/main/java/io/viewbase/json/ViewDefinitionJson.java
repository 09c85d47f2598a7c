package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A view definition as JSON, the body of {@code PUT /v1/views/{view}}: {@code {"source": "People",
 * "partitionBy": "all", "idBy": "{email}", "where": "active eq true", "select": ["email",
 * "name"]}}, or for a history view {@code {"source": "People", "kind": "history", "retention":
 * {"maxVersions": 100, "maxAge": "P30D"}}}. The name comes from the address.
 *
 * <p>Reading, by member:
 *
 * <pre>
 * member       | accepted                        | otherwise
 * -------------+---------------------------------+--------------------------------------------------
 * name         | absent, or the address's name   | 400 InvalidView (a body cannot rename its address)
 * source       | string (required)               | 400 InvalidView
 * partitionBy  | string or null (source's key)   | 400 InvalidView
 * idBy         | string or null (source's id)    | 400 InvalidView
 * where        | string or null (every item)     | 400 InvalidView
 * select       | array of strings, or null (all) | 400 InvalidView
 * kind         | copy, history, partitions, or   | 400 InvalidView
 *              |   null (copy)                   |
 * retention    | {"maxVersions": integer >= 0,   | 400 InvalidView (members as this object's:
 *              |   "maxAge": ISO-8601 duration},  |   unknown ones refused)
 *              |   either optional; or null      |
 * anything else| -                               | 400 InvalidView naming every unknown member
 * </pre>
 *
 * Unknown members are refused rather than skipped: a typo such as {@code "idby"} would otherwise
 * silently build a view keyed by the source id. Templates and filters themselves are the engine's
 * to judge.
 */
public final class ViewDefinitionJson {
  private static final Set<String> KNOWN =
      Set.of("name", "source", "partitionBy", "idBy", "where", "select", "kind", "retention");

  private ViewDefinitionJson() {}

  /**
   * The definition as a client sends it (the name included, which the server checks against the
   * address).
   */
  public static byte[] write(ViewDefinition definition) {
    return Json.write(
        g -> {
          g.writeStartObject();
          writeMembers(g, definition);
          g.writeEndObject();
        });
  }

  /**
   * Writes name, source, partitionBy, idBy, where, select, kind and retention (null if none) into
   * the object being written.
   */
  static void writeMembers(JsonGenerator g, ViewDefinition definition) throws IOException {
    g.writeStringField("name", definition.name());
    g.writeStringField("source", definition.source());
    g.writeStringField("partitionBy", definition.partitionBy());
    g.writeStringField("idBy", definition.idBy());
    g.writeStringField("where", definition.where());
    g.writeArrayFieldStart("select");
    for (String property : definition.select()) {
      g.writeString(property);
    }
    g.writeEndArray();
    g.writeStringField("kind", definition.kind().text());
    ViewDefinition.Retention retention = definition.retention();
    if (retention == null) {
      g.writeNullField("retention");
    } else {
      g.writeObjectFieldStart("retention");
      g.writeNumberField("maxVersions", retention.maxVersions());
      g.writeStringField(
          "maxAge", retention.maxAge() == null ? null : retention.maxAge().toString());
      g.writeEndObject();
    }
  }

  /** Reads a request body for the view at the address {@code name}. */
  public static ViewDefinition read(byte[] json, String name) {
    return Json.read(json, 0, json.length, p -> readRequest(p, name));
  }

  private static ViewDefinition readRequest(JsonParser p, String addressName) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw Json.shape(p, "A view definition must be a JSON object");
    }
    Fields f = new Fields();
    Set<String> unknown = Json.readKnownMembers(p, KNOWN, f::read);
    if (!unknown.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "Unknown members in the view definition; known are source, partitionBy, idBy, where,"
              + " select, kind, retention",
          "members",
          List.copyOf(unknown));
    }
    if (f.name != null && !f.name.equals(addressName)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView,
          "The body's name differs from the address",
          "field",
          "name",
          "address",
          addressName,
          "body",
          f.name);
    }
    if (f.source == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidView, "A view needs a source table", "field", "source");
    }
    return new ViewDefinition(
        addressName, f.source, f.partitionBy, f.idBy, f.where, f.select, f.kind, f.retention);
  }

  /** A definition's members as they are read, from a request body or from a view status. */
  static final class Fields {
    String name;
    String source;
    String partitionBy;
    String idBy;
    String where;
    List<String> select;
    ViewDefinition.Kind kind;
    ViewDefinition.Retention retention;

    /** Reads the member at the parser (its value token); false if it is not a definition member. */
    boolean read(JsonParser p, String member) throws IOException {
      switch (member) {
        case "name" -> name = text(p, member);
        case "source" -> source = text(p, member);
        case "partitionBy" -> partitionBy = text(p, member);
        case "idBy" -> idBy = text(p, member);
        case "where" -> where = text(p, member);
        case "select" -> select = names(p);
        case "kind" -> kind = kind(p);
        case "retention" -> retention = retention(p);
        default -> {
          return false;
        }
      }
      return true;
    }

    ViewDefinition toDefinition() {
      return new ViewDefinition(name, source, partitionBy, idBy, where, select, kind, retention);
    }

    private static ViewDefinition.Kind kind(JsonParser p) throws IOException {
      String text = text(p, "kind");
      if (text == null) {
        return null;
      }
      ViewDefinition.Kind kind = ViewDefinition.Kind.of(text);
      if (kind == null) {
        throw ViewbaseException.of(
            ErrorCode.InvalidView,
            "kind is copy, history or partitions",
            "field",
            "kind",
            "kind",
            text);
      }
      return kind;
    }

    private static ViewDefinition.Retention retention(JsonParser p) throws IOException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return null;
      }
      if (p.currentToken() != JsonToken.START_OBJECT) {
        throw ViewbaseException.of(
            ErrorCode.InvalidView,
            "retention must be an object: {\"maxVersions\": n, \"maxAge\": \"P30D\"}",
            "field",
            "retention");
      }
      long versions = 0;
      Duration age = null;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String member = p.currentName();
        p.nextToken();
        switch (member) {
          case "maxVersions" -> {
            if (p.currentToken() == JsonToken.VALUE_NULL) {
              versions = 0;
            } else if (p.currentToken() == JsonToken.VALUE_NUMBER_INT && p.getLongValue() >= 0) {
              versions = p.getLongValue();
            } else {
              throw ViewbaseException.of(
                  ErrorCode.InvalidView,
                  "retention.maxVersions must be a whole number, 0 or more",
                  "field",
                  "retention.maxVersions");
            }
          }
          case "maxAge" -> {
            String text = text(p, "retention.maxAge");
            try {
              age = text == null ? null : Duration.parse(text);
            } catch (DateTimeParseException e) {
              throw ViewbaseException.of(
                  ErrorCode.InvalidView,
                  "retention.maxAge must be an ISO-8601 duration such as PT24H or P30D",
                  "field",
                  "retention.maxAge",
                  "maxAge",
                  text);
            }
            if (age != null && age.isNegative()) {
              throw ViewbaseException.of(
                  ErrorCode.InvalidView,
                  "retention.maxAge must not be negative",
                  "field",
                  "retention.maxAge");
            }
          }
          default ->
              throw ViewbaseException.of(
                  ErrorCode.InvalidView,
                  "Unknown member of retention; known are maxVersions, maxAge",
                  "field",
                  "retention",
                  "member",
                  member);
        }
      }
      return new ViewDefinition.Retention(versions, age);
    }

    private static String text(JsonParser p, String member) throws IOException {
      return switch (p.currentToken()) {
        case VALUE_NULL -> null;
        case VALUE_STRING -> ValueReader.text(p.getText(), member);
        default ->
            throw ViewbaseException.of(
                ErrorCode.InvalidView, "The member must be a string", "field", member);
      };
    }

    private static List<String> names(JsonParser p) throws IOException {
      if (p.currentToken() == JsonToken.VALUE_NULL) {
        return null;
      }
      if (p.currentToken() != JsonToken.START_ARRAY) {
        throw ViewbaseException.of(
            ErrorCode.InvalidView, "select must be an array of property names", "field", "select");
      }
      List<String> names = new ArrayList<>();
      while (p.nextToken() != JsonToken.END_ARRAY) {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
          throw ViewbaseException.of(
              ErrorCode.InvalidView,
              "select must be an array of property names",
              "field",
              "select",
              "position",
              names.size());
        }
        names.add(ValueReader.text(p.getText(), "select"));
      }
      return names;
    }
  }
}
