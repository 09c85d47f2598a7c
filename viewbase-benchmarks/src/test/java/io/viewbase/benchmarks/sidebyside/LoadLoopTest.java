package io.viewbase.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoadLoopTest {
  private static final long OWN_PID = ProcessHandle.current().pid();

  private final Target target =
      new Target("subject", "http://127.0.0.1:1", new ProcessCpu(OWN_PID, 100));

  @Test
  void measureWhenAnOperationFailsThrowsNamingThePhaseAndTarget() {
    assertThatThrownBy(
            () ->
                LoadLoop.measure(
                    "point read",
                    target,
                    2,
                    5,
                    random -> {
                      throw new IllegalStateException("wrong entity");
                    }))
        .hasMessageContaining("point read on subject failed")
        .hasMessageContaining("wrong entity");
  }

  @Test
  void measureWhenTheOperationRunsOutOfWorkEndsWithEveryCallCounted() throws Exception {
    AtomicInteger left = new AtomicInteger(50);

    PhaseResult result =
        LoadLoop.measure("load", target, 4, Double.MAX_VALUE, random -> left.getAndDecrement() > 0);

    assertThat(result.operations()).isEqualTo(50);
    assertThat(result.phase()).isEqualTo("load");
    assertThat(result.target()).isEqualTo("subject");
  }

  @Test
  void targetParseSplitsNameEndpointAndPid() {
    Target parsed = Target.parse("azurite=http://127.0.0.1:10102/devstoreaccount1@" + OWN_PID, 100);

    assertThat(parsed.name()).isEqualTo("azurite");
    assertThat(parsed.endpoint()).isEqualTo("http://127.0.0.1:10102/devstoreaccount1");
    assertThatThrownBy(() -> Target.parse("azurite@" + OWN_PID, 100))
        .hasMessageContaining("NAME=ENDPOINT@PID");
  }
}
