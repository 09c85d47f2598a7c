package io.viewbase.server.azure.sdk;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.util.HttpClientOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.core.CoreDatabaseProvider;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Azure-dialect server per test class, over a RocksDB database in a temporary directory (or the
 * storage that {@code -Dviewbase.test.storage} names, see {@link #openOptions}), with the official
 * SDK's clients pointed at it: {@code @RegisterExtension static final AzureSdkServer azure = new
 * AzureSdkServer();}.
 *
 * <p>Clients fail fast (no retries, short timeouts): a refused connection or an unexpected 503
 * would otherwise cost seconds of back-off and hide the answer that failed. They share one HTTP
 * client, because the SDK's first request costs seconds of class loading and connection setup.
 */
final class AzureSdkServer implements BeforeAllCallback, AfterAllCallback {
  static final String ACCOUNT = "devstoreaccount1";

  /**
   * Azurite's well-known development key, which the SDKs' {@code UseDevelopmentStorage=true} uses.
   */
  static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  static final HttpClient HTTP =
      HttpClient.createDefault(
          new HttpClientOptions()
              .setConnectTimeout(Duration.ofSeconds(2))
              .setResponseTimeout(Duration.ofSeconds(30)));

  private static final AtomicInteger TABLE_NAMES = new AtomicInteger();
  private static final AtomicInteger OPENS = new AtomicInteger();

  private final Clock expiryClock;
  private Path dir;
  private Database db;
  private AzureTablesServer server;
  private TableServiceClient service;

  AzureSdkServer() {
    this(null);
  }

  /** A server whose database decides expiry by this clock (null: the system clock). */
  AzureSdkServer(Clock expiryClock) {
    this.expiryClock = expiryClock;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    dir = Files.createTempDirectory("viewbase-azure-sdk");
    db =
        expiryClock == null
            ? Viewbase.open(openOptions(dir))
            : CoreDatabaseProvider.open(openOptions(dir), expiryClock);
    server = AzureTablesServer.start(db, AzureOptions.defaults().withPort(0));
    service = serviceClient(KEY);
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    try (Database closing = db) {
      if (server != null) {
        server.close();
      }
    } finally {
      deleteRecursively(dir);
    }
  }

  /**
   * The database behind the server: RocksDB in {@code dir}, unless {@code -Dviewbase.test.storage}
   * names another backend, opened with {@code -Dviewbase.test.storage.options} ({@code k=v;k=v},
   * where {@code {unique}} becomes a fresh name per test class so that each starts on empty
   * storage). viewbase-cassandra-it runs the suite on Cassandra that way.
   */
  static OpenOptions openOptions(Path dir) {
    String storage = System.getProperty("viewbase.test.storage");
    if (storage == null || storage.isBlank()) {
      return OpenOptions.at(dir);
    }
    String unique = "sdk" + ProcessHandle.current().pid() + "x" + OPENS.incrementAndGet();
    Map<String, String> backend = new HashMap<>();
    for (String pair : System.getProperty("viewbase.test.storage.options", "").split(";")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        backend.put(
            pair.substring(0, eq).trim(),
            pair.substring(eq + 1).trim().replace("{unique}", unique));
      }
    }
    return OpenOptions.at(dir).withStorage(storage).withOptions(backend);
  }

  Database db() {
    return db;
  }

  int port() {
    return server.port();
  }

  /** {@code http://127.0.0.1:<port>/devstoreaccount1}: the path-style emulator endpoint. */
  String endpoint() {
    return "http://127.0.0.1:" + port() + "/" + ACCOUNT;
  }

  String connectionString(String accountKey) {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT
        + ";AccountKey="
        + accountKey
        + ";TableEndpoint="
        + endpoint()
        + ";";
  }

  /** The service client signed with the account's key. */
  TableServiceClient service() {
    return service;
  }

  /** A client of this table, signed with the account's key (the table need not exist). */
  TableClient table(String name) {
    return service.getTableClient(name);
  }

  /** A fresh table name, unique in this JVM: every test works on tables of its own. */
  static String uniqueName(String prefix) {
    return prefix + TABLE_NAMES.incrementAndGet();
  }

  /** Creates a table with a fresh name through the SDK and returns its client. */
  TableClient newTable(String prefix) {
    return service.createTable(uniqueName(prefix));
  }

  TableServiceClient serviceClient(String accountKey, HttpPipelinePolicy... policies) {
    TableServiceClientBuilder builder =
        new TableServiceClientBuilder()
            .connectionString(connectionString(accountKey))
            .retryOptions(noRetries())
            .httpClient(HTTP);
    for (HttpPipelinePolicy policy : policies) {
      builder.addPolicy(policy);
    }
    return builder.buildClient();
  }

  /**
   * A table client signed with the account key plus extra pipeline policies (to see or shape the
   * wire).
   */
  TableClient tableClient(String table, HttpPipelinePolicy... policies) {
    TableClientBuilder builder =
        new TableClientBuilder()
            .endpoint(service.getServiceEndpoint())
            .credential(new AzureNamedKeyCredential(ACCOUNT, KEY))
            .tableName(table)
            .retryOptions(noRetries())
            .httpClient(HTTP);
    for (HttpPipelinePolicy policy : policies) {
      builder.addPolicy(policy);
    }
    return builder.buildClient();
  }

  /**
   * A table client that authenticates with a SAS token only. Built from the service endpoint: the
   * SDK's {@code getTableEndpoint()} is wrong for path-style emulator URLs.
   */
  TableClient sasTableClient(String table, String sas) {
    return new TableClientBuilder()
        .endpoint(service.getServiceEndpoint())
        .sasToken(sas)
        .tableName(table)
        .retryOptions(noRetries())
        .httpClient(HTTP)
        .buildClient();
  }

  TableServiceClient sasServiceClient(String sas) {
    return new TableServiceClientBuilder()
        .endpoint(service.getServiceEndpoint())
        .sasToken(sas)
        .retryOptions(noRetries())
        .httpClient(HTTP)
        .buildClient();
  }

  static RetryOptions noRetries() {
    return new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0));
  }

  private static void deleteRecursively(Path root) throws IOException {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
