package io.viewbase.benchmarks.azure;

import io.viewbase.benchmarks.sidebyside.LoadLoop;
import io.viewbase.benchmarks.sidebyside.Phase;
import io.viewbase.benchmarks.sidebyside.PhaseResult;
import io.viewbase.benchmarks.sidebyside.Progress;
import io.viewbase.benchmarks.sidebyside.ResultTable;
import io.viewbase.benchmarks.sidebyside.TakingTurns;
import io.viewbase.benchmarks.sidebyside.Target;
import io.viewbase.client.RemoteDatabase;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The same Azure SDK workload against two servers in one run, side by side (issue 6): Viewbase's
 * Azure dialect and a baseline (Azurite). Both servers are already running; {@code azure-bench.sh}
 * starts them and passes their endpoints and process ids.
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.azure.AzureSdkBench \
 *   --target viewbase=http://127.0.0.1:10103/devstoreaccount1@PID \
 *   --target azurite=http://127.0.0.1:10102/devstoreaccount1@PID \
 *   [--views viewbase=http://127.0.0.1:10104] \
 *   [--seconds 10] [--warmup 3] [--entities 100000] [--partitions ENTITIES/100] [--load-clients 8] [--clock-ticks 100]
 * </pre>
 *
 * <p>First each server's big table is loaded (100-op transactions). Then every phase runs twice on
 * each server, a warm-up pass ({@code --warmup} seconds per phase, discarded) and a measured pass
 * ({@code --seconds}); within a pass the servers take turns phase by phase, so load from elsewhere
 * on a shared machine falls on both alike. The first target is the subject, the second the baseline
 * of every ratio. {@code --views NAME=URL} says that target NAME is a Viewbase whose native API is
 * at URL: after its load the driver creates there the view that answers the lookup by email (see
 * {@link Workload#createEmailView}); a target without it answers by scanning.
 */
public final class AzureSdkBench {
  private static final int TRANSACTION_CLIENTS = 8;

  /** Entities of each big table's partition unless {@code --partitions} says otherwise. */
  private static final int PER_PARTITION = 100;

  private AzureSdkBench() {}

  static List<Phase<Workload>> phases() {
    return List.of(
        new Phase<>("insert", 32, Workload::insert),
        new Phase<>("point read", 32, Workload::pointRead),
        // one request at a time: its p50 is one SDK round trip, the least any SDK call can take
        new Phase<>(AzureTargets.SERIAL_READ, 1, Workload::pointRead),
        new Phase<>("partition query", 1, Workload::partitionQuery),
        new Phase<>("non-key filter", 1, Workload::nonKeyFilter),
        new Phase<>("lookup by email", 1, Workload::lookupByEmail),
        new Phase<>("100-op transaction", TRANSACTION_CLIENTS, Workload::transaction));
  }

  public static void main(String[] args) throws Exception {
    List<String> targetSpecs = new ArrayList<>();
    Map<String, URI> viewApis = new HashMap<>();
    double seconds = 10;
    double warmup = 5;
    int entities = 100_000;
    int partitions = 0;
    int loadClients = 8;
    long ticks = 100;
    for (int a = 0; a < args.length; a++) {
      String value = a + 1 < args.length ? args[a + 1] : null;
      switch (args[a]) {
        case "--target" -> targetSpecs.add(value);
        case "--views" -> {
          int eq = value.indexOf('=');
          if (eq <= 0) {
            throw new IllegalArgumentException("--views takes NAME=NATIVE_API_URL, was " + value);
          }
          viewApis.put(value.substring(0, eq), URI.create(value.substring(eq + 1)));
        }
        case "--seconds" -> seconds = Double.parseDouble(value);
        case "--warmup" -> warmup = Double.parseDouble(value);
        case "--entities" -> entities = Integer.parseInt(value);
        case "--partitions" -> partitions = Integer.parseInt(value);
        case "--load-clients" -> loadClients = Integer.parseInt(value);
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
      partitions = Math.max(1, entities / PER_PARTITION);
    }
    List<Target> targets = new ArrayList<>();
    for (String spec : targetSpecs) {
      targets.add(Target.parse(spec, ticks));
    }

    for (String name : viewApis.keySet()) {
      if (targets.stream().noneMatch(target -> target.name().equals(name))) {
        throw new IllegalArgumentException(
            "--views names target " + name + ", which no --target is");
      }
    }
    List<Workload> workloads = new ArrayList<>();
    for (Target target : targets) {
      workloads.add(new Workload(target, entities, partitions));
    }
    for (int t = 0; t < targets.size(); t++) {
      PhaseResult load =
          LoadLoop.measure(
              "load", targets.get(t), loadClients, Double.MAX_VALUE, workloads.get(t).load());
      Progress.result(load);
      URI viewApi = viewApis.get(targets.get(t).name());
      if (viewApi != null) {
        long started = System.nanoTime();
        try (RemoteDatabase viewbase = RemoteDatabase.connect(viewApi)) {
          Workload.createEmailView(viewbase, Duration.ofMinutes(10));
        }
        Progress.note(
            "view %s on %s ready in %.1f s",
            Workload.BY_EMAIL, targets.get(t).name(), (System.nanoTime() - started) / 1e9);
      }
    }
    List<Phase<Workload>> phases = phases();
    List<PhaseResult> results = TakingTurns.measure(targets, workloads, phases, warmup, seconds);

    System.out.printf(
        Locale.ROOT,
        "%nAzure SDK workload, %s vs %s: %,d entities in %d partitions, %.0f s per phase "
            + "after a %.0f s warm-up pass%n%n",
        targets.get(0).name(),
        targets.get(1).name(),
        entities,
        partitions,
        seconds,
        warmup);
    ResultTable table = new ResultTable(results, targets.get(0).name(), targets.get(1).name());
    table.print(System.out, phases);
    new AzureTargets(table).print(System.out);
  }
}
