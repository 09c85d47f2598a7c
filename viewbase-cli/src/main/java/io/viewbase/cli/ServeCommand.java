package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Limits;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ConnectionLimits;
import io.viewbase.server.ServerMetrics;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.TlsSettings;
import io.viewbase.server.ViewbaseServer;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import io.viewbase.server.dynamodb.DynamoDbServer;
import io.viewbase.storage.spi.StoreOptionException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase serve}: opens a database and serves the native HTTP API and, beside it, the Azure
 * Tables dialect and the DynamoDB dialect until the process is stopped. Prints its lines once all
 * accept connections (tests and scripts wait for the first):
 *
 * <pre>
 * Viewbase listening on http://127.0.0.1:8080 (data: /abs/viewbase-data, storage: rocksdb)
 * Azure Tables dialect on http://127.0.0.1:10002/devstoreaccount1
 * DynamoDB dialect on http://127.0.0.1:8000 (access key fakeMyKeyId)
 * </pre>
 *
 * With {@code --tls-cert} and {@code --tls-key} ({@link TlsFlags}) every line says {@code https://}
 * and every listener speaks https only. With {@code --port 0} the line names the port the system
 * chose; {@code --azure-port 0} and {@code --dynamodb-port 0} turn a dialect off (no line for it).
 * SIGTERM or Ctrl-C stops every server, then closes the database, so the next start finds a clean
 * directory.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run the Viewbase server (native HTTP API) on a data directory.")
final class ServeCommand implements Callable<Integer> {
  /** Where the Azure Tables dialect will listen (Azurite's port); see --azure-port below. */
  static final int DEFAULT_AZURE_PORT = 10002;

  /** Where the DynamoDB dialect will listen (DynamoDB Local's port); see --dynamodb-port below. */
  static final int DEFAULT_DYNAMODB_PORT = 8000;

  @Spec CommandSpec spec;

  @Mixin TlsFlags tls;
  @Mixin LogFormatOption logFormat = new LogFormatOption();

  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = "viewbase-data",
      description =
          "Data directory, created if absent, relative to the current directory "
              + "(default: ./${DEFAULT-VALUE}).")
  Path data;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "8080",
      description = "Port of the native HTTP API; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "127.0.0.1",
      description =
          "Address to listen on; 0.0.0.0 for every interface (default: ${DEFAULT-VALUE}).")
  String bind;

  @Option(
      names = "--insecure",
      description =
          "Serve the native API beyond loopback (--bind 0.0.0.0, a LAN address) although the "
              + "catalog holds no API key: anyone who reaches it can read and write everything. "
              + "Without it such a server refuses to start; see 'viewbase key create'.")
  boolean insecure;

  @Option(
      names = "--storage",
      paramLabel = "rocksdb|memory|cassandra",
      defaultValue = "rocksdb",
      description =
          "Storage backend: rocksdb in --data; memory keeps nothing after exit; cassandra "
              + "stores in a Cassandra cluster, shared by every server on the keyspace (default: ${DEFAULT-VALUE}).")
  StorageChoice storage;

  @Option(
      names = "--cassandra-contact-points",
      paramLabel = "HOST:PORT[,HOST:PORT...]",
      defaultValue = "127.0.0.1:9042",
      description =
          "With --storage cassandra: nodes to connect to first (default: ${DEFAULT-VALUE}).")
  String cassandraContactPoints;

  @Option(
      names = "--keyspace",
      paramLabel = "NAME",
      defaultValue = "viewbase",
      description =
          "With --storage cassandra: the keyspace, created if absent (default: ${DEFAULT-VALUE}).")
  String keyspace;

  @Option(
      names = "--cassandra-datacenter",
      paramLabel = "NAME",
      defaultValue = "datacenter1",
      description = "With --storage cassandra: the local datacenter (default: ${DEFAULT-VALUE}).")
  String cassandraDatacenter;

  @Option(
      names = "--cassandra-option",
      paramLabel = "KEY=VALUE",
      description =
          "With --storage cassandra: another backend setting, e.g. consistency=QUORUM or "
              + "replication={'class':'SimpleStrategy','replication_factor':3} (see docs/scale-out.md); repeatable.")
  Map<String, String> cassandraOptions;

  @Option(
      names = "--rocksdb-option",
      paramLabel = "KEY=VALUE",
      description =
          "With --storage rocksdb: a backend setting, e.g. blockCacheBytes=512m, writeBufferBytes=64m, "
              + "walCompression=none or recycleLogFiles=0 (see docs/storage.md); repeatable.")
  Map<String, String> rocksdbOptions;

  @Option(
      names = "--profile",
      paramLabel = "server|emulator",
      defaultValue = "server",
      description =
          "How the JVM is tuned: server for a long-running server; emulator for a server that a "
              + "test suite starts fresh and stops (the JIT stops at C1, the serial collector: less "
              + "CPU in the first minutes, more once warm). The ./viewbase launcher adds the "
              + "profile's JVM options (default: ${DEFAULT-VALUE}).")
  ServeProfile profile;

  @Option(
      names = "--io-threads",
      paramLabel = "N",
      description =
          "Event-loop threads of each listener (the native API's and the Azure dialect's): they "
              + "parse requests, serve point reads and queue writes (default: the number of cores).")
  Integer ioThreads;

  @Option(
      names = "--idle-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How long a kept-alive connection may wait for its next request before the server closes "
              + "it, on each listener, e.g. 120s or 5m (default: 120s).")
  Duration idleTimeout;

  @Option(
      names = "--header-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How long a request line and headers may take to arrive, from their first byte or the "
              + "connection's accept; then 408 and close (default: 30s).")
  Duration headerTimeout;

  @Option(
      names = "--body-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "How long a request body may take to arrive once its headers have; then 408 and close "
              + "(default: 120s).")
  Duration bodyTimeout;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description =
          "Connections each listener keeps open at once; the next are answered 503 and closed "
              + "(default: 10000).")
  Integer maxConnections;

  @Option(
      names = "--no-sync",
      description =
          "Acknowledge writes before they are synced to disk: faster, but a machine crash "
              + "can lose the last acknowledged writes (a process crash cannot).")
  boolean noSync;

  @Option(
      names = "--azure-port",
      paramLabel = "PORT",
      defaultValue = "" + DEFAULT_AZURE_PORT,
      description =
          "Port of the Azure Tables dialect (Azurite's, so UseDevelopmentStorage=true works); "
              + "0 turns it off (default: ${DEFAULT-VALUE}).")
  int azurePort;

  @Option(
      names = "--azure-account",
      paramLabel = "NAME:BASE64KEY",
      description =
          "An account the Azure dialect accepts, with its base64 key; repeat for more. "
              + "Given once or more, it replaces the default devstoreaccount1 and its well-known key.")
  List<String> azureAccounts;

  @Option(
      names = "--azure-anonymous",
      description =
          "Serve Azure requests that carry no signature at all (no SharedKey, no SAS). "
              + "Anyone who can reach the port can then read and write everything.")
  boolean azureAnonymous;

  @Option(
      names = "--dynamodb-port",
      paramLabel = "PORT",
      defaultValue = "" + DEFAULT_DYNAMODB_PORT,
      description =
          "Port of the DynamoDB dialect (DynamoDB Local's, so the AWS SDKs and CLI work with "
              + "--endpoint-url http://127.0.0.1:8000); 0 turns it off (default: ${DEFAULT-VALUE}).")
  int dynamoDbPort;

  @Option(
      names = "--dynamodb-key",
      paramLabel = "ID:SECRET",
      description =
          "An access key id and its secret the DynamoDB dialect accepts (SigV4); repeat for more. "
              + "Given once or more, it replaces the default fakeMyKeyId:fakeSecretAccessKey.")
  List<String> dynamoDbKeys;

  @Option(
      names = "--dynamodb-any-key",
      description =
          "Accept every well-formed signed DynamoDB request whatever its key and signature, as "
              + "DynamoDB Local does. Anyone who can reach the port can then read and write everything.")
  boolean dynamoDbAnyKey;

  @Option(
      names = "--dynamodb-account",
      paramLabel = "ID",
      defaultValue = DynamoDbOptions.DEFAULT_ACCOUNT,
      description =
          "The 12-digit account id in the DynamoDB dialect's ARNs (default: ${DEFAULT-VALUE}).")
  String dynamoDbAccount;

  /** The storage backends {@code serve} offers by name. */
  enum StorageChoice {
    rocksdb,
    memory,
    cassandra
  }

  /** The options that mean something only with {@code --storage cassandra}. */
  private static final List<String> CASSANDRA_FLAGS =
      List.of(
          "--cassandra-contact-points",
          "--keyspace",
          "--cassandra-datacenter",
          "--cassandra-option");

  /** The options that mean something only with {@code --storage rocksdb}. */
  private static final List<String> ROCKSDB_FLAGS = List.of("--rocksdb-option");

  @Override
  public Integer call() {
    logFormat.apply();
    checkIoThreads();
    warnOfMissingJvmOptions();
    ConnectionLimits connections = connectionLimits();
    TlsSettings tlsSettings = tls.settings();
    ServerOptions serverOptions = serverOptions().withConnections(connections).withTls(tlsSettings);
    AzureOptions azureOptions = azureOptions();
    if (azureOptions != null) {
      azureOptions = azureOptions.withConnections(connections).withTls(tlsSettings);
    }
    DynamoDbOptions dynamoDbOptions = dynamoDbOptions();
    if (dynamoDbOptions != null) {
      dynamoDbOptions = dynamoDbOptions.withConnections(connections).withTls(tlsSettings);
    }
    Database opened;
    try {
      opened = DataDirectory.open(openOptions());
    } catch (StoreOptionException badSetting) {
      throw new ParameterException(
          spec.commandLine(), flagOf(badSetting.option()) + ": " + badSetting.getMessage());
    }
    ViewbaseServer server;
    ServerMetrics metrics = new ServerMetrics(); // one registry for every listener, at /metrics
    try {
      server = ViewbaseServer.start(opened, serverOptions, metrics);
    } catch (UncheckedIOException cannotListen) {
      opened.close();
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          cannotListen.getMessage()
              + " (is another server running there? choose another --port or --bind)");
    } catch (RuntimeException failure) {
      opened.close();
      throw failure;
    }
    AzureTablesServer azure = null;
    if (azureOptions != null) {
      try {
        azure = AzureTablesServer.start(opened, azureOptions, metrics);
      } catch (RuntimeException failure) {
        server.close();
        opened.close();
        if (failure instanceof UncheckedIOException cannotListen) {
          throw ViewbaseException.of(
              ErrorCode.InvalidInput,
              "Azure Tables dialect: "
                  + cannotListen.getMessage()
                  + " (is Azurite or another server using the port? choose another --azure-port, or --azure-port 0 "
                  + "to turn the Azure dialect off)");
        }
        throw failure;
      }
    }
    DynamoDbServer dynamoDb = null;
    if (dynamoDbOptions != null) {
      try {
        dynamoDb = DynamoDbServer.start(opened, dynamoDbOptions, metrics);
      } catch (RuntimeException failure) {
        if (azure != null) {
          azure.close();
        }
        server.close();
        opened.close();
        if (failure instanceof UncheckedIOException cannotListen) {
          throw ViewbaseException.of(
              ErrorCode.InvalidInput,
              "DynamoDB dialect: "
                  + cannotListen.getMessage()
                  + " (is DynamoDB Local or another server using the port? choose another "
                  + "--dynamodb-port, or --dynamodb-port 0 to turn the DynamoDB dialect off)");
        }
        throw failure;
      }
    }
    // Every listener stops before the database closes: no request is still writing then.
    List<AutoCloseable> listeners = new ArrayList<>();
    listeners.add(server);
    if (azure != null) {
      listeners.add(azure);
    }
    if (dynamoDb != null) {
      listeners.add(dynamoDb);
    }
    RunningServer running = new RunningServer(listeners, opened);
    Thread hook = new Thread(running::close, "viewbase-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);

    if (tlsSettings != null) {
      TlsFlags.reloadOnHangup(tlsSettings, spec.commandLine().getErr());
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "Viewbase listening on "
            + tls.scheme()
            + "://"
            + hostForUrl()
            + ":"
            + server.port()
            + " ("
            + whereData()
            + (profile == ServeProfile.server ? "" : ", profile: " + profile)
            + ")");
    if (azure != null) {
      out.println(
          "Azure Tables dialect on "
              + tls.scheme()
              + "://"
              + hostForUrl()
              + ":"
              + azure.port()
              + "/"
              + azureOptions.accounts().keySet().iterator().next()
              + (azureOptions.anonymousAccess() ? " (anonymous access: no signature needed)" : ""));
    }
    if (dynamoDb != null) {
      out.println(
          "DynamoDB dialect on "
              + tls.scheme()
              + "://"
              + hostForUrl()
              + ":"
              + dynamoDb.port()
              + (dynamoDbOptions.anyKey()
                  ? " (any key: signatures are not checked)"
                  : " (access key " + String.join(", ", dynamoDbOptions.keys().keySet()) + ")"));
    }
    out.flush();

    try {
      running.awaitClosed();
    } catch (InterruptedException interrupted) {
      // In-process callers (tests, an embedding program) stop the server by interrupting its
      // thread.
      running.close();
      removeHook(hook);
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  private OpenOptions openOptions() {
    if (storage != StorageChoice.cassandra) {
      onlyWith(CASSANDRA_FLAGS, "cassandra");
    }
    if (storage != StorageChoice.rocksdb) {
      onlyWith(ROCKSDB_FLAGS, "rocksdb");
    }
    switch (storage) {
      case memory:
        return OpenOptions.inMemory().withSync(!noSync);
      case cassandra:
        Map<String, String> settings = prefixed(cassandraOptions, "cassandra.");
        settings.put("cassandra.contactPoints", cassandraContactPoints);
        settings.put("cassandra.keyspace", keyspace);
        settings.put("cassandra.localDatacenter", cassandraDatacenter);
        // Durability is the cluster's (commit log and replication), so --no-sync changes nothing
        // there.
        return new OpenOptions(null, "cassandra", true, Limits.DEFAULT, settings);
      default:
        return OpenOptions.at(data)
            .withSync(!noSync)
            .withOptions(prefixed(rocksdbOptions, "rocksdb."));
    }
  }

  /** The flag a refused backend setting came from, for its usage error. */
  private static String flagOf(String option) {
    return switch (option) {
      case "cassandra.contactPoints" -> "--cassandra-contact-points";
      case "cassandra.keyspace" -> "--keyspace";
      case "cassandra.localDatacenter" -> "--cassandra-datacenter";
      default ->
          option.startsWith("cassandra.")
              ? "--cassandra-option"
              : option.startsWith("rocksdb.") ? "--rocksdb-option" : option;
    };
  }

  /**
   * A backend's settings as given on the command line (or none), each name with its backend's
   * prefix.
   */
  private static Map<String, String> prefixed(Map<String, String> given, String prefix) {
    Map<String, String> settings = new LinkedHashMap<>();
    if (given != null) {
      given.forEach(
          (key, value) -> settings.put(key.startsWith(prefix) ? key : prefix + key, value));
    }
    return settings;
  }

  /** Fails the command line if one of {@code flags} was given without {@code --storage storage}. */
  private void onlyWith(List<String> flags, String storage) {
    for (String flag : flags) {
      if (spec.commandLine().getParseResult().hasMatchedOption(flag)) {
        throw new ParameterException(
            spec.commandLine(), flag + " applies only to --storage " + storage);
      }
    }
  }

  /** The banner's account of where the data lives. */
  private String whereData() {
    switch (storage) {
      case memory:
        return "data: none, storage: memory";
      case cassandra:
        return "storage: cassandra, keyspace " + keyspace + " at " + cassandraContactPoints;
      default:
        return "data: " + data.toAbsolutePath().normalize() + ", storage: rocksdb";
    }
  }

  private ServerOptions serverOptions() {
    try {
      ServerOptions options =
          ServerOptions.defaults().withBindAddress(bind).withPort(port).withInsecure(insecure);
      return ioThreads == null ? options : options.withIoThreads(ioThreads);
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(spec.commandLine(), invalid.getMessage());
    }
  }

  /**
   * Both listeners take the connection flags: checked once, each with its flag's name in the
   * message.
   */
  private ConnectionLimits connectionLimits() {
    ConnectionLimits limits = ConnectionLimits.defaults();
    if (idleTimeout != null) {
      limits = limits.withIdleTimeout(positive("--idle-timeout", idleTimeout));
    }
    if (headerTimeout != null) {
      limits = limits.withHeaderTimeout(positive("--header-timeout", headerTimeout));
    }
    if (bodyTimeout != null) {
      limits = limits.withBodyTimeout(positive("--body-timeout", bodyTimeout));
    }
    if (maxConnections != null) {
      if (maxConnections < 1) {
        throw new ParameterException(
            spec.commandLine(), "--max-connections must be at least 1, not " + maxConnections);
      }
      limits = limits.withMaxConnections(maxConnections);
    }
    return limits;
  }

  private Duration positive(String flag, Duration value) {
    if (value.toMillis() < 1) {
      String given = spec.commandLine().getParseResult().matchedOption(flag).stringValues().get(0);
      throw new ParameterException(
          spec.commandLine(), flag + " must be at least 1ms, not " + given);
    }
    return value;
  }

  /**
   * Both listeners take {@code --io-threads}: checked once, with the flag's name and range in the
   * message.
   */
  /**
   * Says on stderr when the profile's JVM options are missing (the server was started with {@code
   * java -jar}, not the launcher): it then runs as the JVM was started.
   */
  private void warnOfMissingJvmOptions() {
    List<String> missing = profile.missingFromThisJvm();
    if (!missing.isEmpty()) {
      PrintWriter err = spec.commandLine().getErr();
      err.println(
          "viewbase serve --profile "
              + profile
              + ": this JVM was started without "
              + String.join(" ", missing)
              + ", so it runs as started; the ./viewbase launcher adds them, or give them to java "
              + "before -jar");
      err.flush();
    }
  }

  private void checkIoThreads() {
    if (ioThreads != null && (ioThreads < 1 || ioThreads > 1024)) {
      throw new ParameterException(
          spec.commandLine(), "--io-threads must be 1 to 1024, not " + ioThreads);
    }
  }

  /** The Azure dialect's options, or null when {@code --azure-port 0} turns it off. */
  private AzureOptions azureOptions() {
    if (azurePort == 0) {
      return null;
    }
    try {
      AzureOptions options =
          AzureOptions.defaults()
              .withBindAddress(bind)
              .withPort(azurePort)
              .withAnonymousAccess(azureAnonymous);
      if (ioThreads != null) {
        options = options.withIoThreads(ioThreads);
      }
      if (azureAccounts != null && !azureAccounts.isEmpty()) {
        Map<String, String> accounts = new LinkedHashMap<>();
        for (String account : azureAccounts) {
          int colon = account.indexOf(':');
          if (colon <= 0 || colon == account.length() - 1) {
            throw new IllegalArgumentException(
                "--azure-account takes NAME:BASE64KEY, was " + account);
          }
          accounts.put(account.substring(0, colon), account.substring(colon + 1));
        }
        options = options.withAccounts(accounts);
      }
      return options;
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(
          spec.commandLine(),
          invalid.getMessage()
              + (invalid.getMessage().startsWith("port") ? " (--azure-port)" : ""));
    }
  }

  /** The DynamoDB dialect's options, or null when {@code --dynamodb-port 0} turns it off. */
  private DynamoDbOptions dynamoDbOptions() {
    if (dynamoDbPort == 0) {
      return null;
    }
    try {
      DynamoDbOptions options =
          DynamoDbOptions.defaults()
              .withBindAddress(bind)
              .withPort(dynamoDbPort)
              .withAnyKey(dynamoDbAnyKey)
              .withAccount(dynamoDbAccount);
      if (ioThreads != null) {
        options = options.withIoThreads(ioThreads);
      }
      if (dynamoDbKeys != null && !dynamoDbKeys.isEmpty()) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String key : dynamoDbKeys) {
          int colon = key.indexOf(':');
          if (colon <= 0 || colon == key.length() - 1) {
            // The secret is not repeated in the message: it may be most of what was given.
            throw new IllegalArgumentException("--dynamodb-key takes ID:SECRET");
          }
          keys.put(key.substring(0, colon), key.substring(colon + 1));
        }
        options = options.withKeys(keys);
      }
      return options;
    } catch (IllegalArgumentException invalid) {
      String message = invalid.getMessage();
      String flag =
          message.startsWith("port")
              ? " (--dynamodb-port)"
              : message.startsWith("An account") ? " (--dynamodb-account)" : "";
      throw new ParameterException(spec.commandLine(), message + flag);
    }
  }

  private String hostForUrl() {
    return bind.contains(":") ? "[" + bind + "]" : bind;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is already exiting and runs the hook itself; closing twice is harmless.
    }
  }
}
