package io.viewbase.benchmarks.cassandra;

import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.benchmarks.cassandra.CqlPeople.Person;
import io.viewbase.storage.cassandra.CassandraNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/**
 * Viewbase on Cassandra against plain CQL through the same driver, in one run on one Cassandra node
 * that this program starts itself ({@link CassandraNode}, C2 enabled) and kills at the end. Issue
 * 8, acceptance 5: point reads, writes with 0 and 1 view, and partition queries; target: Viewbase
 * adds at most 30% to point reads and plain writes.
 *
 * <p>One client thread, so each figure is a round-trip latency (throughput is its inverse). After
 * loading {@code items} records into both sides and a warm-up of every operation, each pair
 * alternates for {@code rounds} rounds of {@code seconds} each, the order flipping every round, so
 * that load from elsewhere on the machine falls on both sides.
 *
 * <p>What keeps the two sides comparable:
 *
 * <ul>
 *   <li>the same driver settings: native protocol V4 (the backend's pin), LOCAL_QUORUM, server-side
 *       timestamps, 1,000-row pages ({@link CqlPeople});
 *   <li>the same storage state: both keyspaces are flushed to SSTables before every round. Without
 *       it a read measures which memtable Cassandra happened to flush: Viewbase keeps every table
 *       in one Cassandra table, which fills its memtable first and is flushed first, and reads from
 *       an SSTable cost a point read about 60 µs more here than reads from a memtable;
 *   <li>a third point read, {@link StoredRows}: Viewbase's stored row read with plain CQL, which
 *       splits Viewbase's extra time into its client code and its storage layout.
 * </ul>
 *
 * <pre>
 * java -cp viewbase-benchmarks/target/benchmarks.jar io.viewbase.benchmarks.cassandra.CassandraBench \
 *   [items=10000] [seconds=5] [rounds=3] [warmupSeconds=5]
 * </pre>
 */
public final class CassandraBench {
  private CassandraBench() {}

  public static void main(String[] args) throws Exception {
    int items = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 5;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    double warmup = args.length > 3 ? Double.parseDouble(args[3]) : 5;
    System.setProperty(CassandraNode.FULL_JIT_PROPERTY, "true");
    System.out.printf("start %s, load average %s%n", Instant.now(), loadAverage());

    try (CassandraNode node = CassandraNode.start(1, null);
        ViewbasePeople viewbase = ViewbasePeople.open(node.contactPoint());
        CqlPeople cql = CqlPeople.open(node.host(), node.nativePort())) {
      long loading = System.nanoTime();
      cql.load(items);
      viewbase.load(items, 4);
      System.out.printf(
          "loaded %d items into each side in %.1f s%n", items, (System.nanoTime() - loading) / 1e9);
      check(viewbase, cql, items);
      StoredRows stored = StoredRows.of(cql.session(), viewbase);
      System.out.printf(
          "CQL side on native protocol %s; Viewbase's People table is stored under table id %d%n",
          cql.session().getContext().getProtocolVersion(), stored.tableId());

      Item[][] revisions = new Item[2][items];
      for (int i = 0; i < items; i++) {
        revisions[0][i] = People.item(i, 1);
        revisions[1][i] = People.item(i, 2);
      }
      List<List<Measured>> pairs =
          List.of(
              List.of(
                  new Measured(
                      "Viewbase table.get",
                      () -> {
                        int i = random(items);
                        requirePresent(viewbase.get(People.pk(i), People.id(i)));
                      }),
                  new Measured(
                      "CQL SELECT row",
                      () -> {
                        int i = random(items);
                        requireNonNull(cql.get(People.pk(i), People.id(i)));
                      }),
                  new Measured(
                      "CQL SELECT of Viewbase's stored row",
                      () -> {
                        if (stored.get(random(items)) == null) {
                          throw new IllegalStateException(
                              "a loaded item's stored row was not found");
                        }
                      })),
              List.of(
                  new Measured(
                      "Viewbase table.query(partition)",
                      () -> viewbase.queryPartition(partition())),
                  new Measured("CQL SELECT partition", () -> cql.queryPartition(partition()))),
              List.of(
                  new Measured(
                      "Viewbase upsert, 0 views", () -> viewbase.upsert(revision(revisions))),
                  new Measured("CQL INSERT", () -> cql.insert(revision(revisions)))),
              List.of(
                  new Measured(
                      "Viewbase upsert, 1 view", () -> viewbase.upsertViewed(revision(revisions))),
                  new Measured(
                      "CQL read + LWT claim + logged batch",
                      () -> cql.writeWithViewAsViewbaseDoes(revision(revisions))),
                  new Measured(
                      "CQL logged batch only",
                      () -> cql.writeWithViewBatchOnly(revision(revisions)))));

      for (List<Measured> pair : pairs) {
        for (Measured m : pair) {
          m.warmUp(warmup);
        }
      }
      System.out.printf(
          "warmed up; measuring %d rounds of %.0f s, load average %s%n",
          rounds, seconds, loadAverage());
      for (int round = 0; round < rounds; round++) {
        flush(node);
        for (List<Measured> pair : pairs) {
          List<Measured> order = new ArrayList<>(pair);
          if (round % 2 == 1) {
            Collections.reverse(order);
          }
          for (Measured m : order) {
            m.measureRound(seconds);
          }
        }
      }
      System.out.printf("end %s, load average %s%n", Instant.now(), loadAverage());
      report(pairs);
    }
  }

