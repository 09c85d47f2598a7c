package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --log-format json} writes its log as JSON objects, one a line, on stderr, and the
 * default stays text lines; stdout carries the listening line either way.
 */
class LogFormatTest {
  @Test
  void serveWithLogFormatJsonWritesOneJsonObjectPerLine(@TempDir Path dir) throws Exception {
    List<String> lines = serve(dir, "json");

    assertThat(lines).isNotEmpty();
    Map<String, String> listening = null;
    for (String line : lines) {
      Map<String, String> fields = fields(line); // fails on a line that is not one JSON object
      assertThat(fields).containsKeys("level", "loggerName", "timestamp");
      if (String.valueOf(fields.get("formattedMessage")).contains("native API listening")) {
        listening = fields;
      }
    }
    assertThat(listening).as(String.join("\n", lines)).isNotNull();
    assertThat(listening)
        .containsEntry("level", "INFO")
        .containsEntry("loggerName", "io.viewbase.server.ViewbaseServer");
  }

  @Test
  void serveLogsTextLinesByDefault(@TempDir Path dir) throws Exception {
    List<String> lines = serve(dir, "text");

    assertThat(lines)
        .anyMatch(
            l ->
                l.matches("\\d{4}-\\d\\d-\\d\\dT\\S+ INFO ViewbaseServer - Viewbase native API.*"));
    assertThat(lines).noneMatch(l -> l.startsWith("{"));
  }

  /** Starts serve in a child JVM, waits until it listens, stops it, and returns its stderr. */
  private static List<String> serve(Path dir, String format)
      throws IOException, InterruptedException {
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    Process p =
        ServerProcess.viewbase(
                List.of(),
                List.of(
                    "serve",
                    "--data",
                    dir.resolve("data").toString(),
                    "--port",
                    "0",
                    "--azure-port",
                    "0",
                    "--dynamodb-port",
                    "0",
                    "--log-format",
                    format))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!Files.readString(out).contains("Viewbase listening on")) {
        assertThat(p.isAlive()).as(Files.readString(err)).isTrue();
        assertThat(System.nanoTime() - deadline).as("listening").isNegative();
        Thread.sleep(20);
      }
    } finally {
      p.destroy(); // SIGTERM: the shutdown hook closes the server and the database
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    return Files.readAllLines(err).stream().filter(l -> !l.isBlank()).toList();
  }

  /** The top-level string and number members of a line that must be exactly one JSON object. */
  private static Map<String, String> fields(String line) throws IOException {
    Map<String, String> fields = new HashMap<>();
    try (JsonParser p = new JsonFactory().createParser(line)) {
      assertThat(p.nextToken()).as(line).isEqualTo(JsonToken.START_OBJECT);
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (value.isStructStart()) {
          p.skipChildren();
        } else {
          fields.put(name, p.getText());
        }
      }
      assertThat(p.currentToken()).as(line).isEqualTo(JsonToken.END_OBJECT);
      assertThat(p.nextToken()).as("one object on " + line).isNull();
    }
    return fields;
  }
}
