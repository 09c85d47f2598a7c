package io.viewbase.server.azure;

import static io.viewbase.server.azure.ThreeApis.OK;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * viewbase-json's {@code EdmTypes}, the one decoder of annotated values, through both interfaces
 * that read annotations: each row's JSON value with its {@code @odata.type}, written through the
 * native API and through the Azure dialect, is stored as the same value or refused with the same
 * code in both (the native {@code InvalidValue} is Azure's {@code InvalidInput}), unless the row
 * says why they differ.
 */
class EdmValuesAcrossApisTest {
  private static final String REFUSED = ErrorCode.InvalidValue.name();

  /**
   * What a JSON value annotated as {@code edm} becomes: the stored value, or null if it is refused.
   */
  private record Row(String json, String edm, Value nativeApi, Value azure, String why) {
    static Row same(String json, String edm, Value stored) {
      return new Row(json, edm, stored, stored, null);
    }

    static Row refused(String json, String edm) {
      return new Row(json, edm, null, null, null);
    }
  }

  private static Value time(String instant) {
    return Value.of(Instant.parse(instant));
  }

  private static final List<Row> ROWS =
      List.of(
          Row.same("\"x\"", "Edm.String", Value.of("x")),
          Row.refused("1", "Edm.String"),
          Row.same("true", "Edm.Boolean", Value.of(true)),
          Row.same("\"false\"", "Edm.Boolean", Value.of(false)),
          Row.refused("\"True\"", "Edm.Boolean"),
          Row.refused("1", "Edm.Boolean"),
          Row.same("5", "Edm.Int32", new Value.Int32(5)),
          Row.same("\"-5\"", "Edm.Int32", new Value.Int32(-5)),
          Row.refused("\"5.0\"", "Edm.Int32"),
          Row.refused("5.0", "Edm.Int32"),
          Row.refused("\"+5\"", "Edm.Int32"),
          Row.refused("\" 5\"", "Edm.Int32"),
          Row.refused("2147483648", "Edm.Int32"),
          Row.same("12", "Edm.Int64", new Value.Int64(12)),
          Row.same("\"9223372036854775807\"", "Edm.Int64", new Value.Int64(Long.MAX_VALUE)),
          Row.refused("\"9223372036854775808\"", "Edm.Int64"),
          Row.refused("1.5", "Edm.Int64"),
          Row.refused("\"12x\"", "Edm.Int64"),
          Row.same("5", "Edm.Double", new Value.Double(5)),
          Row.same("2.5", "Edm.Double", new Value.Double(2.5)),
          Row.same("\"1.0\"", "Edm.Double", new Value.Double(1)),
          Row.same("\"-1.5e3\"", "Edm.Double", new Value.Double(-1500)),
          Row.same("\"NaN\"", "Edm.Double", new Value.Double(Double.NaN)),
          Row.same("\"Infinity\"", "Edm.Double", new Value.Double(Double.POSITIVE_INFINITY)),
          Row.same("\"-Infinity\"", "Edm.Double", new Value.Double(Double.NEGATIVE_INFINITY)),
          Row.refused("\"nan\"", "Edm.Double"),
          Row.refused("\"INF\"", "Edm.Double"),
          Row.refused("\"1e400\"", "Edm.Double"),
          Row.refused("1e400", "Edm.Double"),
          Row.refused("\" 5\"", "Edm.Double"),
          Row.refused("\"0x1p3\"", "Edm.Double"),
          Row.same(
              "\"2026-11-30T12:00:00.1234567Z\"",
              "Edm.DateTime",
              time("2026-11-30T12:00:00.1234567Z")),
          Row.same("\"2026-11-30t12:00:00.1z\"", "Edm.DateTime", time("2026-11-30T12:00:00.1Z")),
          Row.same("\"2008-07-10T00:00:00\"", "Edm.DateTime", time("2008-07-10T00:00:00Z")),
          Row.same("\"2008-07-10T02:00+02:00\"", "Edm.DateTime", time("2008-07-10T00:00:00Z")),
          Row.same(
              "\"2008-07-10T00:00:00.123456789Z\"",
              "Edm.DateTime",
              time("2008-07-10T00:00:00.1234567Z")),
          Row.same("\"2008-07-10\"", "Edm.DateTime", time("2008-07-10T00:00:00Z")),
          Row.refused("\"2026-02-30T12:00:00Z\"", "Edm.DateTime"),
          Row.refused("\"2026-11-30T24:00:00Z\"", "Edm.DateTime"),
          Row.refused("\"2026-11-30T12:00:00+19:00\"", "Edm.DateTime"),
          Row.refused("\"2026-11-30T12:00:00.Z\"", "Edm.DateTime"),
          Row.refused("\"\"", "Edm.DateTime"),
          new Row(
              "\"1600-12-31T23:59:59Z\"",
              "Edm.DateTime",
              time("1600-12-31T23:59:59Z"),
              null,
              "Azure's datetimes lie in 1601..9999; the native API keeps any datetime it can write"),
          new Row(
              "\"+10000-01-01T00:00:00Z\"",
              "Edm.DateTime",
              time("+10000-01-01T00:00:00Z"),
              null,
              "the native API reads back the expanded years it writes; Azure's range ends in 9999"),
          Row.same(
              "\"C9DA6455-213D-42C9-9A79-3E9149A57833\"",
              "Edm.Guid",
              new Value.Guid(UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833"))),
          Row.refused("\"c9da6455213d42c99a793e9149a57833\"", "Edm.Guid"),
          Row.refused("\"c9da6455-213d-42c9-9a79-3e9149a5783\u0660\"", "Edm.Guid"),
          Row.same("\"AQID\"", "Edm.Binary", new Value.Binary(new byte[] {1, 2, 3})),
          Row.same("\"AQI\"", "Edm.Binary", new Value.Binary(new byte[] {1, 2})),
          Row.same("\"\"", "Edm.Binary", new Value.Binary(new byte[0])),
          Row.refused("\"not base64!\"", "Edm.Binary"),
          Row.refused("\"AQ-_\"", "Edm.Binary"),
          new Row(
              "\"12.50\"",
              "Edm.Decimal",
              Value.of(new java.math.BigDecimal("12.5")),
              null,
              "Azure Tables has no decimal type; the native API has"),
          new Row(
              "0.1",
              "Edm.Decimal",
              Value.of(new java.math.BigDecimal("0.1")),
              null,
              "Azure Tables has no decimal type; the native API reads the number's text exactly"),
          Row.refused("\"1E999999999\"", "Edm.Decimal"),
          Row.refused("true", "Edm.Decimal"),
          new Row(
              "null",
              "Edm.Int64",
              Value.nullValue(),
              null,
              "a native item holds nulls; on Azure null means absent, and an annotated one is refused"));

  private final ThreeApis apis = new ThreeApis();

  @AfterEach
  void close() {
    apis.close();
  }

  @Test
  void bothInterfacesStoreOrRefuseEachAnnotatedValueAsItsRowSays() {
    List<String> wrong = new ArrayList<>();
    for (Row row : ROWS) {
      String members = "\"v@odata.type\":\"" + row.edm() + "\",\"v\":" + row.json();
      check(wrong, row, "native API", apis.nativeApi(members), row.nativeApi(), REFUSED);
      check(
          wrong,
          row,
          "Azure dialect",
          apis.azureApi(members),
          row.azure(),
          ErrorCode.InvalidValue.azure().code());
    }
    assertThat(wrong).isEmpty();
  }

  @Test
  void rowsWithoutAReasonAreTheSameInBothInterfaces() {
    for (Row row : ROWS) {
      if (row.why() == null) {
        assertThat(row.azure()).as(row.json() + " as " + row.edm()).isEqualTo(row.nativeApi());
      }
    }
  }

  private void check(
      List<String> wrong, Row row, String api, String outcome, Value expected, String refusal) {
    String label =
        api
            + ": "
            + row.json()
            + " as "
            + row.edm()
            + (row.why() == null ? "" : " (" + row.why() + ")");
    if (expected == null) {
      if (!outcome.equals(refusal)) {
        wrong.add(label + " answered " + outcome + ", not " + refusal);
      }
    } else if (!outcome.equals(OK)) {
      wrong.add(label + " answered " + outcome + ", not " + OK);
    } else if (!expected.equals(apis.stored("v"))) {
      wrong.add(label + " stored " + apis.stored("v") + ", not " + expected);
    }
  }
}
