package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewbaseException;
import io.viewbase.client.RemoteDatabase;
import io.viewbase.client.TrustedCertificates;
import java.net.ConnectException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Where a data command runs: against a running server (the default, {@code --server URL}) or
 * directly on a data directory ({@code --data DIR}), which only works while no server holds it.
 *
 * <pre>
 * options              | database
 * ---------------------+---------------------------------------------------------------
 * (none)               | the server at $VIEWBASE_SERVER, else http://127.0.0.1:8080
 * --server URL         | the server at URL
 * --data DIR           | the RocksDB database in DIR, opened in this process (DIR must exist)
 * --server and --data  | usage error
 * --ca-cert FILE       | an https server's certificate is checked against FILE's certificates
 *                      |   (default $VIEWBASE_CA_CERT), not the JDK's trust store
 * </pre>
 *
 * Requests to a server carry the API key of {@code --key}, else of {@code $VIEWBASE_KEY} (the
 * environment keeps it out of the process list), else none. A data directory needs none: whoever
 * can open it owns the data; {@code --key} with {@code --data} is a usage error.
 */
final class DatabaseTarget {
  static final String DEFAULT_SERVER = "http://127.0.0.1:8080";

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--server",
      paramLabel = "URL",
      description =
          "A running Viewbase server (default: $VIEWBASE_SERVER or " + DEFAULT_SERVER + ").")
  URI server;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "Open this data directory directly instead of talking to a server; "
              + "only while no server holds it.")
  Path data;

  @Option(
      names = "--ca-cert",
      paramLabel = "FILE",
      description =
          "Trust the https server whose certificate, or whose CA's, is in this PEM file, instead of "
              + "the JDK's trust store (default: $VIEWBASE_CA_CERT).")
  Path caCertificate;

  @Option(
      names = "--key",
      paramLabel = "KEY",
      description =
          "The API key (vb_...) to send to the server (default: $VIEWBASE_KEY, which keeps it out"
              + " of the process list).")
  String key;

  Database open() {
    if (server != null && data != null) {
      throw new ParameterException(
          spec.commandLine(), "--server and --data are alternatives: give one of them");
    }
    if (key != null && data != null) {
      throw new ParameterException(
          spec.commandLine(), "--key is for a server; --data opens the directory directly");
    }
    return data != null
        ? openDirectory(data)
        : RemoteDatabase.connect(serverUri(), RemoteDatabase.DEFAULT_TIMEOUT, trust(), apiKey());
  }

  /** The key of {@code --key}, else of {@code $VIEWBASE_KEY}, else null. */
  String apiKey() {
    if (key != null) {
      return key;
    }
    String fromEnvironment = System.getenv("VIEWBASE_KEY");
    return fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.trim();
  }

  /**
   * What an https server's certificate is checked against: --ca-cert's file, or the JDK's store.
   */
  SSLContext trust() {
    Path file = caCertificate;
    String fromEnvironment = System.getenv("VIEWBASE_CA_CERT");
    if (file == null && fromEnvironment != null && !fromEnvironment.isBlank()) {
      file = Path.of(fromEnvironment);
    }
    try {
      return file == null ? null : TrustedCertificates.fromPem(file);
    } catch (IllegalArgumentException refused) {
      throw new ParameterException(spec.commandLine(), "--ca-cert: " + refused.getMessage());
    }
  }

  /**
   * Rewrites the failures whose cause the user can fix with a better message: a server that is not
   * running, a certificate not trusted, and a data directory that a server holds.
   */
  RuntimeException explain(RuntimeException failure) {
    if (data == null && causedBy(failure, ConnectException.class)) {
      return new ViewbaseException(
          ErrorCode.StorageUnreachable,
          "No Viewbase server answers at "
              + serverUri()
              + "; start one with 'viewbase serve', or open a data directory with --data DIR");
    }
    if (data == null && causedBy(failure, SSLHandshakeException.class)) {
      return new ViewbaseException(
          ErrorCode.StorageUnreachable,
          "The TLS handshake with "
              + serverUri()
              + " failed; if its certificate is self-signed or from a private CA, trust it with "
              + "--ca-cert FILE (or VIEWBASE_CA_CERT), and if it serves plain http, use http://");
    }
    return failure;
  }

  URI serverUri() {
    if (server != null) {
      return server;
    }
    String fromEnvironment = System.getenv("VIEWBASE_SERVER");
    return URI.create(
        fromEnvironment == null || fromEnvironment.isBlank() ? DEFAULT_SERVER : fromEnvironment);
  }

  private static Database openDirectory(Path dir) {
    if (!Files.isDirectory(dir)) {
      // Opening would create an empty database: a typo in DIR must not silently do that.
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "Data directory does not exist; create it (mkdir) to start a new database",
          "data",
          dir);
    }
    return DataDirectory.open(OpenOptions.at(dir));
  }

  private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
