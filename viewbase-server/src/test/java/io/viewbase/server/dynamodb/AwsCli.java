package io.viewbase.server.dynamodb;

import static org.junit.jupiter.api.Assertions.fail;

import io.viewbase.server.js.ChildRun;
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
 * The AWS CLI that {@link AwsCliTest} runs against a server: found once per JVM by {@link
 * #require()}, and run with the dialect's keys in its environment and nothing of the machine's own
 * AWS configuration.
 *
 * <pre>
 * aws --version answers | viewbase.test.requireAwsCli unset | =true
 * ----------------------+-----------------------------------+-----------------------------------
 * no                    | tests skipped, saying why         | tests fail, saying what to install
 * aws-cli/1.x or 2.x    | tests run                         | tests run
 * </pre>
 *
 * <p>Both major versions are real clients: version 2 is what Debian 12 packages as {@code awscli}
 * (what {@code .ci/run} installs where {@code aws} is missing), version 1 what pip installs. They
 * differ in one thing the tests touch: only version 2 has a pager, turned off by {@code
 * --no-cli-pager}, an option version 1 refuses.
 *
 * <p>System properties (the viewbase-server pom passes them to the forked JVM): {@code
 * viewbase.test.aws} (the program, default {@code aws} on the PATH) and {@code
 * viewbase.test.requireAwsCli}.
 */
final class AwsCli {
  static final String PROGRAM = "viewbase.test.aws";
  static final String REQUIRE = "viewbase.test.requireAwsCli";

  /** A CLI call starts a Python interpreter: about a second; a hung one fails after this. */
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static final String INSTALL_HINT =
      "Install the AWS CLI (Debian/Ubuntu: apt-get install awscli; elsewhere"
          + " https://aws.amazon.com/cli), or name it with -D"
          + PROGRAM
          + "=/path/to/aws.";

  private static AwsCli found;
  private static String unavailable;

  private final String program;
  private final String version;
  private final int major;

  private AwsCli(String program, String version, int major) {
    this.program = program;
    this.version = version;
    this.major = major;
  }

  /**
   * The CLI; when there is none, aborts the calling test (skipped) or, with {@code
   * -Dviewbase.test.requireAwsCli=true}, fails it, in both cases with the reason.
   */
  static synchronized AwsCli require() {
    if (found == null && unavailable == null) {
      String program = System.getProperty(PROGRAM, "aws");
      unavailable = find(program);
      if (unavailable != null) {
        // Once, where a developer sees it: Surefire's summary counts skipped tests without reasons.
        System.err.println("AWS CLI tests cannot run: " + unavailable);
      }
    }
    if (found != null) {
      return found;
    }
    if (Boolean.getBoolean(REQUIRE)) {
      return fail(unavailable + "\n(-D" + REQUIRE + "=true: the AWS CLI must run here.)");
    }
    return Assumptions.abort(
        unavailable + "\n(Skipped; -D" + REQUIRE + "=true makes this a failure.)");
  }

  /** Sets {@link #found}, or answers why not. */
  private static String find(String program) {
    ChildRun run =
        ChildRun.run(
                List.of(program, "--version"),
                Path.of(System.getProperty("java.io.tmpdir")),
                TIMEOUT,
                isolated(Map.of()))
            .orElse(null);
    if (run == null) {
      return "The AWS CLI was not found: '" + program + "' could not be started. " + INSTALL_HINT;
    }
    // "aws-cli/2.9.19 Python/3.11.2 Linux/6.1 source/x86_64.debian.12 prompt/off"; version 1
    // printed it on stderr before 1.18
    String answer = (run.stdout() + " " + run.stderr()).strip();
    Matcher m = Pattern.compile("aws-cli/((\\d+)\\.\\S+)").matcher(answer);
    if (!run.succeeded() || !m.find()) {
      return "'"
          + program
          + " --version' did not name an AWS CLI version. "
          + INSTALL_HINT
          + "\n"
          + run.describe();
    }
    found = new AwsCli(program, m.group(1), Integer.parseInt(m.group(2)));
    System.err.println("AWS CLI tests run '" + program + "': aws-cli/" + found.version);
    return null;
  }

  /**
   * The environment of every call: these variables, and none of the machine's AWS configuration
   * (its files, profiles, region, session token, pager or instance metadata) that could change what
   * the CLI sends or where.
   */
  private static Map<String, String> isolated(Map<String, String> variables) {
    Path none = Path.of(System.getProperty("java.io.tmpdir"), "viewbase-no-aws-config");
    Map<String, String> env = new HashMap<>();
    for (String name :
        List.of(
            "AWS_PROFILE",
            "AWS_DEFAULT_PROFILE",
            "AWS_REGION",
            "AWS_SESSION_TOKEN",
            "AWS_SECURITY_TOKEN",
            "AWS_ENDPOINT_URL",
            "AWS_ENDPOINT_URL_DYNAMODB",
            "AWS_CA_BUNDLE")) {
      env.put(name, null);
    }
    env.put("AWS_CONFIG_FILE", none.resolve("config").toString());
    env.put("AWS_SHARED_CREDENTIALS_FILE", none.resolve("credentials").toString());
    env.put("AWS_PAGER", "");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("AWS_CLI_AUTO_PROMPT", "off");
    env.putAll(variables);
    return env;
  }

  /**
   * Runs {@code aws <service> <operation> <args...>} ({@code dynamodb} or {@code dynamodbstreams})
   * against the endpoint in {@code directory} (where {@code file://} arguments are), signed with
   * the key pair, output as JSON.
   */
  ChildRun run(
      String service,
      String endpoint,
      String accessKeyId,
      String secretAccessKey,
      Path directory,
      String operation,
      List<String> args) {
    List<String> command = new ArrayList<>(List.of(program, service, operation));
    command.addAll(List.of("--endpoint-url", endpoint, "--output", "json"));
    if (major >= 2) {
      command.add("--no-cli-pager");
    }
    command.addAll(args);
    Map<String, String> env =
        isolated(
            Map.of(
                "AWS_ACCESS_KEY_ID", accessKeyId,
                "AWS_SECRET_ACCESS_KEY", secretAccessKey,
                "AWS_DEFAULT_REGION", "us-east-1"));
    return ChildRun.run(command, directory, TIMEOUT, env)
        .orElseThrow(
            () -> new IllegalStateException("'" + program + "' could no longer be started"));
  }

  /** {@code 2.9.19}: for failure messages. */
  String version() {
    return version;
  }

  int major() {
    return major;
  }
}
