package io.viewbase.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import java.io.IOException;
import java.time.Instant;

/**
 * What the time-to-live sweeper did for a table, as the member {@code "sweep"} of its description
 * ({@code GET /v1/tables/{t}}): {@code {"swept", "itemsExpired", "itemsScanned",
 * "lastSweepStarted", "lastSweepEnded"}}, the times ISO text or null; and the answer of a forced
 * sweep ({@code POST /v1/tables/{t}/expire}), {@code {"table", "expired"}}.
 */
public final class SweepStatusJson {
  private SweepStatusJson() {}

  /** A table's description with its sweep status after the other members. */
  public static byte[] describe(TableInfo info, SweepStatus sweep) {
    return describe(info, null, sweep);
  }

  /**
   * A table's description with its options ({@link TableInfoJson#write(TableInfo, TableOptions)};
   * null: none) and its sweep status after the other members.
   */
  public static byte[] describe(TableInfo info, TableOptions options, SweepStatus sweep) {
    byte[] description = TableInfoJson.write(info, options);
    if (sweep == null) {
      return description;
    }
    byte[] member =
        Json.write(
            g -> {
              g.writeStartObject();
              g.writeFieldName("sweep");
              write(g, sweep);
              g.writeEndObject();
            });
    // {"name":...} + {"sweep":{...}} -> {"name":...,"sweep":{...}}
    byte[] out = new byte[description.length + member.length - 1];
    System.arraycopy(description, 0, out, 0, description.length - 1);
    out[description.length - 1] = ',';
    System.arraycopy(member, 1, out, description.length, member.length - 1);
    return out;
  }

  /** The {@code "sweep"} member of a table description; {@link SweepStatus#NONE} without one. */
  public static SweepStatus readFromDescription(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A table description must be a JSON object");
          SweepStatus found = SweepStatus.NONE;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("sweep") && p.currentToken() == JsonToken.START_OBJECT) {
              found = readObject(p);
            } else {
              p.skipChildren();
            }
          }
          return found;
        });
  }

  /** The answer of a forced sweep. */
  public static byte[] writeExpired(String table, long expired) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeStringField("table", table);
          g.writeNumberField("expired", expired);
          g.writeEndObject();
        });
  }

  /** How many items a forced sweep removed, from its answer. */
  public static long readExpired(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A sweep's answer must be a JSON object");
          Long expired = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("expired") && p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
              expired = p.getLongValue();
            } else {
              p.skipChildren();
            }
          }
          if (expired == null) {
            throw Json.shape(p, "A sweep's answer must have a number \"expired\"");
          }
          return expired;
        });
  }

  private static void write(JsonGenerator g, SweepStatus s) throws IOException {
    g.writeStartObject();
    g.writeBooleanField("swept", s.swept());
    g.writeNumberField("itemsExpired", s.itemsExpired());
    g.writeNumberField("itemsScanned", s.itemsScanned());
    g.writeStringField("lastSweepStarted", iso(s.lastSweepStarted()));
    g.writeStringField("lastSweepEnded", iso(s.lastSweepEnded()));
    g.writeEndObject();
  }

  private static String iso(Instant t) {
    return t == null ? null : Value.DateTime.isoString(t);
  }

  private static SweepStatus readObject(JsonParser p) throws IOException {
    boolean swept = false;
    long expired = 0;
    long scanned = 0;
    Instant started = null;
    Instant ended = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      p.nextToken();
      String text = p.currentToken() == JsonToken.VALUE_STRING ? p.getText() : null;
      switch (field) {
        case "swept" -> swept = p.currentToken() == JsonToken.VALUE_TRUE;
        case "itemsExpired" -> expired = p.getValueAsLong();
        case "itemsScanned" -> scanned = p.getValueAsLong();
        case "lastSweepStarted" ->
            started = text == null ? null : IsoTimes.parseInstant(text).orElse(null);
        case "lastSweepEnded" ->
            ended = text == null ? null : IsoTimes.parseInstant(text).orElse(null);
        default -> p.skipChildren();
      }
    }
    return new SweepStatus(swept, expired, scanned, started, ended);
  }
}
