package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.server.TestCertificates.Pair;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import io.viewbase.server.dynamodb.DynamoDbOptions;
import io.viewbase.server.dynamodb.DynamoDbServer;
import io.viewbase.server.js.ChildRun;
import io.viewbase.server.js.NodeRuntime;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The official SDKs over https: the Java and JavaScript Azure Tables SDKs against the Azure dialect
 * and the AWS SDK against the DynamoDB dialect, on one RocksDB database, both listeners sharing one
 * {@link TlsSettings} made from a certificate generated here. Each client trusts that certificate
 * the way its users would: an SSLContext (Java), {@code NODE_EXTRA_CA_CERTS} (Node), trust managers
 * (AWS).
 */
class HttpsSdkTest {
  private static final String ACCOUNT = AzureOptions.DEV_ACCOUNT;
  private static final String KEY = AzureOptions.DEV_KEY;

  private static Path dir;
  private static Pair pair;
  private static Database db;
  private static AzureTablesServer azure;
  private static DynamoDbServer dynamoDb;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("viewbase-https-sdk");
    pair = TestCertificates.create(dir, "server");
    TlsSettings tls = TlsSettings.fromPem(pair.certificateFile(), pair.keyFile());
    db = Viewbase.open(OpenOptions.at(dir.resolve("data")));
    azure = AzureTablesServer.start(db, AzureOptions.defaults().withPort(0).withTls(tls));
    dynamoDb = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0).withTls(tls));
  }

  @AfterAll
  static void stop() throws Exception {
    if (dynamoDb != null) {
      dynamoDb.close();
    }
    if (azure != null) {
      azure.close();
    }
    if (db != null) {
      db.close();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private static String azureEndpoint() {
    return "https://127.0.0.1:" + azure.port() + "/" + ACCOUNT;
  }

  private static TableServiceClient azureService(SSLContext trust) {
    HttpClient http =
        new JdkHttpClientBuilder(java.net.http.HttpClient.newBuilder().sslContext(trust))
            .connectionTimeout(Duration.ofSeconds(5))
            .responseTimeout(Duration.ofSeconds(30))
            .build();
    return new TableServiceClientBuilder()
        .endpoint(azureEndpoint())
        .credential(new AzureNamedKeyCredential(ACCOUNT, KEY))
        .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0)))
        .httpClient(http)
        .buildClient();
  }

  @Test
  void javaAzureSdkCreatesInsertsQueriesAndBatchesOverHttps() {
    TableServiceClient service = azureService(pair.clientContext());
    TableClient table = service.createTable("HttpsJava");
    table.createEntity(new TableEntity("p", "ada").addProperty("name", "Ada"));
    table.submitTransaction(
        List.of(
            new TableTransactionAction(
                TableTransactionActionType.CREATE,
                new TableEntity("p", "grace").addProperty("name", "Grace")),
            new TableTransactionAction(
                TableTransactionActionType.UPDATE_MERGE,
                new TableEntity("p", "ada").addProperty("born", 1815))));

    List<String> names =
        table
            .listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'p'"), null, null)
            .stream()
            .map(e -> (String) e.getProperty("name"))
            .toList();
    assertThat(names).containsExactly("Ada", "Grace");
    assertThat(db.table("HttpsJava").get("p", "ada").orElseThrow().properties())
        .containsEntry("born", new Value.Int32(1815));
  }

  @Test
  void javaAzureSdkThatDoesNotTrustTheCertificateIsRefused() {
    TableServiceClient untrusting =
        azureService(TestCertificates.create(dir, "stranger").clientContext());
    assertThatThrownBy(() -> untrusting.createTable("HttpsRefused"))
        .hasStackTraceContaining("SSLHandshakeException");
    assertThat(db.listTables()).noneMatch(t -> t.name().equals("HttpsRefused"));
  }

  @Test
  void javaScriptAzureSdkTrustsTheCertificateThroughNodeExtraCaCerts() {
    NodeRuntime node = NodeRuntime.require("js");
    Map<String, String> trusted = Map.of("NODE_EXTRA_CA_CERTS", pair.certificateFile().toString());
    ChildRun batch = node.run(trusted, "scenarios/transactions.js", azureEndpoint(), ACCOUNT, KEY);
    assertThat(batch.succeeded()).as(batch::describe).isTrue();
    ChildRun queries = node.run(trusted, "scenarios/queries.js", azureEndpoint(), ACCOUNT, KEY);
    assertThat(queries.succeeded()).as(queries::describe).isTrue();

    Map<String, String> untrusted = new HashMap<>();
    untrusted.put("NODE_EXTRA_CA_CERTS", null);
    ChildRun refused = node.run(untrusted, "scenarios/tables.js", azureEndpoint(), ACCOUNT, KEY);
    assertThat(refused.succeeded()).isFalse();
    assertThat(refused.describe()).containsIgnoringCase("certificate");
  }

  @Test
  void awsSdkServesTheDynamoDbDialectOverHttps() {
    try (DynamoDbClient client = dynamoDbClient(pair)) {
      client.createTable(
          b ->
              b.tableName("HttpsDynamo")
                  .attributeDefinitions(
                      AttributeDefinition.builder()
                          .attributeName("pk")
                          .attributeType(ScalarAttributeType.S)
                          .build())
                  .keySchema(
                      KeySchemaElement.builder().attributeName("pk").keyType(KeyType.HASH).build())
                  .billingMode(BillingMode.PAY_PER_REQUEST));
      client.putItem(
          b ->
              b.tableName("HttpsDynamo")
                  .item(Map.of("pk", AttributeValue.fromS("a"), "n", AttributeValue.fromN("7"))));
      Map<String, AttributeValue> item =
          client
              .getItem(b -> b.tableName("HttpsDynamo").key(Map.of("pk", AttributeValue.fromS("a"))))
              .item();
      assertThat(item).containsEntry("n", AttributeValue.fromN("7"));
    }
    try (DynamoDbClient stranger = dynamoDbClient(TestCertificates.create(dir, "aws-stranger"))) {
      assertThatThrownBy(stranger::listTables)
          .isInstanceOf(SdkClientException.class)
          .hasStackTraceContaining("SSLHandshakeException");
    }
  }

  private static DynamoDbClient dynamoDbClient(Pair trusted) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("https://127.0.0.1:" + dynamoDb.port()))
        .region(Region.US_WEST_2)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET)))
        .httpClient(
            UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(30))
                .tlsTrustManagersProvider(
                    () -> TestCertificates.trustManagers(trusted.certificate()))
                .build())
        .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .build();
  }
}
