package io.viewbase.cli;

import io.viewbase.api.Database;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Started servers (the native API, the Azure dialect) and the database under them, closed once, in
 * that order: every server first, so no request is still writing when the database closes and
 * flushes. Called from the shutdown hook (SIGTERM, Ctrl-C) or from the thread that runs {@code
 * serve} when it is interrupted.
 */
final class RunningServer {
  private static final Logger log = LoggerFactory.getLogger(RunningServer.class);

  private final List<AutoCloseable> servers;
  private final Database db;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closed = new CountDownLatch(1);

  RunningServer(List<AutoCloseable> servers, Database db) {
    this.servers = List.copyOf(servers);
    this.db = db;
  }

  void awaitClosed() throws InterruptedException {
    closed.await();
  }

  void close() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    try {
      log.info("Stopping the server");
      for (AutoCloseable server : servers) {
        try {
          server.close();
        } catch (Exception failure) {
          log.warn("Stopping {} failed; going on", server, failure);
        }
      }
    } finally {
      try {
        db.close();
        log.info("Database closed");
      } finally {
        closed.countDown();
      }
    }
  }
}
