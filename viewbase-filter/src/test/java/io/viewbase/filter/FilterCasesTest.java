package io.viewbase.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the filter cases in {@code src/test/resources/filter-cases/*.txt}. Each file is a list of
 * lines:
 *
 * <pre>
 * # a comment
 * entity: @pk=p1; @id=r1; @ts=2020-01-01T00:00:00Z; Age:Int32=30; Name:String=Bob
 * Age eq 30            =&gt; true
 * Age eq               =&gt; error at 6: expected a property
 * Age  eq  30          =&gt; prints Age eq 30
 * </pre>
 *
 * An {@code entity:} line sets the item the following cases run against: {@code @pk}, {@code @id}
 * and {@code @ts} set the keys and timestamp (absent means missing), other entries are {@code
 * Name:Type=value} with the types String, Int32, Int64, Double, Decimal, Boolean, DateTime (ISO
 * instant), Guid, Binary (hex), Null, Object and Array (both empty). A case is a filter, then
 * {@code =>} (the last one on the line), then the expectation: {@code true}/{@code false} for a
 * match, {@code error at N} (optionally {@code : text} the message contains) for an InvalidFilter
 * at position N, or {@code prints TEXT} for the canonical form. Every case that parses is also
 * checked to round-trip through print and parse.
 */
class FilterCasesTest {
  private static final String DIRECTORY = "filter-cases";

  private record Entity(
      String partitionKey, String id, Instant timestamp, Map<String, Value> properties) {
    static final Entity EMPTY = new Entity(null, null, null, Map.of());
  }

  private record Case(Path file, int line, Entity entity, String filter, String expectation) {
    String where() {
      return file.getFileName() + ":" + line;
    }
  }

  @TestFactory
  Stream<DynamicTest> filterCasesFromDataFilesHoldAsWritten() {
    return allCases().stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.where() + "  " + c.filter() + "  => " + c.expectation(),
                    URI.create(c.file().toUri() + "?line=" + c.line()),
                    () -> run(c)));
  }

  @Test
  void dataFilesHoldAtLeast150Cases() {
    assertThat(allCases()).hasSizeGreaterThanOrEqualTo(150);
  }

  private static void run(Case c) {
    String expectation = c.expectation();
    String at = " [" + c.where() + "]";
    if (expectation.startsWith("error at ")) {
      String rest = expectation.substring("error at ".length());
      int colon = rest.indexOf(':');
      int position = Integer.parseInt((colon < 0 ? rest : rest.substring(0, colon)).trim());
      String fragment = colon < 0 ? "" : rest.substring(colon + 1).trim();
      assertThatThrownBy(() -> Filters.parse(c.filter()))
          .as("filter %s%s", c.filter(), at)
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> {
                assertThat(e.code()).as("code" + at).isEqualTo(ErrorCode.InvalidFilter);
                assertThat(e.context().get("position"))
                    .as("position in '" + e.getMessage() + "'" + at)
                    .isEqualTo(position);
                assertThat(e.getMessage())
                    .as("message" + at)
                    .contains(fragment)
                    .contains(" at " + position);
              });
      return;
    }
    Filter filter;
    try {
      filter = Filters.parse(c.filter());
    } catch (ViewbaseException e) {
      throw new AssertionError("does not parse: " + e.getMessage() + at, e);
    }
    assertThat(Filters.parse(Filters.print(filter)))
        .as("round trip of " + Filters.print(filter) + at)
        .isEqualTo(filter);
    if (expectation.startsWith("prints ")) {
      assertThat(Filters.print(filter))
          .as("canonical text" + at)
          .isEqualTo(expectation.substring("prints ".length()));
    } else if (expectation.equals("true") || expectation.equals("false")) {
      Entity e = c.entity();
      assertThat(Filters.matches(filter, e.partitionKey(), e.id(), e.timestamp(), e.properties()))
          .as("%s on %s%s", c.filter(), e, at)
          .isEqualTo(Boolean.parseBoolean(expectation));
    } else {
      fail("unknown expectation '" + expectation + "'" + at);
    }
  }

  private static List<Case> allCases() {
    List<Case> cases = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory())) {
      for (Path file : files.filter(p -> p.toString().endsWith(".txt")).sorted().toList()) {
        cases.addAll(read(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cases;
  }

  private static Path directory() {
    URL url = FilterCasesTest.class.getClassLoader().getResource(DIRECTORY);
    if (url == null) {
      throw new IllegalStateException("no " + DIRECTORY + " on the test class path");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Case> read(Path file) throws IOException {
    List<Case> cases = new ArrayList<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    Entity entity = Entity.EMPTY;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      if (trimmed.startsWith("entity:")) {
        entity = entity(trimmed.substring("entity:".length()), file.getFileName() + ":" + (i + 1));
        continue;
      }
      int arrow = line.lastIndexOf("=>");
      if (arrow < 0) {
        throw new IllegalStateException(
            file.getFileName() + ":" + (i + 1) + ": no '=>' in a case line");
      }
      // The filter keeps its inner spacing (positions in errors count from its first character).
      String filter = line.substring(0, arrow).stripTrailing();
      cases.add(new Case(file, i + 1, entity, filter, line.substring(arrow + 2).strip()));
    }
    return cases;
  }

  private static Entity entity(String spec, String where) {
    String pk = null;
    String id = null;
    Instant ts = null;
    Map<String, Value> properties = new LinkedHashMap<>();
    for (String entry : spec.split(";")) {
      String e = entry.strip();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.indexOf('=');
      String name = e.substring(0, eq).strip();
      String raw = e.substring(eq + 1).strip();
      switch (name) {
        case "@pk" -> pk = raw;
        case "@id" -> id = raw;
        case "@ts" -> ts = Instant.parse(raw);
        default -> {
          int colon = name.indexOf(':');
          if (colon < 0) {
            throw new IllegalStateException(where + ": '" + e + "' has no type (Name:Type=value)");
          }
          properties.put(name.substring(0, colon), value(name.substring(colon + 1), raw, where));
        }
      }
    }
    return new Entity(pk, id, ts, properties);
  }

  private static Value value(String type, String raw, String where) {
    return switch (type) {
      case "String" -> Value.of(raw);
      case "Int32" -> Value.of(Integer.parseInt(raw));
      case "Int64" -> Value.of(Long.parseLong(raw));
      case "Double" -> Value.of(Double.parseDouble(raw));
      case "Decimal" -> Value.Decimal.parse(raw);
      case "Boolean" -> Value.of(Boolean.parseBoolean(raw));
      case "DateTime" -> Value.of(Instant.parse(raw));
      case "Guid" -> Value.of(UUID.fromString(raw));
      case "Binary" -> Value.of(HexFormat.of().parseHex(raw));
      case "Null" -> Value.nullValue();
      case "Object" -> new Value.Obj(Map.of());
      case "Array" -> new Value.Arr(List.of());
      default -> throw new IllegalStateException(where + ": unknown type " + type);
    };
  }
}
