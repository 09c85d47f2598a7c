package io.viewbase.benchmarks.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.benchmarks.sidebyside.LoadLoop;
import io.viewbase.benchmarks.sidebyside.Phase;
import io.viewbase.benchmarks.sidebyside.PhaseResult;
import io.viewbase.benchmarks.sidebyside.ProcessCpu;
import io.viewbase.benchmarks.sidebyside.ResultTable;
import io.viewbase.benchmarks.sidebyside.Target;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import io.viewbase.server.dynamodb.DynamoDbServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AWS SDK workload's parts: every phase runs against a real DynamoDB-dialect server (RocksDB on
 * a temporary directory, a real socket) over both transports with its answers checked, the items'
 * keys, and the targets judged on the ratios.
 */
class DynamoDbSdkBenchTest {
  private static final long OWN_PID = ProcessHandle.current().pid();

  @TempDir Path dir;

  @Test
  void workloadRunsEveryPhaseAgainstTheDynamoDbDialectWithCheckedAnswers() throws Exception {
    for (DynamoDbClients.Transport transport : DynamoDbClients.Transport.values()) {
      Path data = dir.resolve(transport.name());
      try (Database db = Viewbase.open(OpenOptions.at(data).withSync(false));
          DynamoDbServer server =
              DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0))) {
        Target target =
            new Target(
                "viewbase", "http://127.0.0.1:" + server.port(), new ProcessCpu(OWN_PID, 100));
        // 2,000 items in 10 partitions: the load is 80 batches of 25; each code has 100 items
        DynamoDbWorkload workload =
            new DynamoDbWorkload(target, transport, 2000, 10, Duration.ofSeconds(10));

        PhaseResult load = LoadLoop.measure("load", target, 4, Double.MAX_VALUE, workload.load());
        List<PhaseResult> phases = new ArrayList<>();
        for (Phase<DynamoDbWorkload> phase : DynamoDbSdkBench.phases()) {
          phases.add(
              LoadLoop.measure(phase.name(), target, 2, 0.3, phase.operation().apply(workload)));
        }

        assertThat(load.operations()).isEqualTo(80);
        assertThat(workload.perPartition()).isEqualTo(200);
        assertThat(phases)
            .extracting(PhaseResult::phase)
            .containsExactly("insert", "point read", "query", "index query", "batch write");
        assertThat(phases).allSatisfy(result -> assertThat(result.operations()).isPositive());
      }
    }
  }

  @Test
  void bigItemsFillEachPartitionAndEachCodeWithAHundred() {
    Map<String, AttributeValue> item = PersonItems.big(123_456, 1000);

    assertThat(item.get(PersonItems.PK).s()).isEqualTo("p456");
    assertThat(item.get(PersonItems.SK).s()).isEqualTo("i0123456");
    // items 123,400..123,499 share code 234, each in another partition
    assertThat(item.get(PersonItems.CODE).s()).isEqualTo("c234");
    assertThat(item.get("name").s()).isEqualTo("Person 123456");
    assertThat(PersonItems.inserted(42).get(PersonItems.PK).s()).isEqualTo("n042");
    assertThat(PersonItems.inserted(42).get(PersonItems.CODE).s()).startsWith("n");
  }

  @Test
  void workloadWhenItemsDoNotFillThePartitionsAlikeIsRefused() {
    Target target = new Target("subject", "http://127.0.0.1:1", new ProcessCpu(OWN_PID, 100));

    assertThatThrownBy(
            () ->
                new DynamoDbWorkload(
                    target, DynamoDbClients.Transport.APACHE5, 1050, 10, Duration.ofSeconds(1)))
        .hasMessageContaining("was 1050");
  }

  @Test
  void transportParsesTheScriptsNames() {
    assertThat(DynamoDbClients.Transport.parse("apache5"))
        .isEqualTo(DynamoDbClients.Transport.APACHE5);
    assertThat(DynamoDbClients.Transport.parse("url-connection"))
        .isEqualTo(DynamoDbClients.Transport.URL_CONNECTION);
  }

  @Test
  void targetsJudgeEveryPhaseByCpuAndThroughputWithTheDriversCeiling() {
    List<PhaseResult> results = new ArrayList<>();
    for (Phase<DynamoDbWorkload> phase : DynamoDbSdkBench.phases()) {
      // the subject: 1,000 ops/s at 50 µs of server CPU and 500 µs of driver CPU per op (the
      // driver, on 2 cores, could send 4,000/s); the baseline: 100 ops/s at 1,000 µs (20x less
      // CPU, 10x the throughput), or, for point reads, 200 ops/s at 500 µs (10x, 5x)
      boolean read = phase.name().equals("point read");
      results.add(result(phase.name(), "subject", 1_000, 50_000_000L, 500_000_000L));
      results.add(result(phase.name(), "baseline", read ? 200 : 100, 100_000_000L, 100_000_000L));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    ResultTable table = new ResultTable(results, "subject", "baseline");
    DynamoDbTargets targets = new DynamoDbTargets(table, 2);
    table.print(out, DynamoDbSdkBench.phases());
    targets.print(out, DynamoDbSdkBench.phases());

    assertThat(table.cpuRatio("insert")).isCloseTo(20.0, within(1e-9));
    assertThat(table.throughputRatio("point read")).isCloseTo(5.0, within(1e-9));
    assertThat(targets.throughputCeiling("insert")).isCloseTo(40.0, within(1e-9));
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed).containsPattern("insert: server CPU/op >= 20x lower +20\\.0x +MET");
    assertThat(printed).containsPattern("insert: throughput >= 10x +10\\.0x +MET");
    assertThat(printed).containsPattern("point read: server CPU/op >= 20x lower +10\\.0x +NOT MET");
    assertThat(printed).containsPattern("point read: throughput >= 10x +5\\.0x +NOT MET");
    assertThat(printed).containsPattern("ceiling: point read +20\\.0x");
  }

  /** A result of {@code operations} in one second, using the given CPU time in all. */
  private static PhaseResult result(
      String phase, String target, long operations, long serverCpuNanos, long driverCpuNanos) {
    Histogram latencies = new Histogram(1_000_000, 3);
    latencies.recordValueWithCount(1_000, operations);
    return new PhaseResult(
        phase,
        target,
        operations,
        1_000_000_000L,
        latencies,
        new ProcessCpu.Sample(serverCpuNanos, 0, 0, 0),
        driverCpuNanos);
  }
}
