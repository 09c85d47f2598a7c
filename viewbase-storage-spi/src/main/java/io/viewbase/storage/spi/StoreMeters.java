package io.viewbase.storage.spi;

import java.util.function.DoubleSupplier;

/**
 * Where a store reports what it measures ({@link Store#bindMeters}): the storage twin of {@code
 * io.viewbase.api.Meters}, which the database passes its store through to, so that a backend needs
 * neither the API nor a metrics library. Names are dotted and lower case ({@code
 * viewbase.rocksdb.memtable.bytes}); tags are name, value pairs of bounded values.
 *
 * <pre>
 * call          | what it is                              | read
 * --------------+-----------------------------------------+-----------------------------
 * gauge         | a value that goes up and down           | when scraped (the supplier)
 * counter       | a total that only grows                 | when scraped (the supplier)
 * distribution  | values recorded as they happen          | a histogram, buckets given
 * </pre>
 */
public interface StoreMeters {
  void gauge(String name, String help, DoubleSupplier value, String... tags);

  void counter(String name, String help, DoubleSupplier total, String... tags);

  /**
   * A histogram of recorded values; {@code unit} is "seconds", "bytes" or null for a count, {@code
   * buckets} the ascending upper bounds in that unit.
   */
  Recorder distribution(String name, String help, String unit, double[] buckets, String... tags);

  /** Records one value of a {@link #distribution}; cheap and thread-safe. */
  @FunctionalInterface
  interface Recorder {
    /** Records nothing: what a store holds until it is bound. */
    Recorder NONE = value -> {};

    void record(double value);
  }
}
