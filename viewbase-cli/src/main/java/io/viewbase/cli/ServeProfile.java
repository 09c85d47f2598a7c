package io.viewbase.cli;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@code viewbase serve} tunes the JVM it runs in: for a long-running server (the default), or
 * for an emulator that a test suite starts fresh, sends a few thousand requests and stops.
 *
 * <p>A JVM's compilers are chosen when it starts, so a profile is a list of JVM options that the
 * {@code viewbase} launcher puts on the {@code java} command line when it sees {@code serve
 * --profile emulator}; the launcher keeps its own copy of the list, and {@code ServeProfileTest}
 * checks that both say the same. A server started otherwise ({@code java -jar}) without them says
 * so at start, and runs as it was started.
 *
 * <p>The emulator profile stops the JIT at C1 ({@code -XX:TieredStopAtLevel=1}): C2, HotSpot's
 * optimizing compiler, spends more CPU compiling in a fresh server's first tens of thousands of
 * requests than the requests themselves take, and a short run never earns it back; C1's code is
 * slower once a server is warm, which a test suite never is. It also takes the serial collector
 * ({@code -XX:+UseSerialGC}): an emulator's heap is small, and the serial collector's cheaper write
 * barrier and lack of concurrent threads cost less per request. docs/startup.md has the figures.
 */
enum ServeProfile {
  server(List.of()),
  emulator(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));

  private final List<String> jvmOptions;

  ServeProfile(List<String> jvmOptions) {
    this.jvmOptions = jvmOptions;
  }

  /** The options the launcher adds to the {@code java} command line for this profile. */
  List<String> jvmOptions() {
    return jvmOptions;
  }

  /** The profile's options that {@code startedWith} (a JVM's input arguments) lacks, in order. */
  List<String> missingFrom(List<String> startedWith) {
    List<String> missing = new ArrayList<>();
    for (String option : jvmOptions) {
      if (!startedWith.contains(option)) {
        missing.add(option);
      }
    }
    return missing;
  }

  /** The profile's options this JVM was not started with. */
  List<String> missingFromThisJvm() {
    return jvmOptions.isEmpty()
        ? List.of()
        : missingFrom(ManagementFactory.getRuntimeMXBean().getInputArguments());
  }
}
