package io.viewbase.cassandra.it;

import io.viewbase.api.Database;
import io.viewbase.api.ViewStatus;
import io.viewbase.client.RemoteDatabase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.net.URI;
import java.util.Map;

/**
 * Two Viewbase servers over one Cassandra table of the shared node, as two machines would run them:
 * each opens its own database (with its own driver session) behind its own HTTP server on port 0,
 * and tests reach them only through {@link RemoteDatabase} clients.
 */
final class TwoServers implements AutoCloseable {
  private final Database[] databases = new Database[2];
  private final ViewbaseServer[] servers = new ViewbaseServer[2];
  private final RemoteDatabase[] clients = new RemoteDatabase[2];

  TwoServers(String table) {
    try {
      for (int i = 0; i < 2; i++) {
        // A different request timeout gives each database its own driver session, as on two
        // machines
        // (the backend shares one session between stores opened with identical options).
        databases[i] =
            SharedCassandra.open(table, Map.of("cassandra.requestTimeout", (10 + i) + "s"));
        servers[i] =
            ViewbaseServer.start(
                databases[i], ServerOptions.defaults().withBindAddress("127.0.0.1").withPort(0));
        clients[i] = RemoteDatabase.connect(URI.create("http://127.0.0.1:" + servers[i].port()));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The client of server 0 (A) or 1 (B). */
  RemoteDatabase client(int server) {
    return clients[server];
  }

  /**
   * Waits until both servers report the view ready (the other one learns of it by its catalog
   * refresh).
   */
  void awaitReadyOnBoth(String view) throws InterruptedException {
    long deadline = System.nanoTime() + 120_000_000_000L;
    for (RemoteDatabase client : clients) {
      while (!ViewStatus.READY.equals(client.viewStatus(view).state())) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "view "
                  + view
                  + " not ready on both servers after 120 s: "
                  + client.viewStatus(view));
        }
        Thread.sleep(50);
      }
    }
  }

  @Override
  public void close() {
    for (int i = 0; i < 2; i++) {
      if (clients[i] != null) {
        clients[i].close();
      }
      if (servers[i] != null) {
        servers[i].close();
      }
      if (databases[i] != null) {
        databases[i].close();
      }
    }
  }
}
