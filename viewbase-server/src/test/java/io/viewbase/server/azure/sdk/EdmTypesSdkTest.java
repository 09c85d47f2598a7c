package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every Edm type written by the official Java SDK reads back with the same Java type and value.
 *
 * <pre>
 * Edm type      | Java type through the SDK | on the wire
 * --------------+---------------------------+---------------------------------------------
 * Edm.String    | String                    | JSON string
 * Edm.Boolean   | Boolean                   | true / false
 * Edm.Int32     | Integer                   | number without a decimal point
 * Edm.Int64     | Long                      | decimal string + Edm.Int64
 * Edm.Double    | Double                    | number with a decimal point; NaN, ±Infinity as annotated strings
 * Edm.DateTime  | OffsetDateTime (UTC)      | ISO-8601 string + Edm.DateTime, 100 ns precision
 * Edm.Guid      | UUID                      | string + Edm.Guid
 * Edm.Binary    | byte[]                    | base64 + Edm.Binary
 * </pre>
 */
class EdmTypesSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static TableClient table;

  @BeforeAll
  static void createTable() {
    table = azure.newTable("Types");
  }

  /** Writes one property through the SDK and reads it back through the SDK. */
  private static Object roundTrip(String rowKey, String property, Object value) {
    table.createEntity(new TableEntity("types", rowKey).addProperty(property, value));
    return table.getEntity("types", rowKey).getProperty(property);
  }

  /** Writes one annotated property (the SDK sends the annotation as given) and reads it back. */
  private static Object roundTripAnnotated(
      String rowKey, String property, Object value, String edmType) {
    table.createEntity(
        new TableEntity("types", rowKey)
            .addProperty(property + "@odata.type", edmType)
            .addProperty(property, value));
    return table.getEntity("types", rowKey).getProperty(property);
  }

  @Test
  void stringRoundTripsAsStringIncludingEmptyAndNonAscii() {
    assertThat(roundTrip("s1", "v", "héllo, 世界 \uD83D\uDE00 \"quoted\" \\ back"))
        .isEqualTo("héllo, 世界 \uD83D\uDE00 \"quoted\" \\ back");
    assertThat(roundTrip("s2", "v", "")).isEqualTo("");
  }

  @Test
  void booleanRoundTripsAsBoolean() {
    assertThat(roundTrip("b1", "v", true)).isEqualTo(Boolean.TRUE);
    assertThat(roundTrip("b2", "v", false)).isEqualTo(Boolean.FALSE);
  }

  @Test
  void int32RoundTripsAsIntegerAtItsLimits() {
    assertThat(roundTrip("i1", "v", Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
    assertThat(roundTrip("i2", "v", Integer.MIN_VALUE)).isEqualTo(Integer.MIN_VALUE);
    assertThat(roundTrip("i3", "v", 0)).isEqualTo(0);
  }

  @Test
  void int64RoundTripsAsLongAtItsLimits() {
    assertThat(roundTrip("l1", "v", Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
    assertThat(roundTrip("l2", "v", Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE);
    assertThat(roundTrip("l3", "v", 5L)).isEqualTo(5L);
  }

  @Test
  void doubleRoundTripsAsDouble() {
    assertThat(roundTrip("d1", "v", 1.5)).isEqualTo(1.5);
    assertThat(roundTrip("d2", "v", -1.0E-300)).isEqualTo(-1.0E-300);
    assertThat(roundTrip("d3", "v", Double.MAX_VALUE)).isEqualTo(Double.MAX_VALUE);
    assertThat(roundTrip("d4", "v", Double.MIN_VALUE)).isEqualTo(Double.MIN_VALUE);
  }

  @Test
  void wholeNumberDoubleStaysADouble() {
    // The server must write 42.0 with a decimal point (or annotate it): the SDK infers Integer from
    // "42".
    assertThat(roundTrip("d42", "v", 42.0)).isInstanceOf(Double.class).isEqualTo(42.0);
    assertThat(roundTrip("d0", "v", 0.0)).isInstanceOf(Double.class).isEqualTo(0.0);
    assertThat(roundTrip("d1e20", "v", 1.0E20)).isInstanceOf(Double.class).isEqualTo(1.0E20);
  }

  @Test
  void negativeZeroStaysANegativeZeroDouble() {
    Object read = roundTrip("dneg0", "v", -0.0);

    assertThat(read).isInstanceOf(Double.class);
    assertThat(Double.doubleToRawLongBits((Double) read))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void nanAndInfinitiesAnnotatedAsEdmDoubleRoundTripAsDouble() {
    assertThat(roundTripAnnotated("nan", "v", Double.NaN, "Edm.Double"))
        .isInstanceOf(Double.class)
        .satisfies(v -> assertThat((Double) v).isNaN());
    assertThat(roundTripAnnotated("pinf", "v", Double.POSITIVE_INFINITY, "Edm.Double"))
        .isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(roundTripAnnotated("ninf", "v", Double.NEGATIVE_INFINITY, "Edm.Double"))
        .isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void nanWithoutAnnotationIsTheStringNanAsOnAzure() {
    // The SDK writes Double.NaN as the JSON string "NaN" without a type: Azure stores a string.
    assertThat(roundTrip("nanstr", "v", Double.NaN)).isEqualTo("NaN");
  }

  @Test
  void dateTimeRoundTripsAsUtcOffsetDateTimeWithSevenFractionalDigits() {
    OffsetDateTime value = OffsetDateTime.of(2026, 11, 30, 12, 34, 56, 123_456_700, ZoneOffset.UTC);

    assertThat(roundTrip("dt1", "v", value)).isEqualTo(value);
  }

  @Test
  void dateTimeWithAnOffsetReadsBackAsTheSameInstantInUtc() {
    OffsetDateTime value = OffsetDateTime.of(2026, 11, 30, 14, 0, 0, 100, ZoneOffset.ofHours(2));

    Object read = roundTrip("dt2", "v", value);

    assertThat(read).isInstanceOf(OffsetDateTime.class);
    assertThat(((OffsetDateTime) read).toInstant()).isEqualTo(value.toInstant());
    assertThat(((OffsetDateTime) read).getOffset()).isEqualTo(ZoneOffset.UTC);
  }

  @Test
  void dateTimeAtTheEdgesOfAzuresRangeRoundTrips() {
    OffsetDateTime first = OffsetDateTime.of(1601, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
    OffsetDateTime last = OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_900, ZoneOffset.UTC);

    assertThat(roundTrip("dtmin", "v", first)).isEqualTo(first);
    assertThat(roundTrip("dtmax", "v", last)).isEqualTo(last);
  }

  @Test
  void guidRoundTripsAsUuid() {
    UUID value = UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833");

    assertThat(roundTrip("g1", "v", value)).isEqualTo(value);
  }

  @Test
  void binaryRoundTripsAsByteArray() {
    byte[] value = new byte[300];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (i * 7);
    }

    assertThat(roundTrip("bin1", "v", value)).isEqualTo(value);
    assertThat(roundTrip("bin2", "v", new byte[0])).isEqualTo(new byte[0]);
  }

  @Test
  void everyTypeTogetherRoundTripsInOneEntity() {
    OffsetDateTime when = OffsetDateTime.of(2020, 2, 29, 23, 59, 59, 999_999_900, ZoneOffset.UTC);
    UUID id = UUID.randomUUID();
    TableEntity entity =
        new TableEntity("types", "all")
            .addProperty("s", "text")
            .addProperty("b", true)
            .addProperty("i", 42)
            .addProperty("l", 42L)
            .addProperty("d", 42.0)
            .addProperty("t", when)
            .addProperty("g", id)
            .addProperty("x", new byte[] {1, 2, 3});

    table.createEntity(entity);
    TableEntity read = table.getEntity("types", "all");

    assertThat(read.getProperty("s")).isEqualTo("text");
    assertThat(read.getProperty("b")).isEqualTo(true);
    assertThat(read.getProperty("i")).isEqualTo(42);
    assertThat(read.getProperty("l")).isEqualTo(42L);
    assertThat(read.getProperty("d")).isEqualTo(42.0);
    assertThat(read.getProperty("t")).isEqualTo(when);
    assertThat(read.getProperty("g")).isEqualTo(id);
    assertThat(read.getProperty("x")).isEqualTo(new byte[] {1, 2, 3});
  }

  @Test
  void typesSurviveAListQueryAsWellAsAPointRead() {
    OffsetDateTime when = OffsetDateTime.of(2021, 1, 1, 0, 0, 0, 500, ZoneOffset.UTC);
    table.createEntity(
        new TableEntity("listed", "one")
            .addProperty("l", 7L)
            .addProperty("d", 7.0)
            .addProperty("t", when)
            .addProperty("x", new byte[] {9}));

    TableEntity read =
        table
            .listEntities(
                new com.azure.data.tables.models.ListEntitiesOptions()
                    .setFilter("PartitionKey eq 'listed'"),
                null,
                null)
            .iterator()
            .next();

    assertThat(read.getProperty("l")).isEqualTo(7L);
    assertThat(read.getProperty("d")).isEqualTo(7.0);
    assertThat(read.getProperty("t")).isEqualTo(when);
    assertThat(read.getProperty("x")).isEqualTo(new byte[] {9});
  }

  @Test
  void propertyNamedIdRoundTrips() {
    // "id" is the most common property name of all; on Azure it is an ordinary property.
    assertThat(roundTrip("name-id", "id", "A-17")).isEqualTo("A-17");
  }

  @Test
  void propertyNamedPartitionKeyInLowerCaseRoundTrips() {
    // Property names are case-sensitive on Azure: partitionKey is not PartitionKey.
    assertThat(roundTrip("name-pk", "partitionKey", "other")).isEqualTo("other");
  }

  @Test
  void propertyNameStartingWithAnUnderscoreRoundTrips() {
    // A C# identifier may start with '_', and Azure's rule for property names is C#'s.
    assertThat(roundTrip("name-underscore", "_private", 1)).isEqualTo(1);
  }

  @Test
  void nullPropertiesAreDropped() {
    // The SDK itself leaves null properties out of the body; the server must not invent them
    // either.
    table.createEntity(
        new TableEntity("types", "nulls").addProperty("gone", null).addProperty("kept", 1));

    TableEntity read = table.getEntity("types", "nulls");

    assertThat(read.getProperties()).doesNotContainKey("gone").containsEntry("kept", 1);
  }

  @Test
  void explicitNullsAndClientSentSystemPropertiesInARequestBodyAreIgnored() {
    WireTap rewrite =
        new WireTap()
            .withRequestBody(
                "{\"PartitionKey\":\"types\",\"RowKey\":\"rawnulls\","
                    + "\"gone\":null,\"kept\":1,\"Timestamp\":\"2000-01-01T00:00:00Z\","
                    + "\"odata.etag\":\"W/\\\"datetime'2000-01-01T00%3A00%3A00Z'\\\"\"}");
    TableClient raw = azure.tableClient(table.getTableName(), rewrite);

    raw.createEntity(new TableEntity("types", "rawnulls"));
    TableEntity read = table.getEntity("types", "rawnulls");

    assertThat(rewrite.status()).isEqualTo(204);
    assertThat(read.getProperties()).doesNotContainKey("gone").containsEntry("kept", 1);
    assertThat(read.getTimestamp().getYear()).isGreaterThan(2000);
  }

  @Test
  void aTypedNullIsRefusedWithInvalidInputAndStoresNothing() {
    for (String type : List.of("Edm.DateTime", "Edm.Int64", "Edm.String", "Edm.Boolean")) {
      WireTap rewrite =
          new WireTap()
              .withRequestBody(
                  "{\"PartitionKey\":\"types\",\"RowKey\":\"typednull\","
                      + "\"x\":null,\"x@odata.type\":\""
                      + type
                      + "\"}");
      TableClient raw = azure.tableClient(table.getTableName(), rewrite);

      SdkErrors.assertFails(
          400, "InvalidInput", () -> raw.createEntity(new TableEntity("types", "typednull")));
    }
    SdkErrors.assertFails(404, "ResourceNotFound", () -> table.getEntity("types", "typednull"));
  }

  @Test
  void aDoubleBeyondItsRangeIsRefusedAndTheAnnotatedNonFiniteOnesAreStored() {
    for (String body :
        List.of(
            "\"d\":1e400",
            "\"d@odata.type\":\"Edm.Double\",\"d\":\"1e400\"",
            "\"d@odata.type\":\"Edm.Double\",\"d\":\"INF\"",
            "\"d@odata.type\":\"Edm.Double\",\"d\":\"nan\"")) {
      WireTap rewrite =
          new WireTap()
              .withRequestBody("{\"PartitionKey\":\"types\",\"RowKey\":\"huge\"," + body + "}");
      TableClient raw = azure.tableClient(table.getTableName(), rewrite);
      SdkErrors.assertFails(
          400, "InvalidInput", () -> raw.createEntity(new TableEntity("types", "huge")));
    }
    SdkErrors.assertFails(404, "ResourceNotFound", () -> table.getEntity("types", "huge"));
    WireTap annotated =
        new WireTap()
            .withRequestBody(
                "{\"PartitionKey\":\"types\",\"RowKey\":\"nonfinite\","
                    + "\"inf@odata.type\":\"Edm.Double\",\"inf\":\"Infinity\",\"neg@odata.type\":\"Edm.Double\","
                    + "\"neg\":\"-Infinity\"}");
    azure
        .tableClient(table.getTableName(), annotated)
        .createEntity(new TableEntity("types", "nonfinite"));
    TableEntity read = table.getEntity("types", "nonfinite");
    assertThat(read.getProperty("inf")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(read.getProperty("neg")).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void timestampAndEtagAreSetAndTheEtagChangesOnEveryUpdate() {
    table.createEntity(new TableEntity("types", "versions").addProperty("v", 1));
    TableEntity first = table.getEntity("types", "versions");

    table.updateEntity(new TableEntity("types", "versions").addProperty("v", 2));
    TableEntity second = table.getEntity("types", "versions");

    assertThat(first.getTimestamp()).isNotNull();
    assertThat(first.getETag()).startsWith("W/\"datetime'");
    assertThat(second.getETag()).isNotEqualTo(first.getETag());
    assertThat(second.getTimestamp()).isAfter(first.getTimestamp());
  }

  @Test
  void etagIsTheTimestampInAzuresWeakEtagForm() {
    table.createEntity(new TableEntity("types", "etagform"));
    TableEntity read = table.getEntity("types", "etagform");

    String inside =
        read.getETag()
            .substring("W/\"datetime'".length(), read.getETag().length() - "'\"".length());
    OffsetDateTime fromEtag = OffsetDateTime.parse(inside.replace("%3A", ":"));

    assertThat(fromEtag.toInstant()).isEqualTo(read.getTimestamp().toInstant());
  }
}
