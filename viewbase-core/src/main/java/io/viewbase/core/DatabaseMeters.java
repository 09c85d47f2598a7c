package io.viewbase.core;

import io.viewbase.api.Meters;
import io.viewbase.api.ViewStatus;
import io.viewbase.storage.spi.StoreMeters;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * What an {@link EmbeddedDatabase} reports to its host's registry ({@link
 * io.viewbase.api.Database#bindMeters}): its store's own series, passed through as {@link
 * StoreMeters}, and the engine's.
 *
 * <pre>
 * series                               | labels       | value
 * -------------------------------------+--------------+---------------------------------------------
 * viewbase.view.backfill.examined      | view         | source items the view's backfill examined
 * viewbase.view.backfill.source.items  | view         | source items when the build started
 * viewbase.view.state                  | view, state  | 1 for the view's state (building, ready,
 *                                      |              |   failed); one row per view
 * viewbase.changefeed.lag.entries      | table        | {@link FeedLag}: entries the slowest read of
 *                                      |              |   the last minute left unread
 * </pre>
 *
 * Every row is computed when scraped from the catalog as it is then: a view created or dropped
 * appears or goes at the next scrape.
 */
final class DatabaseMeters {
  private DatabaseMeters() {}

  static void bind(EmbeddedDatabase db, Meters meters) {
    db.store().bindMeters(storeMeters(meters));
    List<String> view = List.of("view");
    meters.gauges(
        "viewbase.view.backfill.examined",
        "Source items the view's backfill has examined (all of them once ready)",
        view,
        () -> perView(db, s -> s.progress().done()));
    meters.gauges(
        "viewbase.view.backfill.source.items",
        "Source items when the view's build started (an estimate while writes go on)",
        view,
        () -> perView(db, s -> s.progress().total()));
    meters.gauges(
        "viewbase.view.state",
        "1 for each view's state: building, ready or failed",
        List.of("view", "state"),
        () -> states(db));
    meters.gauges(
        "viewbase.changefeed.lag.entries",
        "Entries the slowest change-feed read of the last minute left unread behind the head",
        List.of("table"),
        () -> db.changeFeed().lag.rows(System.nanoTime()));
  }

  private interface Figure {
    double of(ViewStatus status);
  }

  private static Map<List<String>, Double> perView(EmbeddedDatabase db, Figure figure) {
    Map<List<String>, Double> rows = new HashMap<>();
    for (ViewHandle v : db.viewHandles()) {
      rows.put(List.of(v.name()), figure.of(v.status()));
    }
    return rows;
  }

  private static Map<List<String>, Double> states(EmbeddedDatabase db) {
    Map<List<String>, Double> rows = new HashMap<>();
    for (ViewHandle v : db.viewHandles()) {
      rows.put(List.of(v.name(), v.status().state()), 1.0);
    }
    return rows;
  }

  /** The database's meters as its store sees them: the same registry, the storage interface. */
  private static StoreMeters storeMeters(Meters meters) {
    return new StoreMeters() {
      @Override
      public void gauge(String name, String help, DoubleSupplier value, String... tags) {
        meters.gauge(name, help, value, tags);
      }

      @Override
      public void counter(String name, String help, DoubleSupplier total, String... tags) {
        meters.counter(name, help, total, tags);
      }

      @Override
      public Recorder distribution(
          String name, String help, String unit, double[] buckets, String... tags) {
        return meters.distribution(name, help, unit, buckets, tags)::record;
      }
    };
  }
}
