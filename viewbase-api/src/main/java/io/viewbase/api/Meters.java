package io.viewbase.api;

import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * Where a database reports what it measures, to a metrics registry its host owns (the server's
 * Micrometer registry): {@link Database#bindMeters}. The database names its series and says what
 * they mean; the host decides how they are kept and exposed. This keeps the metrics library out of
 * the API, the core and the backends: they see only this interface (backends its storage twin,
 * {@code io.viewbase.storage.spi.StoreMeters}, which core passes through).
 *
 * <pre>
 * call          | what it is                         | read
 * --------------+------------------------------------+---------------------------------------
 * gauge         | a value that goes up and down      | when scraped (the supplier)
 * counter       | a total that only grows            | when scraped (the supplier)
 * distribution  | values recorded as they happen,    | recorded by the caller; kept as a
 *               |   kept as a histogram              |   histogram with the given buckets
 * gauges        | a family of gauges whose label     | when scraped: the supplier gives every
 *               |   values come and go (per view)    |   row that exists then, and only those
 * </pre>
 *
 * Names are dotted and lower case ({@code viewbase.rocksdb.memtable.bytes}); tags are name, value
 * pairs. A label's values must be bounded (a table or view name at most, never a key).
 */
@Stability(Stability.Level.INTERNAL)
public interface Meters {
  /** Binds nothing: the default for a database whose host keeps no metrics. */
  Meters NONE =
      new Meters() {
        @Override
        public void gauge(String name, String help, DoubleSupplier value, String... tags) {}

        @Override
        public void counter(String name, String help, DoubleSupplier total, String... tags) {}

        @Override
        public Recorder distribution(
            String name, String help, String unit, double[] buckets, String... tags) {
          return value -> {};
        }

        @Override
        public void gauges(
            String name,
            String help,
            List<String> tagKeys,
            Supplier<Map<List<String>, Double>> rows) {}
      };

  void gauge(String name, String help, DoubleSupplier value, String... tags);

  void counter(String name, String help, DoubleSupplier total, String... tags);

  /**
   * A histogram of recorded values. {@code unit} is the base unit ("seconds", "bytes", or null for
   * a plain count); {@code buckets} are the upper bounds, in that unit, ascending.
   */
  Recorder distribution(String name, String help, String unit, double[] buckets, String... tags);

  /**
   * Gauges labelled by {@code tagKeys}, one per row the supplier returns when scraped: each row's
   * key is its label values, in the order of {@code tagKeys}.
   */
  void gauges(
      String name, String help, List<String> tagKeys, Supplier<Map<List<String>, Double>> rows);

  /** Records one value of a {@link #distribution}; cheap and thread-safe. */
  @FunctionalInterface
  interface Recorder {
    void record(double value);
  }
}
