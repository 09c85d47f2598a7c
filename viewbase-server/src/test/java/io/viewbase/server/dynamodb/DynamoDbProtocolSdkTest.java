package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * The DynamoDB protocol's shell through the AWS SDK and raw HTTP: SigV4 with configured keys, an
 * unknown key, a wrong secret, no signature and any key; the error shapes the SDK turns into its
 * exceptions; {@code x-amz-crc32}, {@code x-amzn-RequestId}; operations that do not exist or are
 * not served; bodies that are not JSON, or too large.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DynamoDbProtocolSdkTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String KEY = "AKIDPROTOCOL";
  private static final String SECRET = "protocol/secret+key";

  private final HttpClient http = HttpClient.newHttpClient();
  private Database db;
  private DynamoDbServer keyed;
  private DynamoDbServer anyKey;

  @BeforeAll
  void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    DynamoDbOptions base =
        DynamoDbOptions.defaults().withPort(0).withIoThreads(1).withWorkerThreads(2);
    keyed = DynamoDbServer.start(db, base.withKeys(Map.of(KEY, SECRET)));
    anyKey = DynamoDbServer.start(db, base.withAnyKey(true).withMaxRequestBytes(4096));
  }

  @AfterAll
  void stop() {
    keyed.close();
    anyKey.close();
    db.close();
  }

  private static void assertSdkFails(
      DynamoDbClient client, Consumer<DynamoDbClient> call, String code, String message) {
    try (client) {
      assertThatThrownBy(() -> call.accept(client))
          .isInstanceOfSatisfying(
              DynamoDbException.class,
              e -> {
                assertThat(e.statusCode()).isEqualTo(400);
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo(code);
                assertThat(e.awsErrorDetails().errorMessage()).startsWith(message);
                assertThat(e.requestId()).hasSize(52);
              });
    }
  }

  @Test
  void aConfiguredKeySignsRequestsAndTheDefaultPairIsNoLongerAccepted() {
    try (DynamoDbClient client = DynamoDbTablesContract.client(keyed.port(), KEY, SECRET)) {
      assertThat(client.listTables().tableNames()).isNotNull();
    }
    assertSdkFails(
        DynamoDbTablesContract.client(
            keyed.port(), DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET),
        DynamoDbClient::listTables,
        "UnrecognizedClientException",
        "The security token included in the request is invalid.");
  }

  @Test
  void aWrongSecretIsAnInvalidSignature() {
    assertSdkFails(
        DynamoDbTablesContract.client(keyed.port(), KEY, "not the secret"),
        DynamoDbClient::listTables,
        "InvalidSignatureException",
        "The request signature we calculated does not match the signature you provided.");
  }

  @Test
  void withAnyKeyEveryWellSignedRequestIsServed() {
    try (DynamoDbClient client =
        DynamoDbTablesContract.client(anyKey.port(), "AnyKeyAtAll", "any secret")) {
      assertThat(client.listTables().tableNames()).isNotNull();
    }
  }

  @Test
  void anOperationViewbaseDoesNotServeYetSaysSo() {
    assertSdkFails(
        DynamoDbTablesContract.client(keyed.port(), KEY, SECRET),
        c -> c.listBackups(b -> b.tableName("whatever")),
        "UnknownOperationException",
        "Viewbase does not serve the DynamoDB operation ListBackups yet");
  }

  private HttpResponse<String> post(int port, String target, String body, String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
            .header("Content-Type", "application/x-amz-json-1.0")
            .header("X-Amz-Date", "20260301T100000Z")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (target != null) {
      b.header("X-Amz-Target", target);
    }
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static final String ANY_SIGNATURE =
      "AWS4-HMAC-SHA256 Credential=k/20260301/us-east-1/dynamodb/aws4_request,"
          + " SignedHeaders=host;x-amz-date, Signature=00";

  private static JsonNode error(HttpResponse<String> r, int status, String type)
      throws IOException {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.get("__type").asText()).isEqualTo(type);
    return body;
  }

  @Test
  void aRequestWithoutAuthorizationIsMissingItsToken() throws Exception {
    HttpResponse<String> r = post(keyed.port(), "DynamoDB_20120810.ListTables", "{}", null);

    JsonNode body = error(r, 400, "com.amazon.coral.service#MissingAuthenticationTokenException");
    assertThat(body.get("message").asText()).isEqualTo("Request is missing Authentication Token");
  }

  @Test
  void everyAnswerCarriesARequestIdAndTheCrc32OfItsBody() throws Exception {
    for (HttpResponse<String> r :
        java.util.List.of(
            post(anyKey.port(), "DynamoDB_20120810.ListTables", "{}", ANY_SIGNATURE),
            post(keyed.port(), "DynamoDB_20120810.ListTables", "{}", null))) {
      CRC32 crc = new CRC32();
      crc.update(r.body().getBytes(StandardCharsets.UTF_8));
      assertThat(r.headers().firstValue("x-amz-crc32")).hasValue(Long.toString(crc.getValue()));
      assertThat(r.headers().firstValue("x-amzn-RequestId").orElseThrow()).matches("[A-Z0-9]{52}");
      assertThat(r.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.0");
      // HTTP's fixed-length date, as DynamoDB (and the Azure dialect) send it: two-digit days
      assertThat(r.headers().firstValue("Date").orElseThrow())
          .matches("[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
    }
  }

  @Test
  void anUnknownOperationOrTargetIsAnUnknownOperation() throws Exception {
    error(
        post(anyKey.port(), "DynamoDB_20120810.MakeCoffee", "{}", ANY_SIGNATURE),
        400,
        "com.amazon.coral.service#UnknownOperationException");
    error(
        post(anyKey.port(), null, "{}", ANY_SIGNATURE),
        400,
        "com.amazon.coral.service#UnknownOperationException");
  }

  @Test
  void anItemOperationWithoutItsTableNameIsAValidationError() throws Exception {
    // found by DynamoDbPipelineFuzzTest: a DeleteItem without TableName answered 500 (a
    // NullPointerException looking the table up), and so did every item operation
    String missing =
        "1 validation error detected: Value null at 'tableName' failed to satisfy constraint:"
            + " Member must not be null";
    for (String operation :
        java.util.List.of("GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan")) {
      JsonNode body =
          error(
              post(anyKey.port(), "DynamoDB_20120810." + operation, "{}", ANY_SIGNATURE),
              400,
              "com.amazon.coral.validate#ValidationException");
      assertThat(body.get("message").asText()).as(operation).isEqualTo(missing);
    }
    JsonNode put =
        error(
            post(
                anyKey.port(),
                "DynamoDB_20120810.TransactWriteItems",
                "{\"TransactItems\":[{\"Put\":{\"Item\":{}}}]}",
                ANY_SIGNATURE),
            400,
            "com.amazon.coral.validate#ValidationException");
    assertThat(put.get("message").asText()).contains("'transactItems.1.member.put.tableName'");
    JsonNode get =
        error(
            post(
                anyKey.port(),
                "DynamoDB_20120810.TransactGetItems",
                "{\"TransactItems\":[{\"Get\":{\"Key\":{}}}]}",
                ANY_SIGNATURE),
            400,
            "com.amazon.coral.validate#ValidationException");
    assertThat(get.get("message").asText()).contains("'transactItems.1.member.get.tableName'");
  }

  @Test
  void aTransactionActionThatIsNullIsNoAction() throws Exception {
    JsonNode body =
        error(
            post(
                anyKey.port(),
                "DynamoDB_20120810.TransactWriteItems",
                "{\"TransactItems\":[{\"Put\":null}]}",
                ANY_SIGNATURE),
            400,
            "com.amazon.coral.validate#ValidationException");
    assertThat(body.get("message").asText())
        .isEqualTo("TransactItems can only contain one of Check, Put, Update or Delete");
  }

  @Test
  void aBodyThatIsNotAJsonObjectIsASerializationError() throws Exception {
    error(
        post(anyKey.port(), "DynamoDB_20120810.ListTables", "{not json", ANY_SIGNATURE),
        400,
        "com.amazon.coral.service#SerializationException");
    JsonNode body =
        error(
            post(
                anyKey.port(),
                "DynamoDB_20120810.ListTables",
                "{\"Limit\":\"ten\"}",
                ANY_SIGNATURE),
            400,
            "com.amazon.coral.service#SerializationException");
    assertThat(body.get("Message").asText())
        .isEqualTo("class java.lang.String can not be converted to an Long");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWith413() throws Exception {
    HttpResponse<String> r =
        post(
            anyKey.port(),
            "DynamoDB_20120810.ListTables",
            "{\"x\":\"" + "y".repeat(8000) + "\"}",
            ANY_SIGNATURE);

    assertThat(r.statusCode()).isEqualTo(413);
  }

  @Test
  void getOfTheRootIsTheHealthCheck() throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + keyed.port() + "/")).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).startsWith("healthy: ");
  }
}
