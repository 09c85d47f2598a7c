package io.viewbase.benchmarks.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The plain-CQL side of the benchmark: the same person records in typed tables, written and read
 * with prepared statements through the same driver (4.19), with every request setting Viewbase's
 * backend uses (see {@code CassandraStore.connect}), so that the comparison is of what each side
 * sends, not of how its session is configured:
 *
 * <table>
 *   <caption>driver settings, the same on both sides</caption>
 *   <tr><th>setting</th><th>value</th><th>why the backend uses it</th></tr>
 *   <tr><td>native protocol</td><td>V4</td><td>driver 4.19's v5 frame decoder fails under load (docs/scale-out.md);
 *       left alone, this session would negotiate v5 with Cassandra 5</td></tr>
 *   <tr><td>consistency, serial consistency</td><td>LOCAL_QUORUM, LOCAL_SERIAL</td><td>the backend's defaults</td></tr>
 *   <tr><td>timestamps</td><td>server side</td><td>plain writes and LWTs share the coordinator's clock</td></tr>
 *   <tr><td>page size</td><td>1,000 rows</td><td>the backend's default (a partition here is 50-100 rows:
 *       one page either way)</td></tr>
 *   <tr><td>request timeout</td><td>10 s</td><td>the backend's default</td></tr>
 * </table>
 *
 * <pre>
 * people         (pk, id, name, email, city, age, active, revision, bio, version, claim)  PRIMARY KEY (pk, id)
 * people_v       the same, for the table with a unique email "view"
 * people_by_email (email, pk, id, name, city, age, active, revision, bio, version)       PRIMARY KEY (email)
 * </pre>
 *
 * <table>
 *   <caption>each operation</caption>
 *   <tr><th>operation</th><th>statements</th><th>Viewbase's counterpart</th></tr>
 *   <tr><td>{@link #get}</td><td>SELECT of one row, its columns read</td><td>table.get</td></tr>
 *   <tr><td>{@link #queryPartition}</td><td>SELECT of one partition, every row's columns read</td>
 *       <td>table.query(partition)</td></tr>
 *   <tr><td>{@link #insert}</td><td>one INSERT</td><td>upsert on a table without views</td></tr>
 *   <tr><td>{@link #writeWithViewAsViewbaseDoes}</td><td>SELECT version; LWT claim IF version = ? AND claim = null;
 *       LOGGED BATCH of the row (clearing the claim) and its email row</td>
 *       <td>upsert on a table with one unique view: the same three round trips</td></tr>
 *   <tr><td>{@link #writeWithViewBatchOnly}</td><td>LOGGED BATCH of the row and its email row</td>
 *       <td>(none: no uniqueness, no protection against concurrent writers)</td></tr>
 * </table>
 */
final class CqlPeople implements AutoCloseable {
  static final String KEYSPACE = "cql_bench";
  private static final String COLUMNS =
      "name text, email text, city text, age int, active boolean, revision int, "
          + "bio text, version bigint";
  private static final int CLAIM_TTL_SECONDS = 30;

  private final CqlSession session;
  private final PreparedStatement get;
  private final PreparedStatement queryPartition;
  private final PreparedStatement insert;
  private final PreparedStatement insertViewed;
  private final PreparedStatement readVersion;
  private final PreparedStatement claim;
  private final PreparedStatement writeReleasing;
  private final PreparedStatement writeEmail;
  private long version;

  private CqlPeople(CqlSession session) {
    this.session = session;
    String person = "name, email, city, age, active, revision, bio, version";
    get =
        session.prepare(
            "SELECT " + person + " FROM " + KEYSPACE + ".people WHERE pk = ? AND id = ?");
    queryPartition =
        session.prepare("SELECT id, " + person + " FROM " + KEYSPACE + ".people WHERE pk = ?");
    insert =
        session.prepare(
            "INSERT INTO "
                + KEYSPACE
                + ".people (pk, id, "
                + person
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    insertViewed =
        session.prepare(
            "INSERT INTO "
                + KEYSPACE
                + ".people_v (pk, id, "
                + person
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    readVersion =
        session.prepare("SELECT version FROM " + KEYSPACE + ".people_v WHERE pk = ? AND id = ?");
    claim =
        session.prepare(
            "UPDATE "
                + KEYSPACE
                + ".people_v USING TTL "
                + CLAIM_TTL_SECONDS
                + " SET claim = ? WHERE pk = ? AND id = ? IF version = ? AND claim = null");
    writeReleasing =
        session.prepare(
            "UPDATE "
                + KEYSPACE
                + ".people_v SET name = ?, email = ?, city = ?, age = ?, "
                + "active = ?, revision = ?, bio = ?, version = ?, claim = null WHERE pk = ? AND id = ?");
    writeEmail =
        session.prepare(
            "INSERT INTO "
                + KEYSPACE
                + ".people_by_email (email, pk, id, name, city, age, "
                + "active, revision, bio, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  }

  /** Connects to the node, creates the keyspace (RF 1) and tables, and prepares the statements. */
  static CqlPeople open(String host, int port) {
    CqlSession session =
        CqlSession.builder()
            .addContactPoint(new InetSocketAddress(host, port))
            .withLocalDatacenter("datacenter1")
            .withConfigLoader(
                DriverConfigLoader.programmaticBuilder()
                    .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                    .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                    .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                    .withString(
                        DefaultDriverOption.TIMESTAMP_GENERATOR_CLASS,
                        "ServerSideTimestampGenerator")
                    .withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, 1000)
                    .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
                    .withDuration(
                        DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
                    .build())
            .build();
    ddl(
        session,
        "CREATE KEYSPACE IF NOT EXISTS "
            + KEYSPACE
            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    for (String table : List.of("people", "people_v")) {
      ddl(
          session,
          "CREATE TABLE IF NOT EXISTS "
              + KEYSPACE
              + "."
              + table
              + " (pk text, id text, "
              + COLUMNS
              + ", claim text, PRIMARY KEY (pk, id))");
    }
    ddl(
        session,
        "CREATE TABLE IF NOT EXISTS "
            + KEYSPACE
            + ".people_by_email (email text, pk text, id text, "
            + "name text, city text, age int, active boolean, revision int, bio text, version bigint, PRIMARY KEY (email))");
    return new CqlPeople(session);
  }

  /**
   * Writes items 0..count-1 into both tables (and the email table), a few hundred requests in
   * flight.
   */
  void load(int count) {
    List<CompletableFuture<?>> inFlight = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Item item = People.item(i, 0);
      inFlight.add(session.executeAsync(bindPerson(insert, item, 0)).toCompletableFuture());
      inFlight.add(session.executeAsync(bindPerson(insertViewed, item, 0)).toCompletableFuture());
      inFlight.add(session.executeAsync(bindEmail(item, 0)).toCompletableFuture());
      if (inFlight.size() >= 300) {
        drain(inFlight);
      }
    }
    drain(inFlight);
  }

  /** The person at (pk, id), with every column read; null if absent. */
  Person get(String pk, String id) {
    Row row = session.execute(get.bind(pk, id)).one();
    return row == null ? null : Person.of(id, row);
  }

  /** Every person of a partition, with every column read. */
  List<Person> queryPartition(String pk) {
    List<Person> out = new ArrayList<>();
    for (Row row : session.execute(queryPartition.bind(pk))) {
      out.add(Person.of(row.getString("id"), row));
    }
    return out;
  }

  void insert(Item item) {
    session.execute(bindPerson(insert, item, ++version));
  }

  /**
   * What Viewbase's backend sends for an upsert on a table with one unique view whose key does not
   * change: read the row's version, claim the row with a lightweight transaction on that version,
   * then one logged batch writing the row (dropping the claim) and its email row.
   */
  void writeWithViewAsViewbaseDoes(Item item) {
    Row current = session.execute(readVersion.bind(item.partitionKey(), item.id())).one();
    Long expected =
        current == null || current.isNull("version") ? null : current.getLong("version");
    String owner = UUID.randomUUID().toString();
    ResultSet claimed =
        session.execute(claim.bind(owner, item.partitionKey(), item.id(), expected));
    if (!claimed.wasApplied()) {
      throw new IllegalStateException(
          "claim of " + item.partitionKey() + "/" + item.id() + " not applied");
    }
    long next = ++version;
    session.execute(
        BatchStatement.newInstance(
            BatchType.LOGGED, bindReleasing(item, next), bindEmail(item, next)));
  }

  /** The row and its email row in one logged batch, without Viewbase's read and claim. */
  void writeWithViewBatchOnly(Item item) {
    long next = ++version;
    session.execute(
        BatchStatement.newInstance(
            BatchType.LOGGED, bindReleasing(item, next), bindEmail(item, next)));
  }

  /** The session, for reading Viewbase's own rows with the same settings ({@link StoredRows}). */
  CqlSession session() {
    return session;
  }

  @Override
  public void close() {
    session.close();
  }

  private BoundStatement bindPerson(PreparedStatement statement, Item item, long v) {
    return statement.bind(
        item.partitionKey(),
        item.id(),
        str(item, "name"),
        str(item, "email"),
        str(item, "city"),
        int32(item, "age"),
        bool(item, "active"),
        int32(item, "revision"),
        str(item, "bio"),
        v);
  }

  private BoundStatement bindReleasing(Item item, long v) {
    return writeReleasing.bind(
        str(item, "name"),
        str(item, "email"),
        str(item, "city"),
        int32(item, "age"),
        bool(item, "active"),
        int32(item, "revision"),
        str(item, "bio"),
        v,
        item.partitionKey(),
        item.id());
  }

  private BoundStatement bindEmail(Item item, long v) {
    return writeEmail.bind(
        str(item, "email"),
        item.partitionKey(),
        item.id(),
        str(item, "name"),
        str(item, "city"),
        int32(item, "age"),
        bool(item, "active"),
        int32(item, "revision"),
        str(item, "bio"),
        v);
  }

  private static String str(Item item, String name) {
    return ((Value.Str) item.get(name).orElseThrow()).value();
  }

  private static int int32(Item item, String name) {
    return ((Value.Int32) item.get(name).orElseThrow()).value();
  }

  private static boolean bool(Item item, String name) {
    return ((Value.Bool) item.get(name).orElseThrow()).value();
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(60)));
  }

  private static void drain(List<CompletableFuture<?>> inFlight) {
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
    inFlight.clear();
  }

  /** A person row as an application reads it: every column into a field. */
  record Person(
      String id,
      String name,
      String email,
      String city,
      int age,
      boolean active,
      int revision,
      String bio,
      long version) {
    static Person of(String id, Row row) {
      return new Person(
          id,
          row.getString("name"),
          row.getString("email"),
          row.getString("city"),
          row.getInt("age"),
          row.getBoolean("active"),
          row.getInt("revision"),
          row.getString("bio"),
          row.getLong("version"));
    }
  }
}
