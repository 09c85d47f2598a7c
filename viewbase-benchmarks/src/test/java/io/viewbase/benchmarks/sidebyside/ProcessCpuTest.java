package io.viewbase.benchmarks.sidebyside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {
  private static final long OWN_PID = ProcessHandle.current().pid();

  @Test
  void sampleOfThisProcessGrowsWhileItWorks() {
    ProcessCpu cpu = new ProcessCpu(OWN_PID, 100);
    long before = cpu.sample().totalNanos();
    long after = before;
    double sink = 0;
    // Bounded: at most about 5 s of work, far more than the 10 ms tick needs to move.
    for (int round = 0; round < 500 && after == before; round++) {
      for (int i = 0; i < 1_000_000; i++) {
        sink += Math.sqrt(i + round);
      }
      after = cpu.sample().totalNanos();
    }

    assertThat(sink).isPositive();
    assertThat(after).isGreaterThan(before);
  }

  @Test
  void sampleOfThisJvmCountsItsCompilerThreadsWithinTheTotal() {
    ProcessCpu.Sample sample = new ProcessCpu(OWN_PID, 100).sample();

    // This JVM has compiled its test framework by now; its compiler threads are named C1/C2
    // CompilerThread.
    assertThat(sample.compilerNanos()).isPositive().isLessThanOrEqualTo(sample.totalNanos());
    assertThat(sample.storageNanos()).isBetween(0L, sample.totalNanos() - sample.compilerNanos());
  }

  @Test
  void constructorWhenNoSuchProcessFailsNamingThePid() {
    assertThatThrownBy(() -> new ProcessCpu(Integer.MAX_VALUE, 100))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no process " + Integer.MAX_VALUE);
  }
}
