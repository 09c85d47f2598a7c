package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A table's options as JSON: the body of {@code PUT} (create) and {@code PATCH} (alter) of {@code
 * /v1/tables/{t}}, and the {@code "options"} member of a table's description:
 *
 * <pre>
 * {"changeFeed": {"enabled": true, "beforeImages": false, "retention": "PT24H",
 *                 "maxEntries": 10000000},
 *  "ttl": "PT1H"}
 * </pre>
 *
 * Durations are ISO-8601 ({@link Duration#toString}: {@code PT24H}, {@code P7D}, {@code PT30M}). A
 * body is read over a base ({@link #read}): the options as they are for {@code PATCH}, {@link
 * TableOptions#DEFAULT} for a create. By member:
 *
 * <pre>
 * member                  | accepted                          | absent
 * ------------------------+-----------------------------------+-----------------------
 * changeFeed              | object of the members below       | the base's feed
 * changeFeed.enabled      | true / false                      | the base's
 * changeFeed.beforeImages | true / false                      | the base's
 * changeFeed.retention    | ISO-8601 duration, positive       | the base's (a day)
 * changeFeed.maxEntries   | whole number, 1 or more           | the base's (10,000,000)
 * ttl                     | ISO-8601 duration, positive; null | the base's (none)
 *                         |   removes it                      |
 * anything else           | 400 InvalidJson naming every unknown member in members
 * </pre>
 *
 * A value of the wrong type is 400 InvalidJson with its {@code field}; an out-of-range value is 400
 * InvalidInput (the rule of {@link TableOptions} itself).
 */
public final class TableOptionsJson {
  private static final Set<String> MEMBERS = Set.of("changeFeed", "ttl");
  private static final Set<String> FEED_MEMBERS =
      Set.of("enabled", "beforeImages", "retention", "maxEntries");

  private TableOptionsJson() {}

  /** The options as a request body. */
  public static byte[] write(TableOptions options) {
    return Json.write(g -> write(g, options));
  }

  /** Writes the options' object where the generator stands. */
  static void write(JsonGenerator g, TableOptions options) throws IOException {
    TableOptions.ChangeFeed feed = options.changeFeed();
    g.writeStartObject();
    g.writeObjectFieldStart("changeFeed");
    g.writeBooleanField("enabled", feed.enabled());
    g.writeBooleanField("beforeImages", feed.beforeImages());
    g.writeStringField("retention", feed.retention().toString());
    g.writeNumberField("maxEntries", feed.maxEntries());
    g.writeEndObject();
    g.writeStringField("ttl", options.ttl() == null ? null : options.ttl().toString());
    g.writeEndObject();
  }

  /** A request body read over {@code base}: what it names changes, the rest stays as in base. */
  public static TableOptions read(byte[] json, TableOptions base) {
    return Json.read(json, 0, json.length, p -> readObject(p, base));
  }

  /**
   * The {@code "options"} member of a table description ({@code GET /v1/tables/{t}}); empty if it
   * has none (a view, or an older server).
   */
  public static Optional<TableOptions> readDescribed(byte[] description) {
    return Json.read(
        description,
        0,
        description.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A table description must be a JSON object");
          TableOptions found = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            if (name.equals("options") && p.currentToken() == JsonToken.START_OBJECT) {
              found = readObject(p, TableOptions.DEFAULT);
            } else {
              p.skipChildren();
            }
          }
          return Optional.ofNullable(found);
        });
  }

  private static TableOptions readObject(JsonParser p, TableOptions base) throws IOException {
    PageJson.expect(p, JsonToken.START_OBJECT, "Table options must be a JSON object");
    TableOptions[] result = {base};
    Set<String> unknown =
        Json.readKnownMembers(
            p,
            MEMBERS,
            (parser, member) -> {
              if (member.equals("ttl")) {
                result[0] = result[0].withTtl(duration(parser, "ttl", true));
              } else {
                result[0] = result[0].withChangeFeed(feed(parser, result[0].changeFeed()));
              }
            });
    refuseUnknown(unknown, "", "changeFeed, ttl");
    return result[0];
  }

  private static TableOptions.ChangeFeed feed(JsonParser p, TableOptions.ChangeFeed base)
      throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw field(p, "changeFeed", "changeFeed must be a JSON object");
    }
    boolean[] flags = {base.enabled(), base.beforeImages()};
    Duration[] retention = {base.retention()};
    long[] maxEntries = {base.maxEntries()};
    Set<String> unknown =
        Json.readKnownMembers(
            p,
            FEED_MEMBERS,
            (parser, member) -> {
              switch (member) {
                case "enabled" -> flags[0] = bool(parser, "changeFeed.enabled");
                case "beforeImages" -> flags[1] = bool(parser, "changeFeed.beforeImages");
                case "retention" -> retention[0] = duration(parser, "changeFeed.retention", false);
                default -> maxEntries[0] = whole(parser, "changeFeed.maxEntries");
              }
            });
    refuseUnknown(unknown, "changeFeed.", "enabled, beforeImages, retention, maxEntries");
    return new TableOptions.ChangeFeed(flags[0], flags[1], retention[0], maxEntries[0]);
  }

  private static void refuseUnknown(Set<String> unknown, String prefix, String known) {
    if (!unknown.isEmpty()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidJson,
          "Unknown members in the table options; known are " + known,
          "members",
          List.copyOf(unknown.stream().map(m -> prefix + m).toList()));
    }
  }

  private static boolean bool(JsonParser p, String field) throws IOException {
    return switch (p.currentToken()) {
      case VALUE_TRUE -> true;
      case VALUE_FALSE -> false;
      default -> throw field(p, field, field + " must be true or false");
    };
  }

  private static long whole(JsonParser p, String field) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw field(p, field, field + " must be a whole number");
    }
    try {
      return p.getLongValue();
    } catch (IOException outOfRange) {
      throw field(p, field, field + " is out of range");
    }
  }

  /** An ISO-8601 duration; null only where {@code nullable} (then it means none). */
  private static Duration duration(JsonParser p, String field, boolean nullable)
      throws IOException {
    if (nullable && p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    if (p.currentToken() == JsonToken.VALUE_STRING) {
      try {
        return Duration.parse(p.getText());
      } catch (DateTimeParseException e) {
        // falls through to the error below
      }
    }
    throw field(
        p,
        field,
        field
            + " must be an ISO-8601 duration such as PT24H, P7D or PT30M"
            + (nullable ? " (or null: none)" : ""));
  }

  private static ViewbaseException field(JsonParser p, String field, String message) {
    ViewbaseException shape = Json.shape(p, message);
    return ViewbaseException.of(
        ErrorCode.InvalidJson,
        message,
        "field",
        field,
        "line",
        shape.context().get("line"),
        "column",
        shape.context().get("column"));
  }
}
