package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's class-archive training run, in this JVM: every request of every dialect answers the
 * status it expects (the run fails naming the first that does not), and the run stops its server.
 */
class ClassArchiveTrainingTest {
  @TempDir Path dir;

  @Test
  void theTrainingRunServesEveryDialectWithoutAFailedRequestAndSaysNothing() throws Exception {
    Path stamp = dir.resolve("viewbase.jsa.vm");

    Cli run = Cli.run("class-archive-training", "--vm-stamp", stamp.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEmpty();
    assertThat(Files.readString(stamp)).isEqualTo(System.getProperty("java.vm.version") + "\n");
  }

  @Test
  void theTrainingRunIsNotACommandTheHelpLists() {
    assertThat(Cli.run("--help").out()).contains("serve").doesNotContain("class-archive");
  }
}
