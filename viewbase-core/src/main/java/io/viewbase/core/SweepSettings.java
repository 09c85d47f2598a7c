package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the time-to-live sweeper runs: at most {@code maxDeletesPerSecond} expired items removed per
 * second over all tables, and each swept table walked again {@code interval} after its last sweep
 * ended. Given as engine options beside the backend's ({@code OpenOptions.withOptions}): {@code
 * sweep.maxDeletesPerSecond} (1 to 1,000,000; default {@value #DEFAULT_RATE}) and {@code
 * sweep.intervalSeconds} (1 to 86,400; default {@value #DEFAULT_INTERVAL_SECONDS}); the engine
 * takes them out before the backend sees the rest.
 */
record SweepSettings(int maxDeletesPerSecond, Duration interval) {
  static final String RATE = "sweep.maxDeletesPerSecond";
  static final String INTERVAL = "sweep.intervalSeconds";
  static final int DEFAULT_RATE = 1000;
  static final int DEFAULT_INTERVAL_SECONDS = 10;

  static final SweepSettings DEFAULT =
      new SweepSettings(DEFAULT_RATE, Duration.ofSeconds(DEFAULT_INTERVAL_SECONDS));

  /** The sweeper's settings among the options. */
  static SweepSettings of(Map<String, String> options) {
    return new SweepSettings(
        number(options, RATE, DEFAULT_RATE, 1_000_000),
        Duration.ofSeconds(number(options, INTERVAL, DEFAULT_INTERVAL_SECONDS, 86_400)));
  }

  /** The options without the sweeper's: what the backend gets. */
  static Map<String, String> backendOptions(Map<String, String> options) {
    Map<String, String> rest = new LinkedHashMap<>(options);
    rest.remove(RATE);
    rest.remove(INTERVAL);
    return rest;
  }

  private static int number(Map<String, String> options, String name, int fallback, int max) {
    String text = options.get(name);
    if (text == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw ViewbaseException.of(
        ErrorCode.InvalidInput,
        "The option " + name + " is a whole number from 1 to " + max,
        "option",
        name,
        "value",
        text);
  }
}
