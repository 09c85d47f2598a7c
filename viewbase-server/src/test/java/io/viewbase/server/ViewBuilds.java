package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ViewStatus;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Waiting for a view's backfill, the one way the server's tests (and the Cassandra module that
 * reruns them) do it: until the view is no longer building, within a bound a loaded 2-core machine
 * running a Cassandra node as well never reaches, polling gently so the backfill has the CPU.
 */
public final class ViewBuilds {
  /** Far beyond any backfill the tests start; reached only by a build that never ends. */
  private static final long BOUND_SECONDS = 120;

  private ViewBuilds() {}

  /** The view's status once its backfill has ended, ready or failed. */
  public static ViewStatus awaitBuilt(Database db, String view) {
    return awaitBuilt(view, () -> db.viewStatus(view));
  }

  /**
   * The same, the status read by {@code status}: for a test that asks over a protocol, as its
   * client would.
   */
  public static ViewStatus awaitBuilt(String view, Supplier<ViewStatus> status) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
    while (true) {
      ViewStatus current = status.get();
      if (!ViewStatus.BUILDING.equals(current.state())) {
        return current;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "view " + view + " still building after " + BOUND_SECONDS + " s: " + current);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for view " + view, e);
      }
    }
  }

  /** Waits for the view's backfill and fails unless it made the view ready. */
  public static ViewStatus awaitReady(Database db, String view) {
    ViewStatus status = awaitBuilt(db, view);
    assertThat(status.state()).as("view %s: %s", view, status).isEqualTo(ViewStatus.READY);
    return status;
  }
}
