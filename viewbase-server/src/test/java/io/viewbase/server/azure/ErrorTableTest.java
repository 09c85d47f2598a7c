package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import io.viewbase.server.ApiResponse;
import io.viewbase.server.dynamodb.DynamoDbAnswer;
import io.viewbase.server.dynamodb.DynamoDbErrors;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every row of the error table renders in each dialect: the native API's JSON (which the client
 * reads back as the same code), the Azure dialect's JSON and XML, and the DynamoDB dialect's JSON,
 * with the row's status, code and message. A constant whose row a dialect cannot render fails here,
 * naming itself.
 */
class ErrorTableTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ViewbaseException error(ErrorCode code) {
    return ViewbaseException.of(code, "What went wrong", "table", "People", "id", "a 1");
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void theNativeApiAnswersWithTheCodesNameStatusAndContext(ErrorCode code) throws IOException {
    ApiResponse answer = ApiResponse.error(error(code));

    assertThat(answer.status()).isEqualTo(code.httpStatus());
    JsonNode body = JSON.readTree(answer.body()).get("error");
    assertThat(body.get("code").asText()).isEqualTo(code.name());
    assertThat(body.get("message").asText()).isEqualTo("What went wrong");
    assertThat(body.get("table").asText()).isEqualTo("People");
    ViewbaseException read = ErrorJson.read(answer.body()).orElseThrow();
    assertThat(read.code()).as("what a client reads back").isEqualTo(code);
    assertThat(read.context()).containsEntry("id", "a 1");
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void theAzureDialectAnswersWithTheRowsStatusCodeAndMessage(ErrorCode code) throws IOException {
    AzureResponse answer = AzureErrors.answer(error(code), false, "req-1");

    assertThat(answer.status()).isEqualTo(code.azure().status());
    assertThat(answer.header("x-ms-error-code")).isEqualTo(code.azure().code());
    assertThat(answer.contentType()).isEqualTo(AzureErrors.JSON_ERROR_TYPE);
    JsonNode body = JSON.readTree(answer.body()).get("odata.error");
    assertThat(body.get("code").asText()).isEqualTo(code.azure().code());
    String message = body.get("message").get("value").asText();
    assertThat(message).startsWith(expectedMessage(code)).contains("\nRequestId:req-1\nTime:");
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void theAzureDialectAnswersItsXmlOperationsInXml(ErrorCode code) {
    AzureResponse answer = AzureErrors.answer(error(code), true, "req-1");

    assertThat(answer.status()).isEqualTo(code.azure().status());
    assertThat(answer.contentType()).isEqualTo(AzureErrors.XML_TYPE);
    assertThat(answer.bodyText())
        .startsWith(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>"
                + code.azure().code()
                + "</Code><Message>");
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void theDynamoDbDialectAnswersWithTheRowsStatusExceptionAndMessage(ErrorCode code)
      throws IOException {
    DynamoDbAnswer answer = DynamoDbErrors.answer(error(code));

    assertThat(answer.status()).isEqualTo(code.dynamoDb().status());
    assertThat(answer.contentType()).isEqualTo("application/x-amz-json-1.0");
    JsonNode body = JSON.readTree(answer.body());
    String type = body.get("__type").asText();
    assertThat(type).matches("com\\.amazon(aws\\.dynamodb\\.v20120810|\\.coral\\.[a-z]+)#.+");
    assertThat(type.substring(type.indexOf('#') + 1))
        .as("what the SDKs turn into an exception class")
        .isEqualTo(code.dynamoDb().type());
    JsonNode message = body.has("message") ? body.get("message") : body.get("Message");
    assertThat(message.asText()).isEqualTo(expectedDynamoDbMessage(code));
  }

  @org.junit.jupiter.api.Test
  void aDynamoDbAnswerCarriesTheUpperCaseContextAsMembersOfItsBody() throws IOException {
    ViewbaseException canceled =
        DynamoDbErrors.transactionCanceled(
            List.of(
                Map.of("Code", "None"),
                Map.of(
                    "Code",
                    "ConditionalCheckFailed",
                    "Message",
                    "The conditional request failed")));

    JsonNode body = JSON.readTree(DynamoDbErrors.answer(canceled).body());

    assertThat(body.get("__type").asText())
        .isEqualTo("com.amazonaws.dynamodb.v20120810#TransactionCanceledException");
    assertThat(body.get("Message").asText())
        .isEqualTo(
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None,"
                + " ConditionalCheckFailed]");
    assertThat(body.get("CancellationReasons").get(1).get("Code").asText())
        .isEqualTo("ConditionalCheckFailed");
  }

  /** As for Azure, but DynamoDB's messages need not end a sentence. */
  private static String expectedDynamoDbMessage(ErrorCode code) {
    String own = "What went wrong (table: People, id: a 1)";
    String fixed = code.dynamoDb().message();
    if (fixed == null) {
      return own;
    }
    return fixed.contains("%s") ? fixed.replace("%s", own) : fixed;
  }

  /**
   * A fixed message exactly; Azure's words then the error's; or the error's own, its context after
   * it.
   */
  private static String expectedMessage(ErrorCode code) {
    String own = "What went wrong (table: People, id: a 1)";
    String azure = code.azure().message();
    if (azure == null) {
      return own;
    }
    return azure.contains("%s") ? azure.replace("%s", own) : azure + "\n";
  }
}
