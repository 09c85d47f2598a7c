package io.viewbase.client;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.Stability;
import io.viewbase.api.SweepStatus;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.BackupInfoJson;
import io.viewbase.json.BatchJson;
import io.viewbase.json.BatchResultJson;
import io.viewbase.json.SweepStatusJson;
import io.viewbase.json.TableInfoJson;
import io.viewbase.json.TableOptionsJson;
import io.viewbase.json.VerifyReportJson;
import io.viewbase.json.ViewDefinitionJson;
import io.viewbase.json.ViewStatusJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * A Viewbase database on a server, reached over the native HTTP API v1. It behaves as the embedded
 * engine does, errors included: a server's JSON error comes back as a {@code ViewbaseException}
 * with the same code and context. Thread-safe; one instance shares its connections among threads.
 *
 * <p>Views map onto {@code /v1/views/{view}}: {@link #createView} is {@code PUT} (it returns as
 * soon as the server has accepted the view; poll {@link #viewStatus} for the backfill), {@link
 * #viewStatus} {@code GET}, {@link #dropView} {@code DELETE}, {@link #verifyView} {@code POST
 * .../verify[?repair=true]}. Verification scans the whole view in one request, so it may wait up to
 * {@link #VERIFY_TIMEOUT} (or the request timeout, if longer) for its answer.
 *
 * <p>{@link #commit} is {@code POST /v1/batch}: the server commits the batch all or nothing, and a
 * failure comes back with the failing operation's {@code operationIndex} in its context. A batch
 * whose answer was lost (a timeout, a dropped connection) may or may not have committed: the
 * exception is then Timeout, and a retry should check first (a {@code check} operation, or an
 * insert that fails with ItemAlreadyExists if the first attempt landed).
 *
 * <p>Table options map onto {@code /v1/tables/{table}}: {@link #createTable(String, TableOptions)}
 * is {@code PUT} with the options as its body, {@link #tableOptions} reads the {@code "options"} of
 * {@code GET}, {@link #alterTable} is {@code PATCH} with every member, so the table gets exactly
 * the options given. {@link Table#changes} is {@code GET .../changes?after=&limit=&wait=}; a call
 * that waits has that much longer for its answer than the request timeout.
 *
 * <p>{@link #limits()} answers the default limits: the v1 API does not publish a server's own, and
 * the server enforces whichever it has.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class RemoteDatabase implements Database {
  /**
   * Long enough for a query page or a durable write on a busy server; a hung server still fails.
   */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /**
   * A verification reads every item of the source and the view: minutes for hundreds of millions.
   */
  public static final Duration VERIFY_TIMEOUT = Duration.ofHours(1);

  private final HttpTransport http;

  private RemoteDatabase(HttpTransport http) {
    this.http = http;
  }

  /**
   * The server at this base address, for example {@code http://127.0.0.1:8080}. Connects lazily.
   */
  public static RemoteDatabase connect(URI base) {
    return connect(base, DEFAULT_TIMEOUT);
  }

  public static RemoteDatabase connect(URI base, Duration requestTimeout) {
    return connect(base, requestTimeout, null, null);
  }

  /** As {@link #connect(URI, Duration, SSLContext, String)} with the default timeout and trust. */
  public static RemoteDatabase connect(URI base, String apiKey) {
    return connect(base, DEFAULT_TIMEOUT, null, apiKey);
  }

  /**
   * As {@link #connect(URI, Duration)}, an https server's certificate checked against what {@code
   * tls} trusts (for example {@link TrustedCertificates#fromPem}); null trusts the JDK's default
   * trust store, as the other overloads do.
   */
  public static RemoteDatabase connect(URI base, Duration requestTimeout, SSLContext tls) {
    return connect(base, requestTimeout, tls, null);
  }

  /**
   * As {@link #connect(URI, Duration, SSLContext)}, every request carrying {@code Authorization:
   * Bearer apiKey} (an API key, {@code vb_<id>_<secret>}); a null key sends none.
   */
  public static RemoteDatabase connect(
      URI base, Duration requestTimeout, SSLContext tls, String apiKey) {
    if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
      throw new IllegalArgumentException(
          "A Viewbase server address starts with http:// or https://, not " + base);
    }
    HttpClient.Builder client =
        HttpClient.newBuilder()
            .version(
                HttpClient.Version
                    .HTTP_1_1) // the server speaks HTTP/1.1; skip the h2c upgrade dance
            .connectTimeout(Duration.ofSeconds(10));
    if (tls != null) {
      client.sslContext(tls);
    }
    return new RemoteDatabase(new HttpTransport(client.build(), base, requestTimeout, apiKey));
  }

  @Override
  public TableInfo createTable(String name) {
    return TableInfoJson.read(http.send("PUT", tablePath(name), null).body());
  }

  @Override
  public TableInfo createTable(String name, TableOptions options) {
    if (options == null) {
      return createTable(name);
    }
    return TableInfoJson.read(
        http.send("PUT", tablePath(name), TableOptionsJson.write(options)).body());
  }

  @Override
  public TableOptions tableOptions(String name) {
    byte[] description = http.send("GET", tablePath(name), null).body();
    return TableOptionsJson.readDescribed(description)
        .orElseThrow(
            () ->
                ViewbaseException.of(
                    ErrorCode.ViewIsReadOnly, "A view has no options of its own", "view", name));
  }

  @Override
  public TableOptions alterTable(String name, TableOptions options) {
    if (options == null) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "Altering a table needs its options");
    }
    byte[] description =
        http.send("PATCH", tablePath(name), TableOptionsJson.write(options)).body();
    return TableOptionsJson.readDescribed(description).orElse(options);
  }

  @Override
  public void dropTable(String name) {
    http.send("DELETE", tablePath(name), null);
  }

  @Override
  public List<TableInfo> listTables() {
    return TableInfoJson.readList(http.send("GET", "/v1/tables", null).body());
  }

  /** Asks the server, so a missing table fails here with TableNotFound, as embedded. */
  @Override
  public Table table(String name) {
    TableInfo info = TableInfoJson.read(http.send("GET", tablePath(name), null).body());
    return new RemoteTable(http, info.name());
  }

  @Override
  public ViewStatus createView(ViewDefinition definition) {
    if (definition == null || definition.name() == null) {
      throw new ViewbaseException(ErrorCode.InvalidView, "A view needs a name");
    }
    byte[] body = ViewDefinitionJson.write(definition);
    return ViewStatusJson.read(http.send("PUT", viewPath(definition.name()), body).body());
  }

  @Override
  public ViewStatus viewStatus(String name) {
    return ViewStatusJson.read(http.send("GET", viewPath(name), null).body());
  }

  @Override
  public void dropView(String name) {
    http.send("DELETE", viewPath(name), null);
  }

  @Override
  public VerifyReport verifyView(String name, boolean repair) {
    Duration timeout =
        http.timeout().compareTo(VERIFY_TIMEOUT) > 0 ? http.timeout() : VERIFY_TIMEOUT;
    String path = viewPath(name) + "/verify" + (repair ? "?repair=true" : "");
    return VerifyReportJson.read(http.send("POST", path, null, timeout).body());
  }

  /**
   * {@code POST /v1/tables/{t}/expire}: a sweep reads the whole table, so it waits as verify does.
   */
  @Override
  public long expire(String table) {
    Duration timeout =
        http.timeout().compareTo(VERIFY_TIMEOUT) > 0 ? http.timeout() : VERIFY_TIMEOUT;
    return SweepStatusJson.readExpired(
        http.send("POST", tablePath(table) + "/expire", null, timeout).body());
  }

  /** The {@code sweep} member of {@code GET /v1/tables/{t}}. */
  @Override
  public SweepStatus sweepStatus(String table) {
    return SweepStatusJson.readFromDescription(http.send("GET", tablePath(table), null).body());
  }

  @Override
  public BatchResult commit(Batch batch) {
    if (batch == null) {
      throw new ViewbaseException(ErrorCode.InvalidInput, "A batch is required");
    }
    byte[] answer = http.send("POST", "/v1/batch", BatchJson.write(batch)).body();
    return BatchResultJson.read(answer, Limits.DEFAULT);
  }

  /**
   * {@code POST /v1/admin/backup} with {@code {"to": DIR}}: DIR is on the server's machine, so it
   * is sent as given and must be absolute there. A backup copies the database, so it waits as
   * verify does.
   */
  @Override
  public BackupInfo backup(Path to) {
    Duration timeout =
        http.timeout().compareTo(VERIFY_TIMEOUT) > 0 ? http.timeout() : VERIFY_TIMEOUT;
    return BackupInfoJson.read(
        http.send("POST", "/v1/admin/backup", BackupInfoJson.writeRequest(to.toString()), timeout)
            .body());
  }

  @Override
  public Limits limits() {
    return Limits.DEFAULT;
  }

  /** Stops further calls; the HTTP client's idle connections close on their own. */
  @Override
  public void close() {
    http.close();
  }

  static String viewPath(String name) {
    return "/v1/views/" + UriEncoding.encode(name);
  }

  static String tablePath(String name) {
    return "/v1/tables/" + UriEncoding.encode(name);
  }
}
