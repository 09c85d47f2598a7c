package io.viewbase.benchmarks.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.util.HttpClientOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import io.viewbase.benchmarks.sidebyside.Target;
import java.time.Duration;

/**
 * How the workload's Azure SDK clients reach a target: its path-style endpoint ({@code
 * http://127.0.0.1:<port>/devstoreaccount1}) under the development account's well-known key.
 */
final class TableClients {
  static final String ACCOUNT = "devstoreaccount1";

  /** Azurite's well-known development key; Viewbase's Azure dialect accepts it by default. */
  static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private TableClients() {}

  /**
   * A service client that fails fast: no retries (a retried request would be counted once but
   * served twice), and a response timeout long enough for a full-table scan under load.
   */
  static TableServiceClient serviceClient(Target target, HttpClient http) {
    return new TableServiceClientBuilder()
        .connectionString(
            "DefaultEndpointsProtocol=http;AccountName="
                + ACCOUNT
                + ";AccountKey="
                + KEY
                + ";TableEndpoint="
                + target.endpoint()
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
