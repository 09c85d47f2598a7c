package io.viewbase.benchmarks.dynamodb;

import io.viewbase.benchmarks.sidebyside.Target;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * How the workload's AWS SDK clients reach a target: its endpoint, any region, and the key pair of
 * DynamoDB Local's guide, which Viewbase's dialect accepts by default (dynalite checks no
 * signature: it is spared the HMACs Viewbase computes to verify every request).
 */
final class DynamoDbClients {
  /** More connections than the most clients a phase runs, so that none waits for one. */
  private static final int MAX_CONNECTIONS = 64;

  private DynamoDbClients() {}

  /** The SDK's synchronous HTTP transports the driver can use ({@code --http-client}). */
  enum Transport {
    /** Apache HttpClient 5 with a pool of connections: the SDK's default synchronous client. */
    APACHE5,
    /** The JDK's {@code HttpURLConnection}, which keeps {@code http.maxConnections} idle ones. */
    URL_CONNECTION;

    static Transport parse(String name) {
      return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
  }

  /**
   * A client that fails fast: no retries (a retried request would be counted once but served
   * twice), and a call timeout long enough for anything this workload asks under load.
   */
  static DynamoDbClient client(Target target, Transport transport) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create(target.endpoint()))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET)))
        .httpClient(http(transport))
        .overrideConfiguration(
            c ->
                c.retryStrategy(AwsRetryStrategy.doNotRetry())
                    .apiCallTimeout(Duration.ofSeconds(120)))
        .build();
  }

  private static SdkHttpClient http(Transport transport) {
    return switch (transport) {
      case APACHE5 ->
          Apache5HttpClient.builder()
              .maxConnections(MAX_CONNECTIONS)
              .connectionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(120))
              .build();
      case URL_CONNECTION ->
          UrlConnectionHttpClient.builder()
              .connectionTimeout(Duration.ofSeconds(2))
              .socketTimeout(Duration.ofSeconds(120))
              .build();
    };
  }
}
