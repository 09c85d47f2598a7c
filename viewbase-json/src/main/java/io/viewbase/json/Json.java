package io.viewbase.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.ByteArrayOutputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shared Jackson factory and the translation of Jackson's parse failures into {@link
 * ErrorCode#InvalidJson} errors that name the line and column. Internal to the JSON codecs.
 */
final class Json {
  /** Thread-safe once built; parsers and generators are cheap to create from it. */
  static final JsonFactory FACTORY =
      JsonFactory.builder()
          // Error locations are for humans; echoing the source would put request bytes in messages.
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .build();

  private Json() {}

  /** Runs a writer against a fresh generator and returns the UTF-8 bytes. */
  static byte[] write(GeneratorWork work) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      work.writeTo(g);
    } catch (IOException e) {
      // Writing to memory only fails on a value the generator refuses; that is our bug, not the
      // caller's.
      throw new ViewbaseException(
          ErrorCode.InternalError, "Could not write JSON: " + e.getMessage(), Map.of(), e);
    }
    return out.toByteArray();
  }

  /** A malformed-JSON error at the parser's position (Jackson's message, without a stack). */
  static ViewbaseException invalid(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    Map<String, Object> context = new LinkedHashMap<>();
    if (at != null) {
      context.put("line", at.getLineNr());
      context.put("column", at.getColumnNr());
    }
    return new ViewbaseException(
        ErrorCode.InvalidJson, "Malformed JSON: " + e.getOriginalMessage(), context);
  }

  /**
   * An InvalidJson error at the parser's current token, for JSON that parses but has the wrong
   * shape.
   */
  static ViewbaseException shape(JsonParser p, String message) {
    JsonLocation at = p.currentTokenLocation();
    return ViewbaseException.of(
        ErrorCode.InvalidJson, message, "line", at.getLineNr(), "column", at.getColumnNr());
  }

  /** An InvalidJson error for a name given twice in one object. */
  static ViewbaseException duplicate(JsonParser p, String name) {
    JsonLocation at = p.currentTokenLocation();
    return ViewbaseException.of(
        ErrorCode.InvalidJson,
        "Duplicate property name",
        "property",
        name,
        "line",
        at.getLineNr(),
        "column",
        at.getColumnNr());
  }

  /** Reads the value of one known member, at its first token. */
  @FunctionalInterface
  interface MemberWork {
    void read(JsonParser p, String member) throws IOException;
  }

  /**
   * Reads the members of the object at the parser's current token: each known member once (a second
   * time is InvalidJson) with {@code work}; unknown members are skipped and returned, sorted, so
   * the caller can refuse them all by name in one error.
   */
  static java.util.Set<String> readKnownMembers(
      JsonParser p, java.util.Set<String> known, MemberWork work) throws IOException {
    java.util.Set<String> seen = new java.util.HashSet<>();
    java.util.Set<String> unknown = new java.util.TreeSet<>();
    while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
      String member = p.currentName();
      p.nextToken();
      if (!known.contains(member)) {
        unknown.add(member);
        p.skipChildren();
        continue;
      }
      if (!seen.add(member)) {
        throw duplicate(p, member);
      }
      work.read(p, member);
    }
    return unknown;
  }

  /** Writes what a generator should write; may throw the generator's IOException. */
  @FunctionalInterface
  interface GeneratorWork {
    void writeTo(JsonGenerator g) throws IOException;
  }

  /** Reads with a parser; may throw the parser's IOException. */
  @FunctionalInterface
  interface ParserWork<T> {
    T readFrom(JsonParser p) throws IOException;
  }

  /**
   * Parses a whole document with {@code work}, which must consume exactly one value, and turns
   * every parse failure into InvalidJson. Trailing content after that value is malformed too.
   */
  static <T> T read(byte[] data, int offset, int length, ParserWork<T> work) {
    // The parser is made inside the try: making it detects the encoding, which may fail too.
    try (JsonParser p = FACTORY.createParser(data, offset, length)) {
      if (p.nextToken() == null) {
        throw ViewbaseException.of(
            ErrorCode.InvalidJson, "The body is empty; a JSON value was expected");
      }
      T result = work.readFrom(p);
      if (p.nextToken() != null) {
        throw shape(p, "Unexpected content after the JSON value");
      }
      return result;
    } catch (JsonProcessingException e) {
      throw invalid(e);
    } catch (CharConversionException e) {
      // Jackson picks UTF-16 or UTF-32 from leading zero bytes and reports bytes that do not decode
      // in it (or an order of UCS-4 it does not read) this way, not as a parse error: still the
      // sender's malformed body.
      throw ViewbaseException.of(
          ErrorCode.InvalidJson, "Malformed JSON: the body does not decode as text");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
