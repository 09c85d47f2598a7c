package io.viewbase.server.azure;

import java.util.List;

/**
 * The Table service's properties (Get/Set Table Service Properties): analytics logging, hour and
 * minute metrics, and the CORS rules. Viewbase keeps all of them and acts on the CORS rules;
 * logging and metrics are stored and given back, nothing is logged or measured.
 *
 * <p>In a Set request a null part was left out, and keeps its stored value ({@link #over}); a
 * stored or default document has every part.
 *
 * @param logging the {@code Logging} element
 * @param hourMetrics the {@code HourMetrics} element
 * @param minuteMetrics the {@code MinuteMetrics} element
 * @param cors the {@code Cors} element's rules, in order (empty: CORS is off)
 */
record StorageServiceProperties(
    Logging logging, Metrics hourMetrics, Metrics minuteMetrics, List<CorsRule> cors) {

  /** What Azure answers before any Set: everything off. */
  static final StorageServiceProperties DEFAULTS =
      new StorageServiceProperties(
          new Logging("1.0", false, false, false, RetentionPolicy.OFF),
          new Metrics("1.0", false, null, RetentionPolicy.OFF),
          new Metrics("1.0", false, null, RetentionPolicy.OFF),
          List.of());

  StorageServiceProperties {
    cors = cors == null ? null : List.copyOf(cors);
  }

  /** This Set request's parts, with the stored value for each part it left out. */
  StorageServiceProperties over(StorageServiceProperties stored) {
    return new StorageServiceProperties(
        logging != null ? logging : stored.logging,
        hourMetrics != null ? hourMetrics : stored.hourMetrics,
        minuteMetrics != null ? minuteMetrics : stored.minuteMetrics,
        cors != null ? cors : stored.cors);
  }

  /** How long analytics data is kept: {@code days} (1 to 365) when enabled, else null. */
  record RetentionPolicy(boolean enabled, Integer days) {
    static final RetentionPolicy OFF = new RetentionPolicy(false, null);
  }

  record Logging(
      String version,
      boolean delete,
      boolean read,
      boolean write,
      RetentionPolicy retentionPolicy) {}

  /** {@code includeApis} is null when metrics are off (Azure then neither needs nor returns it). */
  record Metrics(
      String version, boolean enabled, Boolean includeApis, RetentionPolicy retentionPolicy) {}
}
