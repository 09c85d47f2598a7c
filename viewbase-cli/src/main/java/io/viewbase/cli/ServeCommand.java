package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase serve}: opens a database and serves the native HTTP API until the process is
 * stopped. Prints one line once it accepts connections (tests and scripts wait for it):
 *
 * <pre>Viewbase listening on http://127.0.0.1:8080 (data: /abs/viewbase-data, storage: rocksdb)</pre>
 *
 * With {@code --port 0} the line names the port the system chose. SIGTERM or Ctrl-C stops the
 * server, then closes the database, so the next start finds a clean directory.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Run the Viewbase server (native HTTP API) on a data directory.")
final class ServeCommand implements Callable<Integer> {
  /** Where the Azure Tables dialect will listen (Azurite's port); see --azure-port below. */
  static final int DEFAULT_AZURE_PORT = 10002;

  @Spec
  CommandSpec spec;

  @Option(names = "--data", paramLabel = "DIR", defaultValue = "viewbase-data",
      description = "Data directory, created if absent, relative to the current directory "
          + "(default: ./${DEFAULT-VALUE}).")
  Path data;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
      description = "Port of the native HTTP API; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
      description = "Address to listen on; 0.0.0.0 for every interface (default: ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--storage", paramLabel = "rocksdb|memory", defaultValue = "rocksdb",
      description = "Storage backend; memory keeps nothing after exit (default: ${DEFAULT-VALUE}).")
  StorageChoice storage;

  @Option(names = "--no-sync",
      description = "Acknowledge writes before they are synced to disk: faster, but a machine crash "
          + "can lose the last acknowledged writes (a process crash cannot).")
  boolean noSync;

  // The Azure Tables dialect (its own issue) adds here:
  //   @Option(names = "--azure-port", defaultValue = "" + DEFAULT_AZURE_PORT) int azurePort; // 0 = off
  // starts its listener in call() next to the native one, and names it in the banner line.

  /** The storage backends {@code serve} offers by name. */
  enum StorageChoice { rocksdb, memory }

  @Override
  public Integer call() {
    ServerOptions serverOptions = serverOptions();
    Database db = DataDirectory.open(openOptions());
    ViewbaseServer server;
    try {
      server = ViewbaseServer.start(db, serverOptions);
    } catch (UncheckedIOException cannotListen) {
      db.close();
      throw ViewbaseException.of(ErrorCode.InvalidInput, cannotListen.getMessage()
          + " (is another server running there? choose another --port or --bind)");
    } catch (RuntimeException failure) {
      db.close();
      throw failure;
    }
    RunningServer running = new RunningServer(server, db);
    Thread hook = new Thread(running::close, "viewbase-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);

    PrintWriter out = spec.commandLine().getOut();
    out.println("Viewbase listening on http://" + hostForUrl() + ":" + server.port()
        + " (data: " + (storage == StorageChoice.memory ? "none" : data.toAbsolutePath().normalize())
        + ", storage: " + storage + ")");
    out.flush();

    try {
      running.awaitClosed();
    } catch (InterruptedException interrupted) {
      // In-process callers (tests, an embedding program) stop the server by interrupting its thread.
      running.close();
      removeHook(hook);
      Thread.currentThread().interrupt();
    }
    return 0;
  }

  private OpenOptions openOptions() {
    OpenOptions options = storage == StorageChoice.memory ? OpenOptions.inMemory() : OpenOptions.at(data);
    return options.withSync(!noSync);
  }

  private ServerOptions serverOptions() {
    try {
      return ServerOptions.defaults().withBindAddress(bind).withPort(port);
    } catch (IllegalArgumentException invalid) {
      throw new ParameterException(spec.commandLine(), invalid.getMessage());
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
