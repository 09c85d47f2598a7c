package io.viewbase.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * API keys as JSON, in the three places they appear:
 *
 * <pre>
 * where                        | shape
 * -----------------------------+----------------------------------------------------------------
 * the catalog setting          | [{"id", "sha256": hex, "name", "scope", "tables": [...], "created"}]
 * POST /v1/admin/keys, request | {"scope": "read", "tables": ["People"], "name": "reporting"}
 * a listing, a create's answer | {"keys": [{"id", "name", "scope", "tables", "created"}]}; a
 *                              |   create answers one such object with "key": the secret, once
 * </pre>
 *
 * No answer carries a hash, and only a create's answer carries a key's secret.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class KeyJson {
  /** What a key may be named: at most this many characters. */
  public static final int MAX_NAME_LENGTH = 100;

  /** How many tables one key may list. */
  public static final int MAX_TABLES = 32;

  private static final JsonFactory FACTORY =
      JsonFactory.builder().disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION).build();
  private static final HexFormat HEX = HexFormat.of();

  private KeyJson() {}

  /** What a create asks for. */
  public record Request(KeyScope scope, List<String> tables, String name) {}

  /** The catalog's form, hashes included. */
  static String writeStored(List<ApiKey> keys) {
    return new String(write(g -> writeList(g, keys, true)), StandardCharsets.UTF_8);
  }

  static List<ApiKey> readStored(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return read(bytes, p -> readList(p, true));
  }

  /** A listing's answer: {@code {"keys": [...]}}, without hashes. */
  public static byte[] writeListing(List<ApiKey> keys) {
    return write(
        g -> {
          g.writeStartObject();
          g.writeFieldName("keys");
          writeList(g, keys, false);
          g.writeEndObject();
        });
  }

  public static List<ApiKey> readListing(byte[] json) {
    return read(
        json,
        p -> {
          expect(p, JsonToken.START_OBJECT, "A key listing is a JSON object");
          List<ApiKey> keys = List.of();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("keys")) {
              keys = readList(p, false);
            } else {
              p.skipChildren();
            }
          }
          return keys;
        });
  }

  /** One key as a listing shows it, without its hash: the CLI prints one such line per key. */
  public static byte[] writeKey(ApiKey key) {
    return write(
        g -> {
          g.writeStartObject();
          writeMembers(g, key, false);
          g.writeEndObject();
        });
  }

  /** A create's answer: the key as listed, and {@code "key"}, the secret to send. */
  public static byte[] writeCreated(ApiKeys.Created created) {
    return write(
        g -> {
          g.writeStartObject();
          g.writeStringField("key", created.secret());
          writeMembers(g, created.key(), false);
          g.writeEndObject();
        });
  }

  /** The secret ({@code "key"}) of a create's answer. */
  public static String readCreatedSecret(byte[] json) {
    return read(
        json,
        p -> {
          expect(p, JsonToken.START_OBJECT, "A created key is a JSON object");
          String secret = null;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if (field.equals("key")) {
              secret = p.getValueAsString();
            } else {
              p.skipChildren();
            }
          }
          if (secret == null) {
            throw new ViewbaseException(ErrorCode.InvalidJson, "A created key names its \"key\"");
          }
          return secret;
        });
  }

  public static byte[] writeRequest(Request request) {
    return write(
        g -> {
          g.writeStartObject();
          g.writeStringField("scope", request.scope().wireName());
          g.writeArrayFieldStart("tables");
          for (String t : request.tables()) {
            g.writeString(t);
          }
          g.writeEndArray();
          g.writeStringField("name", request.name());
          g.writeEndObject();
        });
  }

  /**
   * A create's request; InvalidJson for another shape, InvalidInput for more than {@link
   * #MAX_TABLES} tables (checked as they are read, so no body makes a long list).
   */
  public static Request readRequest(byte[] json) {
    return read(
        json,
        p -> {
          expect(p, JsonToken.START_OBJECT, "A key request is a JSON object");
          KeyScope scope = null;
          List<String> tables = List.of();
          String name = "";
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
              case "scope" -> scope = KeyScope.ofWireName(string(p, value, field));
              case "tables" -> tables = readStrings(p, field);
              case "name" -> name = value == JsonToken.VALUE_NULL ? "" : string(p, value, field);
              default ->
                  throw ViewbaseException.of(
                      ErrorCode.InvalidJson,
                      "A key request has scope, tables and name only",
                      "member",
                      field);
            }
          }
          if (scope == null) {
            throw ViewbaseException.of(
                ErrorCode.InvalidInput, "A key request names its scope: read, write or admin");
          }
          return new Request(scope, tables, name);
        });
  }

  private static void writeList(JsonGenerator g, List<ApiKey> keys, boolean withHash)
      throws IOException {
    g.writeStartArray();
    for (ApiKey key : keys) {
      g.writeStartObject();
      writeMembers(g, key, withHash);
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void writeMembers(JsonGenerator g, ApiKey key, boolean withHash)
      throws IOException {
    g.writeStringField("id", key.id());
    if (withHash) {
      g.writeStringField("sha256", HEX.formatHex(key.secretSha256()));
    }
    g.writeStringField("name", key.name());
    g.writeStringField("scope", key.scope().wireName());
    g.writeArrayFieldStart("tables");
    for (String t : key.tables()) {
      g.writeString(t);
    }
    g.writeEndArray();
    g.writeStringField("created", key.created().toString());
  }

  private static List<ApiKey> readList(JsonParser p, boolean withHash) throws IOException {
    expect(p, JsonToken.START_ARRAY, "Keys are a JSON array");
    List<ApiKey> keys = new ArrayList<>();
    while (p.nextToken() == JsonToken.START_OBJECT) {
      String id = null;
      byte[] hash = null;
      String name = "";
      KeyScope scope = null;
      List<String> tables = List.of();
      Instant created = Instant.EPOCH;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        switch (field) {
          case "id" -> id = string(p, value, field);
          case "sha256" -> hash = hex(string(p, value, field));
          case "name" -> name = string(p, value, field);
          case "scope" -> scope = KeyScope.ofWireName(string(p, value, field));
          case "tables" -> tables = readStrings(p, field);
          case "created" -> created = instant(string(p, value, field));
          default -> p.skipChildren();
        }
      }
      if (id == null || scope == null || (withHash && hash == null)) {
        throw new ViewbaseException(
            ErrorCode.InvalidJson, "A key names its id and scope (and, stored, its sha256)");
      }
      keys.add(new ApiKey(id, hash, name, scope, tables, created));
    }
    return keys;
  }

  private static List<String> readStrings(JsonParser p, String field) throws IOException {
    expect(p, JsonToken.START_ARRAY, field + " is a JSON array of names");
    List<String> out = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (out.size() == MAX_TABLES) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput, "A key lists at most 32 tables", "limit", MAX_TABLES);
      }
      out.add(string(p, t, field));
    }
    return out;
  }

  private static String string(JsonParser p, JsonToken t, String field) throws IOException {
    if (t != JsonToken.VALUE_STRING) {
      throw ViewbaseException.of(ErrorCode.InvalidJson, "Expected a JSON string", "member", field);
    }
    return p.getText();
  }

  private static byte[] hex(String text) {
    try {
      return HEX.parseHex(text);
    } catch (IllegalArgumentException e) {
      throw new ViewbaseException(ErrorCode.InvalidJson, "A stored key's sha256 is not hex");
    }
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw ViewbaseException.of(ErrorCode.InvalidJson, "Not an ISO-8601 instant", "created", text);
    }
  }

  private static void expect(JsonParser p, JsonToken expected, String message) {
    if (p.currentToken() != expected) {
      throw new ViewbaseException(ErrorCode.InvalidJson, message);
    }
  }

  private interface Writer {
    void writeTo(JsonGenerator g) throws IOException;
  }

  private interface Reader<T> {
    T readFrom(JsonParser p) throws IOException;
  }

  private static byte[] write(Writer writer) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      writer.writeTo(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static <T> T read(byte[] json, Reader<T> reader) {
    try (JsonParser p = FACTORY.createParser(json)) {
      p.nextToken();
      T value = reader.readFrom(p);
      if (p.nextToken() != null) {
        throw new ViewbaseException(ErrorCode.InvalidJson, "Trailing content after the JSON value");
      }
      return value;
    } catch (JsonProcessingException e) {
      throw new ViewbaseException(
          ErrorCode.InvalidJson, "Malformed JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
