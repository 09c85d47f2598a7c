package io.viewbase.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every constant of the error table is whole: a status, a rendering in each dialect and a sentence
 * on when it happens. A constant added half-defined fails here, naming itself.
 */
class ErrorCodeTest {
  /** What a code on the wire may look like: Azure's and ours are both UpperCamelCase words. */
  private static final String CODE = "[A-Z][A-Za-z0-9]+";

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void everyCodeHasAnErrorStatusInEveryDialect(ErrorCode code) {
    assertThat(code.httpStatus()).as("native status").isBetween(400, 599);
    assertThat(code.azure()).as("Azure rendering").isNotNull();
    assertThat(code.azure().status()).as("Azure status").isBetween(400, 599);
    assertThat(code.isClientError()).isEqualTo(code.httpStatus() < 500);
    assertThat(code.dynamoDb()).as("DynamoDB rendering").isNotNull();
    assertThat(code.dynamoDb().status()).as("DynamoDB status").isBetween(400, 599);
  }

  /**
   * DynamoDB's JSON protocol answers every error a client can fix with 400; only the HTTP layer's
   * own refusals (an unknown path, a timeout, a body too large) have another 4xx. A server error
   * stays a server error, so the SDKs retry it, but for those DynamoDB answers otherwise: the
   * retry-now ones are its throttling (which the SDKs retry too), and a capability not built is no
   * reason to retry.
   */
  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void theDynamoDbStatusIs400ForClientErrorsButTheHttpLayersAndA5xxForServerErrors(ErrorCode code) {
    int status = code.dynamoDb().status();
    if (code.httpStatus() >= 500
        && !Set.of(ErrorCode.WriteConflict, ErrorCode.ServerBusy, ErrorCode.NotImplemented)
            .contains(code)) {
      assertThat(status).as("a server error").isBetween(500, 599);
    } else {
      assertThat(status)
          .as("a client error, or a retry-now one (throttling)")
          .isIn(400, 404, 408, 413);
    }
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void aDynamoDbMessageIsFixedOrHasOnePlaceholderAfterDynamoDbsWords(ErrorCode code) {
    String message = code.dynamoDb().message();
    if (message == null) {
      return;
    }
    int placeholder = message.indexOf("%s");
    assertThat(message.indexOf("%s", placeholder + 1)).as("a second %s").isNegative();
    assertThat(placeholder < 0 ? message : message.substring(0, placeholder))
        .as("DynamoDB's words")
        .isNotBlank();
    if (placeholder >= 0) {
      assertThat(message).as("the error's own message ends it").endsWith("%s");
    }
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void everyCodeHasANativeAndAnAzureCode(ErrorCode code) {
    assertThat(code.name()).as("native code").matches(CODE);
    assertThat(code.azure().code()).as("Azure code").matches(CODE);
    assertThat(code.dynamoDb().type()).as("DynamoDB exception").matches(CODE);
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void anAzureMessageIsASentenceWithAtMostOnePlaceholderAtItsEnd(ErrorCode code) {
    String message = code.azure().message();
    if (message == null) {
      return; // the error's own message is the answer's
    }
    int placeholder = message.indexOf("%s");
    assertThat(message.indexOf("%s", placeholder + 1)).as("a second %s").isNegative();
    String words = placeholder < 0 ? message : message.substring(0, placeholder);
    assertThat(words).as("Azure's words").isNotBlank();
    if (placeholder < 0) {
      assertThat(message).as("a fixed message").endsWith(".");
    } else {
      assertThat(message).as("the error's own message follows Azure's words").endsWith(". %s");
    }
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void everyCodeSaysWhenItHappensInOneSentence(ErrorCode code) {
    assertThat(code.description())
        .as("description")
        .isNotBlank()
        .endsWith(".")
        .doesNotContain("\n");
    assertThat(Character.isUpperCase(code.description().charAt(0)))
        .as("starts a sentence")
        .isTrue();
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void noTwoCodesShareADescription(ErrorCode code) {
    assertThat(Stream.of(ErrorCode.values()).filter(c -> c != code).map(ErrorCode::description))
        .as("descriptions of the others")
        .doesNotContain(code.description());
  }

  /**
   * The second group of the table (from AuthenticationFailed up to ValidationFailure) is the Azure
   * dialect's own.
   */
  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void aCodeOfTheAzureDialectAloneIsNamedAfterTheAzureCodeItAnswersWith(ErrorCode code) {
    if (code.ordinal() < ErrorCode.AuthenticationFailed.ordinal()
        || code.ordinal() >= ErrorCode.ValidationFailure.ordinal()) {
      return;
    }
    // ...but for the one Azure picks by operation: its code is ItemNotFound's, its name says the
    // case
    String expected =
        code == ErrorCode.TableNotFoundOnDelete
            ? ErrorCode.ItemNotFound.azure().code()
            : code.name();
    assertThat(code.azure().code()).isEqualTo(expected);
  }

  /**
   * The third group (from ValidationFailure on) is the DynamoDB dialect's own: each is its
   * exception's name without {@code Exception}, or with {@code Failure} for it.
   */
  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void aCodeOfTheDynamoDbDialectAloneIsNamedAfterTheExceptionItAnswersWith(ErrorCode code) {
    if (code.ordinal() < ErrorCode.ValidationFailure.ordinal()) {
      return;
    }
    String stem =
        code.name().endsWith("Failure") ? code.name().replace("Failure", "") : code.name();
    assertThat(code.dynamoDb().type()).isEqualTo(stem + "Exception");
  }
}
