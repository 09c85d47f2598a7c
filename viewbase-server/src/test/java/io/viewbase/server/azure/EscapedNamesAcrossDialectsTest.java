package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.PropertyName;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.AttributeNames;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The two dialects whose names include Viewbase's reserved ones store them by one rule ({@link
 * PropertyName#escaped}): a name that both accept is stored under the same property, so an item
 * written through one reads back with the same names through the other. Where a row gives a reason,
 * the dialects differ on purpose.
 */
class EscapedNamesAcrossDialectsTest {
  private static final String REFUSED = "refused";

  /** A name, what each dialect stores it as (or {@link #REFUSED}), and why they differ, if so. */
  private record Row(String name, String azure, String dynamoDb, String why) {
    static Row same(String name, String stored) {
      return new Row(name, stored, stored, null);
    }
  }

  private static final List<Row> ROWS =
      List.of(
          Row.same("plain", "plain"),
          Row.same("id", "$id"),
          Row.same("partitionKey", "$partitionKey"),
          Row.same("_x", "$_x"),
          Row.same("_timestamp", "$_timestamp"),
          Row.same("_etag", "$_etag"),
          Row.same("Id", "Id"),
          Row.same("PartitionKey", "PartitionKey"),
          new Row(
              "_ttl",
              "_ttl",
              "$_ttl",
              "DynamoDB's time-to-live is an attribute the table names (epoch seconds), never"
                  + " Viewbase's _ttl"),
          new Row("$x", REFUSED, "$x", "'$' is no Azure identifier character; DynamoDB allows it"),
          Row.same("$id", REFUSED),
          Row.same("$_x", REFUSED),
          new Row(
              "$_ttl",
              REFUSED,
              REFUSED,
              "the same outcome for two reasons: Azure refuses every '$', DynamoDB its own escape"),
          Row.same("a@b", REFUSED),
          Row.same("", REFUSED));

  @Test
  void eachDialectStoresEachNameAsItsRowSays() {
    for (Row row : ROWS) {
      assertThat(stored(EscapedNamesAcrossDialectsTest::azureAsWritten, row.name()))
          .as("Azure, %s", row.name())
          .isEqualTo(row.azure());
      assertThat(stored(AttributeNames::property, row.name()))
          .as("DynamoDB, %s", row.name())
          .isEqualTo(row.dynamoDb());
    }
  }

  @Test
  void rowsWithoutAReasonAreTheSameInBothDialects() {
    for (Row row : ROWS) {
      if (row.why() == null) {
        assertThat(row.dynamoDb()).as(row.name()).isEqualTo(row.azure());
      }
    }
  }

  @Test
  void whatADialectStoresReadsBackAsTheNameItWasGiven() {
    for (Row row : ROWS) {
      if (!row.azure().equals(REFUSED)) {
        assertThat(PropertyNames.azure(row.azure())).as(row.name()).isEqualTo(row.name());
      }
      if (!row.dynamoDb().equals(REFUSED)) {
        assertThat(AttributeNames.attribute(row.dynamoDb())).as(row.name()).isEqualTo(row.name());
      }
    }
  }

  @Test
  void aPropertyBothDialectsCanStoreReadsTheSameThroughEither() {
    for (Row row : ROWS) {
      if (row.why() == null && !row.azure().equals(REFUSED)) {
        assertThat(AttributeNames.attribute(row.azure()))
            .as(row.name())
            .isEqualTo(PropertyNames.azure(row.azure()));
      }
    }
  }

  /**
   * The Azure dialect's stored name, checked as the engine checks it on a write (the dialect leaves
   * the characters of a name to it; the DynamoDB dialect checks them as it maps the name).
   */
  private static String azureAsWritten(String name) {
    String stored = PropertyNames.stored(name);
    PropertyName.check(stored, true, 255);
    return stored;
  }

  private static String stored(UnaryOperator<String> rule, String name) {
    try {
      return rule.apply(name);
    } catch (ViewbaseException e) {
      assertThat(e.code()).as(name).isEqualTo(ErrorCode.InvalidPropertyName);
      return REFUSED;
    }
  }
}
