package io.viewbase.server.js;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * The Node.js that runs one npm project of JavaScript scenarios ({@code src/test/js}: the Azure
 * Tables SDK; {@code src/test/js-dynamodb}: ElectroDB and the AWS SDK), with that project's npm
 * packages installed: found and prepared once per project and JVM by {@link #require(String)}.
 *
 * <pre>
 * node runs | node_modules current | npm runs | viewbase.test.requireNode unset | =true
 * ----------+----------------------+----------+---------------------------------+--------------------------------
 * no        | -                    | -        | tests skipped, saying why       | tests fail, saying what to install
 * yes       | yes                  | -        | tests run                       | tests run
 * yes       | no                   | no       | skipped                         | fail
 * yes       | no                   | yes      | npm ci, then run (npm ci failing: skipped / fail, with npm's output)
 * </pre>
 *
 * "Current" means {@code node_modules/.package-lock.json}, which npm writes on every install, is at
 * least as new as {@code package-lock.json}: a pull that changes the lock file reinstalls. A
 * developer with only a JDK and Maven can still run {@code mvn -B verify}; CI sets {@code
 * -Dviewbase.test.requireNode=true} so that a machine without node cannot pass by skipping.
 *
 * <p>The SDKs support Node.js 20 and newer. Node 18, which Debian 12 ships as {@code nodejs} (what
 * {@code .ci/run} installs where node is missing), runs the scenarios with {@code
 * --experimental-global-webcrypto}: the Azure SDK's HTTP runtime calls the global {@code
 * crypto.randomUUID()}, global by default only from Node 19 on. Older nodes count as missing.
 *
 * <p>System properties (the viewbase-server pom passes them to the forked JVM): {@code
 * viewbase.test.node} and {@code viewbase.test.npm} (the programs, default {@code node} and {@code
 * npm} on the PATH), {@code viewbase.test.jsRoot} (the directory holding the npm projects, default
 * {@code src/test}), {@code viewbase.test.requireNode}.
 */
public final class NodeRuntime {
  static final String NODE = "viewbase.test.node";
  static final String NPM = "viewbase.test.npm";
  static final String JS_ROOT = "viewbase.test.jsRoot";
  static final String REQUIRE = "viewbase.test.requireNode";

  private static final Duration VERSION_TIMEOUT = Duration.ofSeconds(20);
  // A first install downloads some 25 small packages; minutes only on a slow mirror.
  private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);

  /** Each scenario takes about a second; a hung one fails after this, with what it printed. */
  static final Duration SCENARIO_TIMEOUT = Duration.ofSeconds(60);

  private static final String INSTALL_HINT =
      "Install Node.js 18 or newer (20+ is what the SDKs support) "
          + "and npm (Debian/Ubuntu: apt-get install nodejs npm; elsewhere https://nodejs.org), or name the "
          + "programs with -D"
          + NODE
          + "=/path/to/node and -D"
          + NPM
          + "=/path/to/npm.";
  private static final int OLDEST_MAJOR = 18;

  /** Below this major version, crypto is not a global unless node is asked for it. */
  private static final int GLOBAL_CRYPTO_MAJOR = 19;

  /** The outcome of each project's one preparation in this JVM: a runtime, or why there is none. */
  private static final Map<String, Prepared> PREPARED = new HashMap<>();

  private final List<String> node;
  private final String version;
  private final Path dir;

  private NodeRuntime(List<String> node, String version, Path dir) {
    this.node = node;
    this.version = version;
    this.dir = dir;
  }

  /**
   * The runtime of the npm project in this directory of {@code viewbase.test.jsRoot} ({@code "js"},
   * {@code "js-dynamodb"}); when there is none, aborts the calling test (skipped) or, with {@code
   * -Dviewbase.test.requireNode=true}, fails it, in both cases with the reason.
   */
  public static synchronized NodeRuntime require(String project) {
    Prepared outcome =
        PREPARED.computeIfAbsent(
            project,
            p -> {
              try {
                return new Prepared(prepare(p), null);
              } catch (Unavailable e) {
                // Once, where a developer sees it: Surefire's summary counts skipped tests without
                // reasons.
                System.err.println(
                    "JavaScript scenarios of src/test/" + p + " cannot run: " + e.getMessage());
                return new Prepared(null, e.getMessage());
              }
            });
    if (outcome.runtime() != null) {
      return outcome.runtime();
    }
    if (Boolean.getBoolean(REQUIRE)) {
      return fail(
          outcome.unavailable()
              + "\n(-D"
              + REQUIRE
              + "=true: the JavaScript scenarios must run here.)");
    }
    return Assumptions.abort(
        outcome.unavailable() + "\n(Skipped; -D" + REQUIRE + "=true makes this a failure.)");
  }

  private static NodeRuntime prepare(String project) throws Unavailable {
    Path dir =
        Path.of(System.getProperty(JS_ROOT, "src/test"), project).toAbsolutePath().normalize();
    if (!Files.isRegularFile(dir.resolve("package-lock.json"))) {
      throw new Unavailable(
          "The JavaScript scenarios are not at "
              + dir
              + " (no package-lock.json there); -D"
              + JS_ROOT
              + " names the directory holding "
              + project
              + ".");
    }
    String node = System.getProperty(NODE, "node");
    ChildRun version =
        ChildRun.run(List.of(node, "--version"), dir, VERSION_TIMEOUT)
            .orElseThrow(
                () ->
                    new Unavailable(
                        "Node.js was not found: '"
                            + node
                            + "' could not be started. "
                            + INSTALL_HINT));
    if (!version.succeeded()) {
      throw new Unavailable(
          "Node.js did not answer '"
              + node
              + " --version'. "
              + INSTALL_HINT
              + "\n"
              + version.describe());
    }
    String v = version.stdout().strip();
    int major = majorVersion(v);
    if (major < OLDEST_MAJOR) {
      throw new Unavailable(
          "Node.js " + v + " ('" + node + "') is too old for the SDKs. " + INSTALL_HINT);
    }
    if (!installed(dir)) {
      install(dir);
    }
    List<String> command =
        major < GLOBAL_CRYPTO_MAJOR
            ? List.of(node, "--experimental-global-webcrypto")
            : List.of(node);
    return new NodeRuntime(command, v, dir);
  }

  /** 20 for {@code v20.20.2}; 0 for an answer that is not a version. */
  private static int majorVersion(String version) {
    Matcher m = Pattern.compile("^v?(\\d+)\\.").matcher(version);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** Whether node_modules holds what package-lock.json lists, as of npm's last install. */
  private static boolean installed(Path dir) {
    Path marker = dir.resolve("node_modules/.package-lock.json");
    try {
      return Files.isRegularFile(marker)
          && Files.getLastModifiedTime(marker)
                  .compareTo(Files.getLastModifiedTime(dir.resolve("package-lock.json")))
              >= 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code npm ci}: exactly the lock file's versions, node_modules rebuilt from scratch. No audit
   * or funding calls (offline-friendly: npm's cache serves a reinstall), and no install scripts:
   * none of the packages needs one.
   */
  private static void install(Path dir) throws Unavailable {
    String npm = System.getProperty(NPM, "npm");
    List<String> command =
        new ArrayList<>(
            List.of(npm, "ci", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts"));
    ChildRun install =
        ChildRun.run(command, dir, INSTALL_TIMEOUT)
            .orElseThrow(
                () ->
                    new Unavailable(
                        "npm was not found: '"
                            + npm
                            + "' could not be started, and "
                            + dir.resolve("node_modules")
                            + " is missing or older than package-lock.json. "
                            + INSTALL_HINT));
    if (!install.succeeded()) {
      throw new Unavailable(
          "npm ci could not install the packages of " + dir + ".\n" + install.describe());
    }
  }

  /** Runs {@code node <script> <args...>} in the npm project, at most {@link #SCENARIO_TIMEOUT}. */
  public ChildRun run(String script, String... args) {
    return run(Map.of(), script, args);
  }

  /** As {@link #run(String, String...)}, with these environment variables set (null: removed). */
  public ChildRun run(Map<String, String> environment, String script, String... args) {
    List<String> command = new ArrayList<>(node);
    command.add(script);
    command.addAll(List.of(args));
    return ChildRun.run(command, dir, SCENARIO_TIMEOUT, environment)
        .orElseThrow(
            () -> new IllegalStateException("'" + node.get(0) + "' could no longer be started"));
  }

  /** {@code v20.20.2}: for failure messages. */
  public String version() {
    return version;
  }

  /** A project's runtime, or why it has none. */
  private record Prepared(NodeRuntime runtime, String unavailable) {}

  /** Why the scenarios cannot run here; its message is what the skipped or failed tests say. */
  private static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message, null, false, false);
    }
  }
}
