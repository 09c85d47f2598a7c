package io.viewbase.server.azure;

import io.viewbase.api.Stability;
import io.viewbase.server.ConnectionLimits;
import io.viewbase.server.ListenerOptions;
import io.viewbase.server.TlsSettings;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How an {@link AzureTablesServer} listens and whom it lets in.
 *
 * @param bindAddress the address to listen on (default {@code 127.0.0.1}: local only)
 * @param port the TCP port (default 10002, Azurite's); 0 picks a free one
 * @param accounts account name to base64 key; requests must be signed with one of them (default:
 *     Azurite's {@code devstoreaccount1} and its well-known key)
 * @param anonymousAccess serve requests that carry no signature at all (an explicit opt-in)
 * @param maxRequestBytes the largest request body accepted (default 4 MiB, Azure's batch limit);
 *     larger get 413
 * @param ioThreads event-loop threads that parse HTTP and serve point reads
 * @param workerThreads threads that run writes and queries; durable writes wait for a sync that
 *     group commit shares, so this is sized for concurrency, not for cores
 * @param connections how many connections may be open and how long they may keep the server waiting
 *     (default {@link ConnectionLimits#defaults()}, as the native API's)
 * @param tls the certificate and key to serve https with, and only https (default null: plain
 *     http); see {@link TlsSettings}
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record AzureOptions(
    String bindAddress,
    int port,
    Map<String, String> accounts,
    boolean anonymousAccess,
    int maxRequestBytes,
    int ioThreads,
    int workerThreads,
    ConnectionLimits connections,
    TlsSettings tls)
    implements ListenerOptions.Source {
  public static final int DEFAULT_PORT = 10002;
  public static final String DEV_ACCOUNT = "devstoreaccount1";

  /** Azurite's published development key; {@code UseDevelopmentStorage=true} signs with it. */
  public static final String DEV_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  public static final int DEFAULT_MAX_REQUEST_BYTES = 4 << 20;
  public static final int DEFAULT_WORKER_THREADS = 64;

  public AzureOptions {
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException("bindAddress must name an address, for example 127.0.0.1");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, was " + port);
    }
    if (maxRequestBytes < 1) {
      throw new IllegalArgumentException(
          "maxRequestBytes must be positive, was " + maxRequestBytes);
    }
    if (ioThreads < 1 || workerThreads < 1) {
      throw new IllegalArgumentException("ioThreads and workerThreads must be at least 1");
    }
    if (connections == null) {
      throw new IllegalArgumentException(
          "connections must be given, for example ConnectionLimits.defaults()");
    }
    Map<String, String> copy = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : accounts.entrySet()) {
      copy.put(checkAccountName(e.getKey()), checkKey(e.getKey(), e.getValue()));
    }
    accounts = Collections.unmodifiableMap(copy);
  }

  public static AzureOptions defaults() {
    return new AzureOptions(
        "127.0.0.1",
        DEFAULT_PORT,
        Map.of(DEV_ACCOUNT, DEV_KEY),
        false,
        DEFAULT_MAX_REQUEST_BYTES,
        Math.max(1, Runtime.getRuntime().availableProcessors()),
        DEFAULT_WORKER_THREADS,
        ConnectionLimits.defaults(),
        null);
  }

  public AzureOptions withPort(int newPort) {
    return new AzureOptions(
        bindAddress,
        newPort,
        accounts,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public AzureOptions withBindAddress(String address) {
    return new AzureOptions(
        address,
        port,
        accounts,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  /** Adds an account, or replaces the key of one with this name. */
  public AzureOptions withAccount(String name, String base64Key) {
    Map<String, String> more = new LinkedHashMap<>(accounts);
    more.put(name, base64Key);
    return new AzureOptions(
        bindAddress,
        port,
        more,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  /**
   * The same options with exactly these accounts (the default account is dropped unless listed).
   */
  public AzureOptions withAccounts(Map<String, String> only) {
    return new AzureOptions(
        bindAddress,
        port,
        only,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public AzureOptions withAnonymousAccess(boolean anonymous) {
    return new AzureOptions(
        bindAddress,
        port,
        accounts,
        anonymous,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public AzureOptions withMaxRequestBytes(int bytes) {
    return new AzureOptions(
        bindAddress,
        port,
        accounts,
        anonymousAccess,
        bytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public AzureOptions withIoThreads(int threads) {
    return new AzureOptions(
        bindAddress,
        port,
        accounts,
        anonymousAccess,
        maxRequestBytes,
        threads,
        workerThreads,
        connections,
        tls);
  }

  public AzureOptions withWorkerThreads(int threads) {
    return new AzureOptions(
        bindAddress,
        port,
        accounts,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        threads,
        connections,
        tls);
  }

  public AzureOptions withConnections(ConnectionLimits limits) {
    return new AzureOptions(
        bindAddress,
        port,
        accounts,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        limits,
        tls);
  }

  /** The same options serving https only, with these certificate and key (null: plain http). */
  public AzureOptions withTls(TlsSettings settings) {
    return new AzureOptions(
        bindAddress,
        port,
        accounts,
        anonymousAccess,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        settings);
  }

  private static String checkAccountName(String name) {
    if (name == null || !name.matches("[a-z0-9]{3,24}")) {
      throw new IllegalArgumentException(
          "An account name has 3 to 24 lower-case letters or digits, as on Azure; was " + name);
    }
    return name;
  }

  private static String checkKey(String account, String key) {
    try {
      if (key == null || Base64.getDecoder().decode(key).length == 0) {
        throw new IllegalArgumentException("empty");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "The key of account " + account + " must be base64 (as Azure shows it)");
    }
    return key;
  }
}
