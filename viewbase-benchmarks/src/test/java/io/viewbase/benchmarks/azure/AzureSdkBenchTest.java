package io.viewbase.benchmarks.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Viewbase;
import io.viewbase.benchmarks.sidebyside.LoadLoop;
import io.viewbase.benchmarks.sidebyside.Phase;
import io.viewbase.benchmarks.sidebyside.PhaseResult;
import io.viewbase.benchmarks.sidebyside.ProcessCpu;
import io.viewbase.benchmarks.sidebyside.ResultTable;
import io.viewbase.benchmarks.sidebyside.Target;
import io.viewbase.client.RemoteDatabase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Azure SDK workload's parts: every phase runs against a real Azure-dialect server (RocksDB on
 * a temporary directory, a real socket) with its answers checked, the CPU reading and the ratios.
 */
class AzureSdkBenchTest {
  private static final long OWN_PID = ProcessHandle.current().pid();

  @TempDir Path dir;

  @Test
  void workloadRunsEveryPhaseAgainstTheAzureDialectWithCheckedAnswers() throws Exception {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false));
        AzureTablesServer server =
            AzureTablesServer.start(db, AzureOptions.defaults().withPort(0));
        ViewbaseServer nativeApi = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0))) {
      Target target =
          new Target(
              "viewbase",
              "http://127.0.0.1:" + server.port() + "/" + TableClients.ACCOUNT,
              new ProcessCpu(OWN_PID, 100));
      // 200 entities in 10 partitions: the load is 10 transactions of 20 creates.
      Workload workload = new Workload(target, 200, 10);

      PhaseResult load = LoadLoop.measure("load", target, 4, Double.MAX_VALUE, workload.load());
      String lookup = "email eq 'person7@example.com'";
      QueryPlan before = db.table(Workload.BIG).explain(Query.all().withFilter(lookup));
      try (RemoteDatabase remote =
          RemoteDatabase.connect(URI.create("http://127.0.0.1:" + nativeApi.port()))) {
        Workload.createEmailView(remote, Duration.ofSeconds(30));
      }
      QueryPlan after = db.table(Workload.BIG).explain(Query.all().withFilter(lookup));
      List<PhaseResult> phases = new ArrayList<>();
      for (Phase<Workload> phase : AzureSdkBench.phases()) {
        phases.add(
            LoadLoop.measure(phase.name(), target, 2, 0.3, phase.operation().apply(workload)));
      }

      assertThat(load.operations()).isEqualTo(10);
      assertThat(db.table(Workload.BIG).get("p009", "i0000199")).isPresent();
      assertThat(phases)
          .extracting(PhaseResult::phase)
          .containsExactly(
              "insert",
              "point read",
              "serial point read",
              "partition query",
              "non-key filter",
              "lookup by email",
              "100-op transaction");
      // the lookup scans without the view, and is one lookup in it once the view is built
      assertThat(before.kind()).isEqualTo(QueryPlan.SCAN);
      assertThat(after.kind()).isEqualTo(QueryPlan.VIEW_LOOKUP);
      assertThat(after.source()).isEqualTo(Workload.BY_EMAIL);
      assertThat(phases).allSatisfy(result -> assertThat(result.operations()).isPositive());
      assertThat(db.table(Workload.TRANSACTIONS).get("t0", "i0000099")).isPresent();
    }
  }

  @Test
  void workloadWhenEntitiesDoNotFillThePartitionsAlikeIsRefused() {
    Target target =
        new Target(
            "subject", "http://127.0.0.1:1/" + TableClients.ACCOUNT, new ProcessCpu(OWN_PID, 100));

    assertThatThrownBy(() -> new Workload(target, 1050, 10)).hasMessageContaining("was 1050");
  }

  @Test
  void resultTableJudgesEachTargetByTheBaselinesFigureOverTheSubjects() {
    List<PhaseResult> results = new ArrayList<>();
    for (Phase<Workload> phase : AzureSdkBench.phases()) {
      // The baseline uses 25x the subject's CPU per operation (50x a point read's) and its median
      // takes 50x as long (100x the subject's serial point read: one round trip).
      boolean read = phase.name().equals("point read");
      boolean serial = phase.name().equals(AzureTargets.SERIAL_READ);
      results.add(
          result(
              phase.name(),
              "subject",
              1_000,
              read ? 20_000_000L : 40_000_000L,
              serial ? 500 : 1_000));
      results.add(result(phase.name(), "baseline", 1_000, 1_000_000_000L, 50_000));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    ResultTable table = new ResultTable(results, "subject", "baseline");
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    table.print(out, AzureSdkBench.phases());
    new AzureTargets(table).print(out);

    assertThat(table.cpuRatio("point read")).isEqualTo(50.0);
    assertThat(results.get(0).cpuMicrosPerOpWithoutJit()).isEqualTo(32.0);
    assertThat(results.get(0).jitPercent()).isEqualTo(20.0);
    assertThat(results.get(0).storagePercent()).isEqualTo(10.0);
    assertThat(results.get(0).driverCpuMicrosPerOp()).isEqualTo(80.0);
    assertThat(table.p50Ratio("partition query")).isCloseTo(50.0, within(0.1));
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed).containsPattern("server CPU per point read >= 20x lower +50\\.0x +MET");
    assertThat(printed).containsPattern("server CPU per insert >= 20x lower +25\\.0x +MET");
    assertThat(printed)
        .containsPattern("partition query >= 100x faster \\(p50 latency\\) +50\\.\\dx +NOT MET");
    // the ceilings: the baseline's 50 ms query over the subject's 0.5 ms round trip; its insert
    // (1,000 µs) over the subject's point read (20 µs)
    assertThat(new AzureTargets(table).latencyCeiling("partition query"))
        .isCloseTo(100.0, within(0.2));
    assertThat(new AzureTargets(table).insertCeilingAtReadCost()).isEqualTo(50.0);
    assertThat(printed)
        .containsPattern("ceiling: partition query p50 through this SDK +(99\\.\\d|100\\.\\d)x");
    assertThat(printed)
        .containsPattern("ceiling: insert CPU, were an insert as cheap as a read +50\\.0x");
  }

  private static PhaseResult result(
      String phase, String target, long operations, long cpuNanos, long latencyMicros) {
    Histogram latencies = new Histogram(1_000_000, 3);
    latencies.recordValueWithCount(latencyMicros, operations);
    return new PhaseResult(
        phase,
        target,
        operations,
        1_000_000_000L,
        latencies,
        new ProcessCpu.Sample(cpuNanos, 0, cpuNanos / 5, cpuNanos / 10),
        2 * cpuNanos);
  }
}
