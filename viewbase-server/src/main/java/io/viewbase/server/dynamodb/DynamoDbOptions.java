package io.viewbase.server.dynamodb;

import io.viewbase.api.Stability;
import io.viewbase.server.ConnectionLimits;
import io.viewbase.server.ListenerOptions;
import io.viewbase.server.TlsSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a {@link DynamoDbServer} listens and whom it lets in.
 *
 * @param bindAddress the address to listen on (default {@code 127.0.0.1}: local only)
 * @param port the TCP port (default 8000, DynamoDB Local's); 0 picks a free one
 * @param keys access key id to secret access key; requests must be signed (SigV4) with one of them
 *     (default: {@link #LOCAL_KEY_ID} and {@link #LOCAL_SECRET}, the pair AWS's DynamoDB Local
 *     documentation uses, which is public)
 * @param anyKey accept any well-formed signed request, whatever its key and signature, as DynamoDB
 *     Local does (an explicit opt-in)
 * @param account the account id in ARNs ({@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME}): 12
 *     digits, default {@code 000000000000}
 * @param maxRequestBytes the largest request body accepted (default 16 MiB, DynamoDB's); larger get
 *     413
 * @param ioThreads event-loop threads that parse HTTP
 * @param workerThreads threads that serve operations; durable writes wait for a sync that group
 *     commit shares, so this is sized for concurrency, not for cores
 * @param connections how many connections may be open and how long they may keep the server waiting
 *     (default {@link ConnectionLimits#defaults()}, as the native API's)
 * @param tls the certificate and key to serve https with, and only https (default null: plain
 *     http); see {@link TlsSettings}
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record DynamoDbOptions(
    String bindAddress,
    int port,
    Map<String, String> keys,
    boolean anyKey,
    String account,
    int maxRequestBytes,
    int ioThreads,
    int workerThreads,
    ConnectionLimits connections,
    TlsSettings tls)
    implements ListenerOptions.Source {
  public static final int DEFAULT_PORT = 8000;

  /** The default access key id, from AWS's DynamoDB Local guide; public. */
  public static final String LOCAL_KEY_ID = "fakeMyKeyId";

  /** The default secret access key, from AWS's DynamoDB Local guide; public. */
  public static final String LOCAL_SECRET = "fakeSecretAccessKey";

  public static final String DEFAULT_ACCOUNT = "000000000000";
  public static final int DEFAULT_MAX_REQUEST_BYTES = 16 << 20;
  public static final int DEFAULT_WORKER_THREADS = 64;

  public DynamoDbOptions {
    if (bindAddress == null || bindAddress.isBlank()) {
      throw new IllegalArgumentException("bindAddress must name an address, for example 127.0.0.1");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, was " + port);
    }
    if (account == null || !account.matches("[0-9]{12}")) {
      throw new IllegalArgumentException(
          "An account id has 12 digits, as on AWS (for example 000000000000); was " + account);
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
    for (Map.Entry<String, String> e : keys.entrySet()) {
      copy.put(checkKeyId(e.getKey()), checkSecret(e.getKey(), e.getValue()));
    }
    keys = Collections.unmodifiableMap(copy);
  }

  public static DynamoDbOptions defaults() {
    return new DynamoDbOptions(
        "127.0.0.1",
        DEFAULT_PORT,
        Map.of(LOCAL_KEY_ID, LOCAL_SECRET),
        false,
        DEFAULT_ACCOUNT,
        DEFAULT_MAX_REQUEST_BYTES,
        Math.max(1, Runtime.getRuntime().availableProcessors()),
        DEFAULT_WORKER_THREADS,
        ConnectionLimits.defaults(),
        null);
  }

  public DynamoDbOptions withPort(int newPort) {
    return new DynamoDbOptions(
        bindAddress,
        newPort,
        keys,
        anyKey,
        account,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public DynamoDbOptions withBindAddress(String address) {
    return new DynamoDbOptions(
        address,
        port,
        keys,
        anyKey,
        account,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  /** The same options with exactly these keys (the default pair is dropped unless listed). */
  public DynamoDbOptions withKeys(Map<String, String> only) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        only,
        anyKey,
        account,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public DynamoDbOptions withAnyKey(boolean any) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        any,
        account,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public DynamoDbOptions withAccount(String id) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        anyKey,
        id,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public DynamoDbOptions withMaxRequestBytes(int bytes) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        anyKey,
        account,
        bytes,
        ioThreads,
        workerThreads,
        connections,
        tls);
  }

  public DynamoDbOptions withIoThreads(int threads) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        anyKey,
        account,
        maxRequestBytes,
        threads,
        workerThreads,
        connections,
        tls);
  }

  public DynamoDbOptions withWorkerThreads(int threads) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        anyKey,
        account,
        maxRequestBytes,
        ioThreads,
        threads,
        connections,
        tls);
  }

  public DynamoDbOptions withConnections(ConnectionLimits limits) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        anyKey,
        account,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        limits,
        tls);
  }

  /** The same options serving https only, with these certificate and key (null: plain http). */
  public DynamoDbOptions withTls(TlsSettings settings) {
    return new DynamoDbOptions(
        bindAddress,
        port,
        keys,
        anyKey,
        account,
        maxRequestBytes,
        ioThreads,
        workerThreads,
        connections,
        settings);
  }

  /** An access key id: letters and digits, as DynamoDB Local requires since its version 2. */
  private static String checkKeyId(String id) {
    if (id == null || !id.matches("[A-Za-z0-9]{1,128}")) {
      throw new IllegalArgumentException(
          "An access key id has 1 to 128 letters or digits; was " + id);
    }
    return id;
  }

  /** A secret: not empty, no whitespace or control characters; never shown in the error. */
  private static String checkSecret(String id, String secret) {
    if (secret == null || secret.isEmpty() || !secret.matches("\\p{Graph}+")) {
      throw new IllegalArgumentException(
          "The secret access key of " + id + " must be printable text without spaces");
    }
    return secret;
  }
}
