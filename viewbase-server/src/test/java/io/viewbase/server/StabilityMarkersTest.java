package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every public type of the server says how far it is promised to stay as it is ({@code
 * io.viewbase.api.Stability}). The marker is kept only in class files, so this reads the sources.
 */
class StabilityMarkersTest {
  private static final Path SOURCES = Path.of("src/main/java");
  private static final Pattern PUBLIC_TYPE =
      Pattern.compile(
          "^public (?:final |abstract |sealed |non-sealed )*(?:class|interface|record|enum|@interface) (\\w+)",
          Pattern.MULTILINE);

  @Test
  void everyPublicTypeCarriesAStabilityMarker() throws IOException {
    List<String> unmarked = new ArrayList<>();
    int types = 0;
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file);
        Matcher m = PUBLIC_TYPE.matcher(text);
        if (m.find()) {
          types++;
          String head = text.substring(Math.max(0, text.lastIndexOf("*/", m.start())), m.start());
          if (!head.contains("@Stability(")) {
            unmarked.add(m.group(1));
          }
        }
      }
    }
    assertThat(types).as("public types found under " + SOURCES.toAbsolutePath()).isGreaterThan(10);
    assertThat(unmarked).as("public types without @Stability").isEmpty();
  }
}
