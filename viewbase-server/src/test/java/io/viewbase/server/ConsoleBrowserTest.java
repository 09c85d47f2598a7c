package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.js.ChildRun;
import io.viewbase.server.js.NodeRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console in a real browser against a real server (RocksDB on a temporary directory, a real
 * socket): {@code src/test/js-console}'s scripts, run by Node.js with {@code playwright-core}
 * driving headless Chromium, perform the flows of docs/console.md and fail on any page error or
 * {@code console.error}.
 *
 * <pre>
 * node (NodeRuntime) | chromium runs | viewbase.test.requireChromium unset | =true (.ci/run)
 * -------------------+---------------+-------------------------------------+----------------
 * missing            | -             | skipped (or failed: requireNode)    | as for node
 * runs               | no            | browser test skipped                | failed
 * runs               | yes           | runs                                | runs
 * </pre>
 *
 * The template test needs no browser: it runs the console's key preview and the server's views over
 * the same items. Screenshots go to {@code target/console-screenshots}, or to the directory {@code
 * -Dviewbase.console.screenshots} names (docs/console is where the committed ones live).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {
  static final String CHROMIUM = "viewbase.test.chromium";
  static final String REQUIRE_CHROMIUM = "viewbase.test.requireChromium";
  static final String SCREENSHOTS = "viewbase.console.screenshots";

  private Database db;
  private ViewbaseServer server;

  @BeforeAll
  void start(@TempDir Path dir) {
    db = Viewbase.open(OpenOptions.at(dir));
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(2));
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  private String base() {
    return "http://127.0.0.1:" + server.port();
  }

  @Test
  void keyPreviewRendersEveryKeyTheServersViewsHold() {
    NodeRuntime node = NodeRuntime.require("js-console");
    passes(node.run("template-vectors.js", base()));
  }

  @Test
  void pageLogicRendersProgressAndKeepsNumbersAsWritten() {
    NodeRuntime node = NodeRuntime.require("js-console");
    passes(node.run("page-logic.js"));
  }

  @Test
  void keyDialogAsksOn401KeepsTheKeyAndShowsA403(@TempDir Path dir) {
    NodeRuntime node = NodeRuntime.require("js-console");
    String chromium = chromium();
    try (Database keyed = Viewbase.open(OpenOptions.at(dir))) {
      ApiKeys keys = ApiKeys.of(keyed);
      String admin = keys.create(KeyScope.ADMIN, List.of(), "console admin").secret();
      String read = keys.create(KeyScope.READ, List.of(), "console reader").secret();
      try (ViewbaseServer closed =
          ViewbaseServer.start(keyed, ServerOptions.defaults().withPort(0).withIoThreads(1))) {
        passes(node.run("key-flow.js", "http://127.0.0.1:" + closed.port(), chromium, admin, read));
      }
    }
  }

  @Test
  void mainFlowsWorkInHeadlessChromiumWithoutConsoleErrors() throws Exception {
    NodeRuntime node = NodeRuntime.require("js-console");
    String chromium = chromium();
    String shots = System.getProperty(SCREENSHOTS, "");
    Path screenshots =
        shots.isBlank()
            ? Path.of("target/console-screenshots").toAbsolutePath()
            : Path.of(shots).toAbsolutePath();
    Files.createDirectories(screenshots);
    ChildRun run = node.run("console-flows.js", base(), chromium, screenshots.toString());
    passes(run);
    try (var files = Files.list(screenshots)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .contains(
              "tables.png",
              "view.png",
              "view-failed.png",
              "query.png",
              "item-conflict.png",
              "narrow.png");
    }
  }

  /** The Chromium to drive; aborts (skips) the test, or fails it, when there is none. */
  private static String chromium() {
    String chromium = System.getProperty(CHROMIUM, "/usr/bin/chromium");
    if (!Files.isExecutable(Path.of(chromium))) {
      String why =
          "Chromium is not at "
              + chromium
              + " (Debian: apt-get install chromium; or -D"
              + CHROMIUM
              + "=/path/to/chromium).";
      if (Boolean.getBoolean(REQUIRE_CHROMIUM)) {
        fail(why + " (-D" + REQUIRE_CHROMIUM + "=true: the browser tests must run here.)");
      }
      Assumptions.abort(why + " (Skipped; -D" + REQUIRE_CHROMIUM + "=true makes this a failure.)");
    }
    return chromium;
  }

  private static void passes(ChildRun run) {
    assertThat(run.succeeded())
        .as(() -> "the browser scenario failed:\n" + run.describe())
        .isTrue();
  }
}
