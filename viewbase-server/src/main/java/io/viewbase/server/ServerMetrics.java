package io.viewbase.server;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.viewbase.api.Database;
import io.viewbase.api.Meters;
import io.viewbase.api.Stability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The process's metrics: one Micrometer registry with the Prometheus 1.x client behind it, which
 * every listener of the process reports into (the native API, the Azure Tables and the DynamoDB
 * dialects, each through its own {@link RequestMeters}) and the database its measurements ({@link
 * Database#bindMeters}, as {@link Meters}). Scraped at {@code GET /metrics} on the native API's
 * port only: on the Azure and DynamoDB ports that path is a real request (a table named {@code
 * metrics}, a request the dialect refuses), so they do not answer it.
 *
 * <p>A process that starts several listeners creates one {@code ServerMetrics} and passes it to
 * each start method; a listener started without one makes its own.
 */
@Stability(Stability.Level.INTERNAL)
public final class ServerMetrics {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Map<String, RequestMeters> dialects = new ConcurrentHashMap<>();
  private final List<Runnable> beforeScrape = new CopyOnWriteArrayList<>();
  private final Set<Database> bound = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Meters meters = new RegistryMeters();

  /**
   * The suppliers behind function counters, which Micrometer holds only weakly: kept here for as
   * long as the registry.
   */
  private final List<Object> held = new CopyOnWriteArrayList<>();

  /** The requests of one dialect ({@code native}, {@code azure}, {@code dynamodb}). */
  public RequestMeters requests(String dialect) {
    return dialects.computeIfAbsent(dialect, d -> new RequestMeters(registry, d));
  }

  /** Has {@code db} report its measurements here; once per database, however often asked. */
  public void bind(Database db) {
    synchronized (bound) {
      if (!bound.add(db)) {
        return;
      }
    }
    db.bindMeters(meters);
  }

  /** Every series, in the Prometheus text exposition format 0.0.4. */
  String scrape() {
    for (Runnable refresh : beforeScrape) {
      refresh.run();
    }
    return registry.scrape();
  }

  /** The {@link Meters} a database reports to, on this registry. */
  private final class RegistryMeters implements Meters {
    @Override
    public void gauge(String name, String help, DoubleSupplier value, String... tags) {
      Gauge.builder(name, value, DoubleSupplier::getAsDouble)
          .strongReference(true)
          .description(help)
          .tags(tags)
          .register(registry);
    }

    @Override
    public void counter(String name, String help, DoubleSupplier total, String... tags) {
      held.add(total);
      FunctionCounter.builder(name, total, DoubleSupplier::getAsDouble)
          .description(help)
          .tags(tags)
          .register(registry);
    }

    /**
     * A distribution in seconds is a {@link Timer} (its buckets as durations); any other a {@link
     * DistributionSummary} whose smallest expected value is its first bucket: a summary's default
     * of 1 would leave every bucket below it empty.
     */
    @Override
    public Recorder distribution(
        String name, String help, String unit, double[] buckets, String... tags) {
      if ("seconds".equals(unit)) {
        Duration[] slos = new Duration[buckets.length];
        for (int i = 0; i < buckets.length; i++) {
          slos[i] = Duration.ofNanos(Math.round(buckets[i] * 1e9));
        }
        Timer timer =
            Timer.builder(name)
                .description(help)
                .serviceLevelObjectives(slos)
                .tags(tags)
                .register(registry);
        return seconds -> timer.record(Math.round(seconds * 1e9), TimeUnit.NANOSECONDS);
      }
      DistributionSummary summary =
          DistributionSummary.builder(name)
              .description(help)
              .baseUnit(unit)
              .serviceLevelObjectives(buckets)
              .minimumExpectedValue(buckets[0])
              .tags(tags)
              .register(registry);
      return summary::record;
    }

    @Override
    public void gauges(
        String name, String help, List<String> tagKeys, Supplier<Map<List<String>, Double>> rows) {
      MultiGauge family = MultiGauge.builder(name).description(help).register(registry);
      beforeScrape.add(
          () -> {
            List<MultiGauge.Row<?>> now = new ArrayList<>();
            rows.get()
                .forEach(
                    (values, value) -> {
                      String[] tags = new String[tagKeys.size() * 2];
                      for (int i = 0; i < tagKeys.size(); i++) {
                        tags[2 * i] = tagKeys.get(i);
                        tags[2 * i + 1] = values.get(i);
                      }
                      now.add(MultiGauge.Row.of(Tags.of(tags), value));
                    });
            family.register(now, true);
          });
    }
  }
}
