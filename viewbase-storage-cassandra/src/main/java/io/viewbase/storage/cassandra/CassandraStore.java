package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.viewbase.storage.spi.BatchRules;
import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreMeters;
import io.viewbase.storage.spi.Versioned;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A Viewbase store in one Cassandra table: a storage partition is a Cassandra partition, a sort key
 * its clustering key. Reads and writes run at the configured consistency; conditions are
 * lightweight transactions ({@link PartitionCommit}, {@link ClaimedCommit}).
 *
 * <p>What it guarantees, declared in {@link #capabilities()} and explained in docs/scale-out.md: a
 * batch is all or nothing (a logged batch across partitions), but not isolated: a reader may see
 * one partition of a batch before another. Partitions enumerate in token order. There are no
 * snapshots: {@link #snapshot()} reads the live data. Sequences ({@link Mutation.Append}) are
 * numbered by lightweight transactions on each sequence's own row ({@link Sequences}), so numbers
 * stay dense and unique across every server on the keyspace.
 */
final class CassandraStore implements Store {
  static final Capabilities CAPABILITIES =
      new Capabilities(true, false, true, false, true, false, true);

  /** Schema changes wait for every node to agree, which takes longer than a request. */
  private static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(60);

  private final CassandraSettings settings;
  private final SharedSessions.Lease lease;
  private final CqlSession session;
  private final CassandraStatements statements;
  private final Sequences sequences = new Sequences();
  private volatile boolean closed;

  private CassandraStore(SharedSessions.Lease lease) {
    this.lease = lease;
    this.settings = lease.settings();
    this.session = lease.session();
    this.statements = lease.statements();
  }

  /** Reports the driver's session metrics: {@link CassandraMeters}. */
  @Override
  public void bindMeters(StoreMeters meters) {
    CassandraMeters.bind(session, meters);
  }

  static CassandraStore open(CassandraSettings settings) {
    return new CassandraStore(SharedSessions.acquire(settings, CassandraStore::openSession));
  }

  /** Connects, creates the keyspace and table if missing, and prepares the statements. */
  private static SharedSessions.Lease openSession(CassandraSettings settings) {
    CqlSession session = connect(settings);
    try {
      createSchema(session, settings);
      return new SharedSessions.Lease(
          session,
          new CassandraStatements(session, settings.keyspace(), settings.table()),
          settings);
    } catch (DriverException e) {
      session.close();
      throw CassandraErrors.translate(
          "prepare keyspace " + settings.keyspace() + " at " + settings.contactPointsText(), e);
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  private static CqlSession connect(CassandraSettings settings) {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, settings.requestTimeout())
            .withString(DefaultDriverOption.REQUEST_CONSISTENCY, settings.consistency().name())
            .withString(
                DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, settings.serialConsistency().name())
            .withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, settings.pageSize())
            // Lightweight transactions take their timestamps from the coordinator's clock; plain
            // writes must too, or a client clock behind the cluster's would lose writes to older
            // ones.
            .withString(
                DefaultDriverOption.TIMESTAMP_GENERATOR_CLASS, "ServerSideTimestampGenerator")
            // Native protocol v4, not the v5 that driver 4.19 negotiates with Cassandra 5: on v5
            // its
            // frame decoder (on the Netty 4.2 we ship) regularly fails under load on a ring
            // ("readerIndex + length exceeds writerIndex"), closes the connection and fails every
            // request in flight on it (RingFailoverTest saw 2-5% of operations). v4 has none of it,
            // and
            // Viewbase uses nothing v5 adds.
            .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
            .withStringList(
                DefaultDriverOption.METADATA_SCHEMA_REFRESHED_KEYSPACES,
                List.of(settings.keyspace()))
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, SCHEMA_TIMEOUT)
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, SCHEMA_TIMEOUT)
            // the session metrics the store reports (CassandraMeters); node metrics stay off
            .withStringList(DefaultDriverOption.METRICS_SESSION_ENABLED, CassandraMeters.ENABLED)
            .withDuration(
                DefaultDriverOption.METRICS_SESSION_CQL_REQUESTS_INTERVAL,
                CassandraMeters.LATENCY_REFRESH)
            .build();
    try {
      return CqlSession.builder()
          .addContactPoints(settings.contactPoints())
          .withLocalDatacenter(settings.localDatacenter())
          .withConfigLoader(config)
          .withClassLoader(CassandraStore.class.getClassLoader())
          .build();
    } catch (DriverException | IllegalStateException e) {
      throw new StorageException(
          "cannot reach the Cassandra cluster at "
              + settings.contactPointsText()
              + " (local datacenter "
              + settings.localDatacenter()
              + "): "
              + e.getMessage(),
          e,
          StorageException.Kind.UNREACHABLE);
    }
  }

  /**
   * Creates the keyspace and table when they are missing; an existing keyspace keeps its
   * replication.
   */
  private static void createSchema(CqlSession session, CassandraSettings settings) {
    String keyspace = settings.keyspace();
    boolean hasKeyspace =
        session.getMetadata().getKeyspace(CqlIdentifier.fromInternal(keyspace)).isPresent();
    if (!hasKeyspace) {
      ddl(
          session,
          "CREATE KEYSPACE IF NOT EXISTS "
              + keyspace
              + " WITH replication = "
              + settings.replication());
    }
    boolean hasTable =
        hasKeyspace
            && session
                .getMetadata()
                .getKeyspace(CqlIdentifier.fromInternal(keyspace))
                .flatMap(k -> k.getTable(CqlIdentifier.fromInternal(settings.table())))
                .isPresent();
    if (!hasTable) {
      ddl(
          session,
          "CREATE TABLE IF NOT EXISTS "
              + keyspace
              + "."
              + settings.table()
              + " (p blob, k blob, version bigint, value blob, claim text, PRIMARY KEY (p, k))"
              + " WITH CLUSTERING ORDER BY (k ASC)");
    }
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(SCHEMA_TIMEOUT));
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public Optional<Versioned> get(byte[] partition, byte[] key) {
    ensureOpen();
    Row row = execute(statements.get(partition, key), "read").one();
    if (row == null || row.isNull(CassandraStatements.GET_VERSION)) {
      return Optional.empty();
    }
    return Optional.of(
        new Versioned(
            row.getLong(CassandraStatements.GET_VERSION),
            PartitionBytes.array(row.getByteBuffer(CassandraStatements.GET_VALUE))));
  }

  @Override
  public Cursor scan(byte[] partition, KeyRange range, boolean reverse) {
    ensureOpen();
    if (range.isEmpty()) {
      return new RowCursor(this, List.of(), partition.clone(), null);
    }
    ResultSet rows =
        execute(statements.scan(partition, range, reverse, settings.pageSize()), "scan");
    return new RowCursor(this, List.of(rows), partition.clone(), null);
  }

  /**
   * Every entry under the prefix in (partition, key) byte order. Cassandra cannot seek to a prefix
   * of partition keys nor list them in byte order, so the partitions come from walks over every
   * partition key of the table ({@link SortedPartitions}); each partition is then one ordered scan.
   */
  @Override
  public Cursor scanAll(byte[] partitionPrefix, byte[] afterPartition, byte[] afterKey) {
    ensureOpen();
    return new OrderedCursor(
        this,
        partitionPrefix.clone(),
        afterPartition == null ? null : afterPartition.clone(),
        afterKey == null ? null : afterKey.clone(),
        settings.pageSize());
  }

  /** The partitions under the prefix in byte order; see {@link #scanAll} for what it costs. */
  @Override
  public PartitionCursor partitions(byte[] prefix, byte[] afterPartition) {
    ensureOpen();
    return new OrderedPartitionCursor(
        this, prefix.clone(), afterPartition == null ? null : afterPartition.clone());
  }

  /**
   * Every partition under the prefix in token order: one walk over the whole table's partition
   * keys.
   */
  PartitionCursor partitionsInTokenOrder(byte[] prefix) {
    ensureOpen();
    ResultSet rows = execute(statements.partitions(settings.pageSize()), "list partitions");
    return new PartitionRowCursor(this, rows, prefix);
  }

  /**
   * Cassandra keeps no point-in-time views: this one reads the live data at the store's
   * consistency.
   */
  @Override
  public Snapshot snapshot() {
    ensureOpen();
    return new LiveSnapshot(this);
  }

  @Override
  public void commit(List<Mutation> batch) throws ConditionFailedException {
    BatchRules.validate(batch);
    ensureOpen();
    byte[] first = batch.get(0).partition();
    boolean onePartition = batch.stream().allMatch(m -> Arrays.equals(m.partition(), first));
    List<Sequences.Appends> appends = sequences.of(batch);
    try (Sequences.Held held = Sequences.hold(appends)) {
      if (onePartition) {
        PartitionCommit.commit(this, batch, appends);
      } else {
        ClaimedCommit.commit(this, batch, appends);
      }
    }
  }

  /** A sequence's last number as its row records it now (0 for none): where commits start. */
  long lastNumber(byte[] partition, byte[] key) {
    return get(partition, key).map(v -> Mutation.sequenceNumber(v.value())).orElse(0L);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    lease.release();
  }

  CassandraStatements statements() {
    return statements;
  }

  CassandraSettings settings() {
    return settings;
  }

  void ensureOpen() {
    if (closed) {
      throw CassandraErrors.closed();
    }
  }

  /** Runs a statement, turning driver failures into {@link StorageException}s. */
  ResultSet execute(Statement<?> statement, String action) {
    ensureOpen();
    try {
      return session.execute(statement);
    } catch (DriverException e) {
      throw CassandraErrors.translate(action, e);
    } catch (IllegalStateException e) {
      // the session was closed under a running request
      if (closed) {
        throw CassandraErrors.closed();
      }
      throw e;
    }
  }
}
