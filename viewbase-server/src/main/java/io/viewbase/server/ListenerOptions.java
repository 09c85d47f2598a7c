package io.viewbase.server;

import io.viewbase.api.Stability;

/**
 * How one {@link HttpListener} listens: what each server's options say, in the one shape the
 * listener takes.
 *
 * @param name names the threads ({@code <name>-io}, {@code <name>-worker}) and the log lines
 * @param bindAddress the address to listen on
 * @param port the TCP port; 0 picks a free one
 * @param ioThreads event-loop threads
 * @param workerThreads threads for blocking work
 * @param maxRequestBytes the largest request body accepted
 * @param connections how many connections may be open and how long they may wait on their clients
 * @param tls the certificate and key to speak https only with, or null for plain http only
 */
@Stability(Stability.Level.INTERNAL)
public record ListenerOptions(
    String name,
    String bindAddress,
    int port,
    int ioThreads,
    int workerThreads,
    int maxRequestBytes,
    ConnectionLimits connections,
    TlsSettings tls) {

  /**
   * What a server's options say about how it listens: the native API's, the Azure dialect's and the
   * DynamoDB dialect's options alike.
   */
  public interface Source {
    String bindAddress();

    int port();

    int ioThreads();

    int workerThreads();

    int maxRequestBytes();

    ConnectionLimits connections();

    TlsSettings tls();
  }

  /** A listener named {@code name} (its threads and log lines) as {@code options} say. */
  public static ListenerOptions of(String name, Source options) {
    return new ListenerOptions(
        name,
        options.bindAddress(),
        options.port(),
        options.ioThreads(),
        options.workerThreads(),
        options.maxRequestBytes(),
        options.connections(),
        options.tls());
  }
}
