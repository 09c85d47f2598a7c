package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The worked example in docs/entities.md is the code that {@link WorkedExample} runs, line for
 * line.
 */
class DocListingTest {
  @Test
  void docsListingIsTheTestedCode() throws IOException {
    Path module = Path.of("").toAbsolutePath();
    String source =
        Files.readString(module.resolve("src/test/java/io/viewbase/entity/WorkedExample.java"));
    String doc = Files.readString(module.resolve("../docs/entities.md"));

    String tested =
        between(source, "  // listing:start\n", "  // listing:end\n")
            .lines()
            .map(l -> l.startsWith("  ") ? l.substring(2) : l)
            .collect(Collectors.joining("\n"));
    String documented =
        between(doc, "<!-- listing: WorkedExample.java -->\n```java\n", "```\n").stripTrailing();

    assertThat(documented).isEqualTo(tested.stripTrailing());
    assertThat(List.of(tested.split("\n"))).hasSizeGreaterThan(50);
  }

  private static String between(String text, String start, String end) {
    int from = text.indexOf(start);
    assertThat(from).as("marker %s", start.strip()).isNotNegative();
    from += start.length();
    int to = text.indexOf(end, from);
    assertThat(to).as("marker %s", end.strip()).isNotNegative();
    return text.substring(from, to);
  }
}
