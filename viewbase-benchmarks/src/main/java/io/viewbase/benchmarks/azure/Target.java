package io.viewbase.benchmarks.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.util.HttpClientOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import java.time.Duration;

/**
 * A server the workload runs against: its name in the results, its Azure Tables endpoint
 * (path-style, {@code http://127.0.0.1:<port>/devstoreaccount1}) and its process, whose CPU time
 * each phase charges to the operations it served.
 */
record Target(String name, String endpoint, ProcessCpu cpu) {
  static final String ACCOUNT = "devstoreaccount1";

  /** Azurite's well-known development key; Viewbase's Azure dialect accepts it by default. */
  static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /**
   * Parses {@code NAME=ENDPOINT@PID}, e.g. {@code
   * viewbase=http://127.0.0.1:10103/devstoreaccount1@4242}.
   */
  static Target parse(String spec, long ticksPerSecond) {
    int eq = spec.indexOf('=');
    int at = spec.lastIndexOf('@');
    if (eq <= 0 || at < eq) {
      throw new IllegalArgumentException("--target takes NAME=ENDPOINT@PID, was " + spec);
    }
    return new Target(
        spec.substring(0, eq),
        spec.substring(eq + 1, at),
        new ProcessCpu(Long.parseLong(spec.substring(at + 1)), ticksPerSecond));
  }

  /**
   * A service client that fails fast: no retries (a retried request would be counted once but
   * served twice), and a response timeout long enough for a full-table scan under load.
   */
  TableServiceClient serviceClient(HttpClient http) {
    return new TableServiceClientBuilder()
        .connectionString(
            "DefaultEndpointsProtocol=http;AccountName="
                + ACCOUNT
                + ";AccountKey="
                + KEY
                + ";TableEndpoint="
                + endpoint
                + ";")
        .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0)))
        .httpClient(http)
        .buildClient();
  }

  /** One HTTP client (JDK transport) per target: its connections stay with that server. */
  static HttpClient httpClient() {
    return HttpClient.createDefault(
        new HttpClientOptions()
            .setConnectTimeout(Duration.ofSeconds(2))
            .setResponseTimeout(Duration.ofSeconds(120)));
  }
}