  /**
   * Both sides' memtables to SSTables, so that neither side reads from memory what the other reads
   * from disk.
   */
  private static void flush(CassandraNode node) {
    long started = System.nanoTime();
    node.flush(ViewbasePeople.KEYSPACE, CqlPeople.KEYSPACE);
    System.out.printf(
        "flushed both keyspaces in %.1f s, load average %s%n",
        (System.nanoTime() - started) / 1e9, loadAverage());
  }

  private static void report(List<List<Measured>> pairs) {
    System.out.println();
    System.out.println("| operation | ops/s (per round) | mean µs | p50 µs | p99 µs | failures |");
    System.out.println("| --- | --- | --- | --- | --- | --- |");
    for (List<Measured> pair : pairs) {
      for (Measured m : pair) {
        System.out.printf(
            Locale.ROOT,
            "| %s | %,.0f (%s) | %,.0f | %,.0f | %,.0f | %d |%n",
            m.name(),
            m.rate(),
            m.roundRates().stream()
                .map(r -> String.format(Locale.ROOT, "%,.0f", r))
                .collect(Collectors.joining(" / ")),
            m.meanMicros(),
            m.percentileMicros(50),
            m.percentileMicros(99),
            m.failures());
      }
    }
    System.out.println();
    for (List<Measured> pair : pairs) {
      Measured viewbase = pair.get(0);
      for (Measured cql : pair.subList(1, pair.size())) {
        System.out.printf(
            Locale.ROOT,
            "%s vs %s: Viewbase takes %.2fx the time (adds %+.0f%%; p50 %.2fx, p99 %.2fx)%n",
            viewbase.name(),
            cql.name(),
            cql.rate() / viewbase.rate(),
            (cql.rate() / viewbase.rate() - 1) * 100,
            viewbase.percentileMicros(50) / cql.percentileMicros(50),
            viewbase.percentileMicros(99) / cql.percentileMicros(99));
      }
    }
    for (List<Measured> pair : pairs) {
      for (Measured m : pair) {
        if (m.firstFailure() != null) {
          System.out.println("first failure of " + m.name() + ": " + m.firstFailure());
        }
      }
    }
  }

  /** Both sides hold the same data: a benchmark that reads nothing would measure nothing. */
  private static void check(ViewbasePeople viewbase, CqlPeople cql, int items) {
    int last = items - 1;
    Item item = viewbase.get(People.pk(last), People.id(last)).orElseThrow();
    Person person = cql.get(People.pk(last), People.id(last));
    if (person == null
        || !person.email().equals(((Value.Str) item.get("email").orElseThrow()).value())) {
      throw new IllegalStateException("the two sides do not hold item " + last);
    }
    int viewbaseRows = viewbase.queryPartition(People.pk(0)).items().size();
    int cqlRows = cql.queryPartition(People.pk(0)).size();
    if (viewbaseRows != cqlRows || viewbaseRows != items / People.PARTITIONS) {
      throw new IllegalStateException(
          "partition p000 holds "
              + viewbaseRows
              + " items in Viewbase and "
              + cqlRows
              + " rows in CQL, expected "
              + items / People.PARTITIONS);
    }
    if (viewbase.byEmail(person.email()).isEmpty()) {
      throw new IllegalStateException("the view has no entry for " + person.email());
    }
    System.out.printf("both sides hold the data: a partition has %d items%n", viewbaseRows);
  }

  private static int random(int bound) {
    return ThreadLocalRandom.current().nextInt(bound);
  }

  private static String partition() {
    return People.pk(random(People.PARTITIONS));
  }

  private static Item revision(Item[][] revisions) {
    return revisions[random(2)][random(revisions[0].length)];
  }

  private static void requirePresent(Optional<Item> item) {
    if (item.isEmpty()) {
      throw new IllegalStateException("a loaded item was not found");
    }
  }

  private static void requireNonNull(Person person) {
    if (person == null) {
      throw new IllegalStateException("a loaded row was not found");
    }
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
