package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code viewbase} launcher script at the checkout's root: which JVM options it puts before
 * {@code -jar}. It runs here in a copy of the checkout's layout (the script and an up-to-date jar,
 * no sources, so it builds nothing) with a {@code java} on the PATH that prints the arguments it
 * was given instead of running them.
 */
class LauncherTest {
  /** The launcher in the checkout (tests run in the module's directory). */
  private static final Path LAUNCHER = Path.of("..", "viewbase");

  @TempDir Path dir;
  private Path bin;
  private Path jar;

  @BeforeEach
  void layOut() throws IOException {
    Path checkout = Files.createDirectories(dir.resolve("checkout"));
    Files.copy(LAUNCHER, checkout.resolve("viewbase"));
    executable(checkout.resolve("viewbase"));
    jar = Files.createDirectories(checkout.resolve("viewbase-cli/target")).resolve("viewbase.jar");
    Files.writeString(jar, "not a jar: the stand-in java never opens it");
    bin = Files.createDirectories(dir.resolve("bin"));
    Files.writeString(
        bin.resolve("java"),
        "#!/bin/sh\n"
            + "if [ \"$1\" = \"-version\" ]; then\n"
            + "  echo 'openjdk version \"17.0.15\" 2025-04-15' >&2\n"
            + "  echo 'OpenJDK 64-Bit Server VM (build 17.0.15+6, mixed mode, sharing)' >&2\n"
            + "  exit 0\n"
            + "fi\n"
            + "for arg in \"$@\"; do echo \"$arg\"; done\n");
    executable(bin.resolve("java"));
    Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho 'mvn must not run' >&2\nexit 1\n");
    executable(bin.resolve("mvn"));
  }

  @Test
  void serveWithTheEmulatorProfileGetsItsJvmOptionsBeforeTheJar() throws Exception {
    List<String> args = launch(Map.of(), "serve", "--profile", "emulator", "--port", "0");

    assertThat(optionsBeforeJar(args)).isEqualTo(ServeProfile.emulator.jvmOptions());
    assertThat(args.subList(args.indexOf("-jar") + 2, args.size()))
        .containsExactly("serve", "--profile", "emulator", "--port", "0");
  }

  @Test
  void theProfileMayBeGivenWithAnEqualsSign() throws Exception {
    List<String> args = launch(Map.of(), "serve", "--port", "0", "--profile=emulator");

    assertThat(optionsBeforeJar(args)).isEqualTo(ServeProfile.emulator.jvmOptions());
  }

  @Test
  void theServerProfileAndOtherCommandsGetNoProfileOptions() throws Exception {
    assertThat(optionsBeforeJar(launch(Map.of(), "serve", "--port", "0"))).isEmpty();
    assertThat(optionsBeforeJar(launch(Map.of(), "serve", "--profile", "server"))).isEmpty();
    // only serve has profiles: another command's argument that happens to read so is its own
    assertThat(optionsBeforeJar(launch(Map.of(), "item", "get", "--profile", "emulator")))
        .isEmpty();
  }

  @Test
  void viewbaseJavaOptsComeAfterTheProfilesSoTheyMayOverrideThem() throws Exception {
    List<String> args =
        launch(
            Map.of("VIEWBASE_JAVA_OPTS", "-Xmx1g -XX:TieredStopAtLevel=4"),
            "serve",
            "--profile",
            "emulator");

    List<String> expected = new ArrayList<>(ServeProfile.emulator.jvmOptions());
    expected.addAll(List.of("-Xmx1g", "-XX:TieredStopAtLevel=4"));
    assertThat(optionsBeforeJar(args)).isEqualTo(expected);
  }

  private List<String> launch(Map<String, String> env, String... command)
      throws IOException, InterruptedException {
    List<String> line = new ArrayList<>();
    line.add("bash");
    line.add(jar.getParent().getParent().getParent().resolve("viewbase").toString());
    line.addAll(List.of(command));
    ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
    builder.environment().remove("VIEWBASE_JAVA_OPTS");
    builder.environment().putAll(env);
    builder.environment().put("PATH", bin + ":/usr/bin:/bin");
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return out.lines().toList();
  }

  /** The JVM options the launcher gave, without the class-data-sharing archive's. */
  private List<String> optionsBeforeJar(List<String> args) {
    assertThat(args).as("the arguments java got").contains("-jar");
    return args.subList(0, args.indexOf("-jar")).stream()
        .filter(arg -> !arg.startsWith("-XX:SharedArchiveFile=") && !arg.startsWith("-Xlog:cds"))
        .toList();
  }

  private static void executable(Path file) throws IOException {
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
