package io.viewbase.benchmarks.azure;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionResult;
import io.viewbase.api.Database;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.benchmarks.sidebyside.Operation;
import io.viewbase.benchmarks.sidebyside.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SDK workload against one server: three tables and the operation of each phase. Every
 * operation checks its answer (the right entity, the right number of query results, every
 * transaction action answered), so both servers are measured doing the same, correct work.
 *
 * <table>
 *   <caption>Phases</caption>
 *   <tr><th>phase</th><th>one operation</th></tr>
 *   <tr><td>load</td><td>a 100-op transaction filling one partition of the big table</td></tr>
 *   <tr><td>insert</td><td>{@code createEntity} of a new entity (1000 partitions)</td></tr>
 *   <tr><td>point read</td><td>{@code getEntity} of a random entity of the big table</td></tr>
 *   <tr><td>serial point read</td><td>the same, by one client: one SDK round trip at a time</td></tr>
 *   <tr><td>partition query</td><td>{@code PartitionKey eq 'p042'}: all of one partition, every page</td></tr>
 *   <tr><td>non-key filter</td><td>{@code code eq 'c042'}: 100 entities spread over the table, every page</td></tr>
 *   <tr><td>lookup by email</td><td>{@code email eq 'person42@example.com'}: the one entity with that
 *       email; Viewbase answers it from a view keyed by email ({@link #createEmailView}), a server
 *       without views scans the table</td></tr>
 *   <tr><td>transaction</td><td>{@code submitTransaction} of 100 creates in a new partition</td></tr>
 * </table>
 */
final class Workload {
  static final String BIG = "AzBenchBig";
  static final String INSERTS = "AzBenchInserts";
  static final String TRANSACTIONS = "AzBenchTxn";

  /** Viewbase's view of the big table keyed by email, for {@link #lookupByEmail}. */
  static final String BY_EMAIL = "AzBenchBigByEmail";

  static final int TRANSACTION_SIZE = 100;

  private final int entities;
  private final int partitions;
  private final TableClient big;
  private final TableClient inserts;
  private final TableClient transactions;
  private final AtomicLong nextLoad = new AtomicLong();
  private final AtomicLong nextInsert = new AtomicLong();
  private final AtomicLong nextTransaction = new AtomicLong();

  /**
   * Creates the workload's tables on the target (a fresh server: none of them may exist yet); the
   * big table will hold {@code entities} entities in {@code partitions} partitions.
   */
  Workload(Target target, int entities, int partitions) {
    int perPartition = entities / Math.max(1, partitions);
    if (partitions < 1
        || entities < partitions
        || entities % partitions != 0
        || perPartition % Math.min(perPartition, TRANSACTION_SIZE) != 0) {
      throw new IllegalArgumentException(
          "--entities must fill the "
              + partitions
              + " partitions alike, each "
              + "with at most "
              + TRANSACTION_SIZE
              + " entities or a multiple of it; was "
              + entities);
    }
    this.entities = entities;
    this.partitions = partitions;
    TableServiceClient service = TableClients.serviceClient(target, TableClients.httpClient());
    big = service.createTable(BIG);
    inserts = service.createTable(INSERTS);
    transactions = service.createTable(TRANSACTIONS);
  }

  int perPartition() {
    return entities / partitions;
  }

  /**
   * Loads the big table with 100-op transactions: partition p gets entities p, p + P, ...; a
   * partition of more than 100 entities takes several transactions (a smaller one, in a short trial
   * run, one smaller transaction). False when all are loaded.
   */
  Operation load() {
    int size = Math.min(perPartition(), TRANSACTION_SIZE);
    long total = (long) partitions * (perPartition() / size);
    return random -> {
      long n = nextLoad.getAndIncrement();
      if (n >= total) {
        return false;
      }
      int partition = (int) (n % partitions);
      int chunk = (int) (n / partitions);
      List<TableTransactionAction> actions = new ArrayList<>(size);
      for (int j = 0; j < size; j++) {
        int i = partition + partitions * (chunk * size + j);
        actions.add(
            new TableTransactionAction(
                TableTransactionActionType.CREATE, BenchEntities.big(i, partitions)));
      }
      expectAllAnswered(big.submitTransaction(actions), size);
      return true;
    };
  }

  Operation insert() {
    return random -> {
      long i = nextInsert.getAndIncrement();
      inserts.createEntity(
          BenchEntities.person(
              BenchEntities.partition((int) (i % 1000)), BenchEntities.rowKey(i), i));
      return true;
    };
  }

  Operation pointRead() {
    return random -> {
      int i = random.nextInt(entities);
      TableEntity entity =
          big.getEntity(BenchEntities.partition(i % partitions), BenchEntities.rowKey(i));
      expect(
          ("Person " + i).equals(entity.getProperty("name")),
          "getEntity of entity "
              + i
              + " answered "
              + entity.getPartitionKey()
              + "/"
              + entity.getRowKey()
              + " named "
              + entity.getProperty("name"));
      return true;
    };
  }

  Operation partitionQuery() {
    return random -> {
      String partition = BenchEntities.partition(random.nextInt(partitions));
      int count = 0;
      for (TableEntity entity :
          big.listEntities(filter("PartitionKey eq '" + partition + "'"), null, null)) {
        expect(
            partition.equals(entity.getPartitionKey()),
            "partition query " + partition + " answered an entity of " + entity.getPartitionKey());
        count++;
      }
      expect(
          count == perPartition(),
          "partition "
              + partition
              + " has "
              + perPartition()
              + " entities, the query "
              + "answered "
              + count);
      return true;
    };
  }

  Operation nonKeyFilter() {
    return random -> {
      int code = random.nextInt(1000);
      int count = 0;
      for (TableEntity entity :
          big.listEntities(filter("code eq '" + BenchEntities.code(code) + "'"), null, null)) {
        expect(
            BenchEntities.code(code).equals(entity.getProperty("code")),
            "filter on code answered " + entity);
        count++;
      }
      expect(
          count == matchesOfCode(code),
          "code "
              + code
              + " matches "
              + matchesOfCode(code)
              + " entities, the query answered "
              + count);
      return true;
    };
  }

  Operation lookupByEmail() {
    return random -> {
      int i = random.nextInt(entities);
      String email = BenchEntities.email(i);
      int count = 0;
      for (TableEntity entity : big.listEntities(filter("email eq '" + email + "'"), null, null)) {
        expect(
            BenchEntities.rowKey(i).equals(entity.getRowKey()),
            "lookup of "
                + email
                + " answered "
                + entity.getPartitionKey()
                + "/"
                + entity.getRowKey());
        count++;
      }
      expect(count == 1, "one entity has email " + email + ", the query answered " + count);
      return true;
    };
  }

  /**
   * Creates a view of the big table keyed by email (one partition, {@code "all"}; id {@code
   * "{email}"}) in {@code viewbase} (the native API's client, or the database itself) and waits
   * until its backfill of the loaded table is done. From then on Viewbase's planner answers {@link
   * #lookupByEmail}'s filter with one lookup in the view; a server without views scans the table.
   */
  static void createEmailView(Database viewbase, Duration timeout) throws InterruptedException {
    ViewStatus status = viewbase.createView(ViewDefinition.of(BY_EMAIL, BIG, "all", "{email}"));
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ViewStatus.BUILDING.equals(status.state())) {
      expect(System.nanoTime() < deadline, "view " + BY_EMAIL + " still building after " + timeout);
      Thread.sleep(100);
      status = viewbase.viewStatus(BY_EMAIL);
    }
    expect(
        ViewStatus.READY.equals(status.state()),
        "view " + BY_EMAIL + " ended " + status.state() + ": " + status);
  }

  Operation transaction() {
    return random -> {
      String partition = "t" + nextTransaction.getAndIncrement();
      List<TableTransactionAction> actions = new ArrayList<>(TRANSACTION_SIZE);
      for (int j = 0; j < TRANSACTION_SIZE; j++) {
        actions.add(
            new TableTransactionAction(
                TableTransactionActionType.CREATE,
                BenchEntities.person(partition, BenchEntities.rowKey(j), j)));
      }
      expectAllAnswered(transactions.submitTransaction(actions), TRANSACTION_SIZE);
      return true;
    };
  }

  /**
   * How many of entities 0..N-1 carry code {@code c}: the blocks of 100 numbered c, c + 1000, ...
   */
  private int matchesOfCode(int c) {
    int matches = 0;
    for (long block = c; block * 100 < entities; block += 1000) {
      matches += (int) Math.min(100, entities - block * 100);
    }
    return matches;
  }

  private static ListEntitiesOptions filter(String filter) {
    return new ListEntitiesOptions().setFilter(filter);
  }

  private static void expectAllAnswered(TableTransactionResult result, int size) {
    expect(
        result.getTransactionActionResponses().size() == size,
        "a transaction of "
            + size
            + " actions answered "
            + result.getTransactionActionResponses().size());
  }

  private static void expect(boolean condition, String message) {
    if (!condition) {
      throw new IllegalStateException(message);
    }
  }
}
