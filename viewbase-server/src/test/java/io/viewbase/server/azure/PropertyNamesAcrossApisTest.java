package io.viewbase.server.azure;

import static io.viewbase.server.azure.ThreeApis.OK;
import static io.viewbase.server.azure.ThreeApis.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PropertyName}'s rule, through every interface: one property named as a row says, written
 * through the Java API, the native API and the Azure dialect, answers the row's outcome in each.
 * Where a row gives no reason, the outcomes are one: the same acceptance, and the same code (the
 * dialect's being that code's Azure name). A reason marks a difference the interfaces make on
 * purpose, and says why.
 */
class PropertyNamesAcrossApisTest {
  private static final String INVALID = ErrorCode.InvalidPropertyName.name();

  /**
   * A property name and what each interface answers for it; {@code why} is null when they agree.
   */
  private record Row(String name, String javaApi, String nativeApi, String azure, String why) {
    static Row same(String name, String outcome) {
      String azure = outcome.equals(OK) ? OK : ErrorCode.valueOf(outcome).azure().code();
      return new Row(name, outcome, outcome, azure, null);
    }
  }

  private static final List<Row> ROWS =
      List.of(
          Row.same("plain", OK),
          Row.same("é名_with_underscore", OK),
          Row.same("x".repeat(255), OK),
          Row.same("", INVALID),
          Row.same("a@b", INVALID),
          Row.same("a@odata.typeX", INVALID),
          Row.same("tab\tname", INVALID),
          Row.same("nul\u0000", INVALID),
          new Row(
              "lone\ud800",
              INVALID,
              ErrorCode.InvalidJson.name(),
              ErrorCode.InvalidJson.azure().code(),
              "the JSON parser refuses a lone surrogate in a member name before any rule sees it"),
          new Row(
              "x".repeat(256),
              INVALID,
              INVALID,
              "PropertyNameTooLong",
              "Azure has its own code for a name over its 255 characters"),
          new Row(
              "_x",
              INVALID,
              INVALID,
              OK,
              "on Azure '_x' is an ordinary name: the dialect stores it as '$_x'"),
          new Row(
              "_" + "x".repeat(254),
              INVALID,
              INVALID,
              ErrorCode.InvalidPropertyName.azure().code(),
              "the dialect's '$_x...' is one character longer than the limit"),
          Row.same("_ttl", ErrorCode.InvalidValue.name()), // a user name, whose value "v" is no ttl
          new Row(
              "_etag",
              INVALID,
              OK,
              OK,
              "a native body may carry the system properties it read (ignored); Azure stores '$_etag'"),
          new Row(
              "id",
              INVALID,
              ErrorCode.KeyMismatch.name(),
              OK,
              "in a native body 'id' is the item's identity; Azure stores '$id'"),
          new Row(
              "partitionKey",
              INVALID,
              ErrorCode.KeyMismatch.name(),
              OK,
              "in a native body 'partitionKey' is the identity; Azure stores '$partitionKey'"),
          new Row(
              "$x",
              OK,
              OK,
              "PropertyNameInvalid",
              "'$' is no identifier character on Azure (and marks its escapes)"));

  private final ThreeApis apis = new ThreeApis();

  @AfterEach
  void close() {
    apis.close();
  }

  @Test
  void everyInterfaceAnswersEachNameAsItsRowSays() {
    for (Row row : ROWS) {
      String label =
          "property name " + json(row.name()) + (row.why() == null ? "" : " (" + row.why() + ")");
      String body = json(row.name()) + ":\"v\"";

      assertThat(apis.javaApi(Map.of(row.name(), Value.of("v"))))
          .as("Java API, " + label)
          .isEqualTo(row.javaApi());
      assertThat(apis.nativeApi(body)).as("native API, " + label).isEqualTo(row.nativeApi());
      assertThat(apis.azureApi(body)).as("Azure dialect, " + label).isEqualTo(row.azure());
    }
  }

  @Test
  void rowsWithoutAReasonAreTheSameInEveryInterfaceAndTheReservedNamesAreThoseTheRuleReserves() {
    for (Row row : ROWS) {
      if (row.why() == null) {
        assertThat(row.nativeApi()).as(row.name()).isEqualTo(row.javaApi());
      }
      if (PropertyName.isReserved(row.name())) {
        assertThat(row.javaApi()).as(row.name()).isEqualTo(INVALID);
        assertThat(row.why()).as(row.name()).isNotNull();
      }
    }
  }
}
