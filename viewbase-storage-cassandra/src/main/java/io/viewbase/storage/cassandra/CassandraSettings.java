package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoreOptionException;
import io.viewbase.storage.spi.StoreOptions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where a Cassandra store lives and how it talks to the cluster, read from {@link
 * StoreConfig#options()}.
 *
 * <table>
 *   <caption>options</caption>
 *   <tr><th>option</th><th>default</th><th>what</th></tr>
 *   <tr><td>cassandra.contactPoints</td><td>127.0.0.1:9042</td><td>comma-separated host[:port] to bootstrap from</td></tr>
 *   <tr><td>cassandra.localDatacenter</td><td>datacenter1</td><td>the datacenter requests are routed to</td></tr>
 *   <tr><td>cassandra.keyspace</td><td>viewbase</td><td>created if absent, with the replication below</td></tr>
 *   <tr><td>cassandra.table</td><td>kv</td><td>created if absent</td></tr>
 *   <tr><td>cassandra.replication</td><td>1</td><td>a replication factor (SimpleStrategy), or a CQL map such as
 *       {'class':'NetworkTopologyStrategy','dc1':3}; used only when the keyspace is created</td></tr>
 *   <tr><td>cassandra.consistency</td><td>LOCAL_QUORUM</td><td>reads and writes</td></tr>
 *   <tr><td>cassandra.serialConsistency</td><td>LOCAL_SERIAL</td><td>the Paxos phase of lightweight transactions</td></tr>
 *   <tr><td>cassandra.requestTimeout</td><td>10s</td><td>per request (ms, s or m suffix, as {@link StoreOptions#duration} reads it)</td></tr>
 *   <tr><td>cassandra.claimTtl</td><td>30s</td><td>how long a crashed committer's claims block a key</td></tr>
 *   <tr><td>cassandra.pageSize</td><td>1000</td><td>rows a scan fetches per round trip</td></tr>
 * </table>
 */
record CassandraSettings(
    List<InetSocketAddress> contactPoints,
    String localDatacenter,
    String keyspace,
    String table,
    String replication,
    ConsistencyLevel consistency,
    ConsistencyLevel serialConsistency,
    Duration requestTimeout,
    Duration claimTtl,
    int pageSize) {

  static final String CONTACT_POINTS = "cassandra.contactPoints";
  static final String LOCAL_DATACENTER = "cassandra.localDatacenter";
  static final String KEYSPACE = "cassandra.keyspace";
  static final String TABLE = "cassandra.table";
  static final String REPLICATION = "cassandra.replication";
  static final String CONSISTENCY = "cassandra.consistency";
  static final String SERIAL_CONSISTENCY = "cassandra.serialConsistency";
  static final String REQUEST_TIMEOUT = "cassandra.requestTimeout";
  static final String CLAIM_TTL = "cassandra.claimTtl";
  static final String PAGE_SIZE = "cassandra.pageSize";
  private static final Set<String> KNOWN =
      Set.of(
          CONTACT_POINTS,
          LOCAL_DATACENTER,
          KEYSPACE,
          TABLE,
          REPLICATION,
          CONSISTENCY,
          SERIAL_CONSISTENCY,
          REQUEST_TIMEOUT,
          CLAIM_TTL,
          PAGE_SIZE);

  /** Cassandra's own rule for unquoted keyspace and table names. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");

  private static final int DEFAULT_PORT = 9042;
  private static final Duration MIN_DURATION = Duration.ofMillis(1);
  private static final Duration MAX_DURATION = Duration.ofHours(1);

  static CassandraSettings from(StoreConfig config) {
    StoreOptions given = StoreOptions.of(config, "cassandra", KNOWN);
    return new CassandraSettings(
        contactPoints(given.raw(CONTACT_POINTS, "127.0.0.1:" + DEFAULT_PORT)),
        given.nonBlank(LOCAL_DATACENTER, "datacenter1"),
        name(given, KEYSPACE, "viewbase"),
        name(given, TABLE, "kv"),
        replication(given.text(REPLICATION, "1")),
        consistency(given, CONSISTENCY, "LOCAL_QUORUM", false),
        consistency(given, SERIAL_CONSISTENCY, "LOCAL_SERIAL", true),
        given.duration(REQUEST_TIMEOUT, "10s", MIN_DURATION, MAX_DURATION),
        given.duration(CLAIM_TTL, "30s", MIN_DURATION, MAX_DURATION),
        (int) given.number(PAGE_SIZE, "1000", 10, 100_000));
  }

  /** The contact points as the user wrote them, for messages. */
  String contactPointsText() {
    List<String> out = new ArrayList<>();
    for (InetSocketAddress address : contactPoints) {
      out.add(address.getHostString() + ":" + address.getPort());
    }
    return String.join(",", out);
  }

  private static List<InetSocketAddress> contactPoints(String text) {
    List<InetSocketAddress> out = new ArrayList<>();
    for (String part : text.split(",")) {
      String point = part.trim();
      if (point.isEmpty()) {
        continue;
      }
      int colon = point.lastIndexOf(':');
      String host = colon < 0 ? point : point.substring(0, colon);
      int port = DEFAULT_PORT;
      if (colon >= 0) {
        try {
          port = Integer.parseInt(point.substring(colon + 1));
        } catch (NumberFormatException e) {
          port = -1;
        }
      }
      if (host.isEmpty() || port < 1 || port > 65535) {
        throw new StoreOptionException(
            CONTACT_POINTS,
            CONTACT_POINTS + " must be host[:port],... such as 127.0.0.1:9042, not '" + text + "'");
      }
      // Unresolved: the driver resolves it when it connects, so a bad host is reported as
      // unreachable.
      out.add(InetSocketAddress.createUnresolved(host, port));
    }
    if (out.isEmpty()) {
      throw new StoreOptionException(CONTACT_POINTS, CONTACT_POINTS + " names no host");
    }
    return List.copyOf(out);
  }

  private static String name(StoreOptions given, String option, String defaultValue) {
    String value = given.text(option, defaultValue);
    if (!NAME.matcher(value).matches()) {
      throw new StoreOptionException(
          option,
          option + " must be a letter then up to 47 letters, digits or _, not '" + value + "'");
    }
    return value.toLowerCase(Locale.ROOT);
  }

  /** A replication factor becomes SimpleStrategy; a CQL map is passed through as written. */
  private static String replication(String text) {
    if (text.startsWith("{") && text.endsWith("}") && !text.contains(";")) {
      return text;
    }
    try {
      int factor = Integer.parseInt(text);
      if (factor >= 1 && factor <= 32) {
        return "{'class': 'SimpleStrategy', 'replication_factor': " + factor + "}";
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new StoreOptionException(
        REPLICATION,
        REPLICATION
            + " must be a replication factor (1 to 32) or a CQL map such as "
            + "{'class':'NetworkTopologyStrategy','dc1':3}, not '"
            + text
            + "'");
  }

  private static ConsistencyLevel consistency(
      StoreOptions given, String name, String defaultValue, boolean serial) {
    String text = given.text(name, defaultValue).toUpperCase(Locale.ROOT);
    try {
      DefaultConsistencyLevel level = DefaultConsistencyLevel.valueOf(text);
      if (level.isSerial() == serial) {
        return level;
      }
    } catch (IllegalArgumentException e) {
      // fall through to the message below
    }
    throw new StoreOptionException(
        name,
        name
            + " must be "
            + (serial
                ? "SERIAL or LOCAL_SERIAL"
                : "a consistency level such as ONE, QUORUM, LOCAL_QUORUM or ALL")
            + ", not '"
            + text
            + "'");
  }
}
