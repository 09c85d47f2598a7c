package io.viewbase.benchmarks.dynamodb;

import io.viewbase.benchmarks.sidebyside.LoadLoop;
import io.viewbase.benchmarks.sidebyside.Phase;
import io.viewbase.benchmarks.sidebyside.PhaseResult;
import io.viewbase.benchmarks.sidebyside.Progress;
import io.viewbase.benchmarks.sidebyside.ResultTable;
import io.viewbase.benchmarks.sidebyside.TakingTurns;
import io.viewbase.benchmarks.sidebyside.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The same AWS SDK workload against two servers in one run, side by side: Viewbase's DynamoDB
 * dialect and a baseline (dynalite). Both servers are already running; {@code dynamodb-bench.sh}
 * starts them and passes their endpoints and process ids.
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.dynamodb.DynamoDbSdkBench \
 *   --target viewbase=http://127.0.0.1:8001@PID --target dynalite=http://127.0.0.1:8000@PID \
 *   [--seconds 10] [--warmup 5] [--items 100000] [--partitions ITEMS/100] [--load-clients 8] \
 *   [--http-client apache5|url-connection] [--cores N] [--clock-ticks 100]
 * </pre>
 *
 * <p>First each server's table is created and loaded (25-item batches). Then every phase runs twice
 * on each server, a warm-up pass ({@code --warmup} seconds per phase, discarded) and a measured
 * pass ({@code --seconds}), the servers taking turns phase by phase ({@link TakingTurns}). The
 * first target is the subject, the second the baseline of every ratio. {@code --cores} (this
 * machine's by default) is what the throughput ceilings assume the driver and the server share.
 */
public final class DynamoDbSdkBench {
  /** Clients of the phases whose one operation is 25 or 100 items' work. */
  static final int MULTI_ITEM_CLIENTS = 8;

  /** Items of each partition of the loaded part unless {@code --partitions} says otherwise. */
  private static final int PER_PARTITION = 100;

  private DynamoDbSdkBench() {}

  static List<Phase<DynamoDbWorkload>> phases() {
    return List.of(
        new Phase<>("insert", 32, DynamoDbWorkload::insert),
        new Phase<>("point read", 32, DynamoDbWorkload::pointRead),
        new Phase<>("query", MULTI_ITEM_CLIENTS, DynamoDbWorkload::query),
        new Phase<>("index query", MULTI_ITEM_CLIENTS, DynamoDbWorkload::indexQuery),
        new Phase<>("batch write", MULTI_ITEM_CLIENTS, DynamoDbWorkload::batchWrite));
  }

  public static void main(String[] args) throws Exception {
    List<String> targetSpecs = new ArrayList<>();
    double seconds = 10;
    double warmup = 5;
    int items = 100_000;
    int partitions = 0;
    int loadClients = 8;
    int cores = Runtime.getRuntime().availableProcessors();
    DynamoDbClients.Transport transport = DynamoDbClients.Transport.APACHE5;
    long ticks = 100;
    for (int a = 0; a < args.length; a++) {
      String value = a + 1 < args.length ? args[a + 1] : null;
      switch (args[a]) {
        case "--target" -> targetSpecs.add(value);
        case "--seconds" -> seconds = Double.parseDouble(value);
        case "--warmup" -> warmup = Double.parseDouble(value);
        case "--items" -> items = Integer.parseInt(value);
        case "--partitions" -> partitions = Integer.parseInt(value);
        case "--load-clients" -> loadClients = Integer.parseInt(value);
        case "--http-client" -> transport = DynamoDbClients.Transport.parse(value);
        case "--cores" -> cores = Integer.parseInt(value);
        case "--clock-ticks" -> ticks = Long.parseLong(value);
        default -> throw new IllegalArgumentException("unknown argument " + args[a]);
      }
      a++;
    }
    if (targetSpecs.size() != 2) {
      throw new IllegalArgumentException(
          "give two --target NAME=ENDPOINT@PID: the subject, then the baseline");
    }
    if (partitions == 0) {
      partitions = Math.max(1, items / PER_PARTITION);
    }
    List<Target> targets = new ArrayList<>();
    for (String spec : targetSpecs) {
      targets.add(Target.parse(spec, ticks));
    }

    List<DynamoDbWorkload> workloads = new ArrayList<>();
    for (Target target : targets) {
      workloads.add(
          new DynamoDbWorkload(target, transport, items, partitions, Duration.ofSeconds(30)));
    }
    for (int t = 0; t < targets.size(); t++) {
      PhaseResult load =
          LoadLoop.measure(
              "load", targets.get(t), loadClients, Double.MAX_VALUE, workloads.get(t).load());
      Progress.result(load);
    }
    List<Phase<DynamoDbWorkload>> phases = phases();
    List<PhaseResult> results = TakingTurns.measure(targets, workloads, phases, warmup, seconds);

    System.out.printf(
        Locale.ROOT,
        "%nAWS SDK (DynamoDB) workload, %s vs %s: %,d items in %d partitions, %.0f s per phase "
            + "after a %.0f s warm-up pass, HTTP client %s%n%n",
        targets.get(0).name(),
        targets.get(1).name(),
        items,
        partitions,
        seconds,
        warmup,
        transport.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    ResultTable table = new ResultTable(results, targets.get(0).name(), targets.get(1).name());
    table.print(System.out, phases);
    new DynamoDbTargets(table, cores).print(System.out, phases);
  }
}
