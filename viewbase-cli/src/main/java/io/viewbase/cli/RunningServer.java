package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.server.ViewbaseServer;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started server and the database under it, closed once, in that order: the server first, so
 * no request is still writing when the database closes and flushes. Called from the shutdown
 * hook (SIGTERM, Ctrl-C) or from the thread that runs {@code serve} when it is interrupted.
 */
final class RunningServer {
  private static final Logger log = LoggerFactory.getLogger(RunningServer.class);

  private final ViewbaseServer server;
  private final Database db;
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closed = new CountDownLatch(1);

  RunningServer(ViewbaseServer server, Database db) {
    this.server = server;
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
      server.close();
    } catch (RuntimeException failure) {
      log.warn("Stopping the server failed; closing the database anyway", failure);
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
