package io.viewbase.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Viewbase;
import io.viewbase.server.DelegatingDatabase;
import io.viewbase.server.ServerMetrics;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import io.viewbase.server.dynamodb.DynamoDbServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Never a secret in a log line: requests that carry every kind of secret the server sees (an Azure
 * account key's SharedKey signature in Authorization, a SAS signature in the query string, a SigV4
 * signature made with a secret key, a bearer token) meet a database fault, so that each dialect
 * logs the failure with its request; the captured log holds the failures and none of the secrets.
 *
 * <p>The fault is a stand-in (a database whose table list fails): no real database fails on demand,
 * and a failure is what makes the server log a request.
 */
class NoSecretsInLogsTest {
  private static final String AZURE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  private static final String BEARER = "native-api-key-5f1c9e";

  /** A real database whose table list fails once {@link #failing}, as a disk error would. */
  private static final class FailingList extends DelegatingDatabase {
    volatile boolean failing;

    FailingList(Database real) {
      super(real);
    }

    @Override
    public List<TableInfo> listTables() {
      if (failing) {
        throw new IllegalStateException("the table list failed (a test's fault)");
      }
      return real.listTables();
    }
  }

  @Test
  void requestsCarryingSecretsAreLoggedWithoutThemWhenTheyFail() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream stderr = System.err;
    String sas;
    try (Database real = Viewbase.open(OpenOptions.inMemory())) {
      FailingList db = new FailingList(real);
      ServerMetrics metrics = new ServerMetrics();
      try (ViewbaseServer nativeServer =
              ViewbaseServer.start(db, ServerOptions.defaults().withPort(0), metrics);
          AzureTablesServer azureServer =
              AzureTablesServer.start(db, AzureOptions.defaults().withPort(0), metrics);
          DynamoDbServer dynamoServer =
              DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0), metrics)) {
        TableServiceClient azure = azure(azureServer.port());
        sas =
            azure.generateAccountSas(
                new TableAccountSasSignatureValues(
                    OffsetDateTime.now().plusHours(1),
                    TableAccountSasPermission.parse("rl"),
                    new TableAccountSasService().setTableAccess(true),
                    new TableAccountSasResourceType().setService(true).setContainer(true)));
        HttpClient http = HttpClient.newHttpClient();
        db.failing = true;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
          // Azure, SharedKey: the Authorization header is the key's signature
          try {
            azure.listTables().stream().toList();
          } catch (RuntimeException expected500) {
            // the fault's answer
          }
          // Azure, SAS: the signature is in the query string
          HttpResponse<String> bySas =
              http.send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + azureServer.port()
                                  + "/devstoreaccount1/Tables?"
                                  + sas))
                      .header("Accept", "application/json;odata=nometadata")
                      .header("x-ms-version", "2019-02-02")
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          assertThat(bySas.statusCode()).as(bySas.body()).isEqualTo(500);
          // DynamoDB, SigV4 with the secret key
          try (DynamoDbClient dynamo = dynamoDb(dynamoServer.port())) {
            dynamo.listTables();
          } catch (DynamoDbException expected500) {
            assertThat(expected500.statusCode()).isEqualTo(500);
          }
          // the native API with a bearer token
          HttpResponse<String> bearer =
              http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + nativeServer.port() + "/v1/tables"))
                      .header("Authorization", "Bearer " + BEARER)
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
          assertThat(bearer.statusCode()).isEqualTo(500);
        } finally {
          System.setErr(stderr);
        }
      }
    }
    String log = captured.toString(StandardCharsets.UTF_8);
    String signature = URLDecoder.decode(sasParameter(sas, "sig"), StandardCharsets.UTF_8);
    // no secret (a SAS signature was in the log lines' query strings before they gave the path
    // only)
    assertThat(log)
        .doesNotContain(AZURE_KEY)
        .doesNotContain(signature)
        .doesNotContain(sasParameter(sas, "sig"))
        .doesNotContain("sig=")
        .doesNotContain("SharedKey")
        .doesNotContain(DynamoDbOptions.LOCAL_SECRET)
        .doesNotContain("Signature=")
        .doesNotContain(BEARER);
    // and the failures were logged, with their requests
    assertThat(log)
        .contains("Azure request GET /devstoreaccount1/Tables failed unexpectedly")
        .contains("DynamoDB request")
        .contains("Unexpected failure serving GET /v1/tables");
  }

  private static String sasParameter(String sas, String name) {
    for (String pair : sas.split("&")) {
      if (pair.startsWith(name + "=")) {
        return pair.substring(name.length() + 1);
      }
    }
    throw new AssertionError("no " + name + " in " + sas);
  }

  private static TableServiceClient azure(int port) {
    return new TableServiceClientBuilder()
        .endpoint("http://127.0.0.1:" + port + "/devstoreaccount1")
        .credential(new AzureNamedKeyCredential("devstoreaccount1", AZURE_KEY))
        .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
        .buildClient();
  }

  private static DynamoDbClient dynamoDb(int port) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET)))
        .httpClient(UrlConnectionHttpClient.create())
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }
}
