package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Item;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.server.ApiResponse;
import io.viewbase.server.ViewBuilds;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one ISO time formatter ({@code Value.DateTime.toIsoString}) wherever a time is written: a
 * datetime value reads as the same text through the native API and the Azure dialect and keys a
 * view entry with it, and the ETag of every answer is the item's timestamp as both APIs write it,
 * colons percent-encoded.
 */
class IsoTimesAcrossApisTest {
  private static final List<String> TIMES =
      List.of(
          "1601-01-01T00:00:00.0000000Z",
          "1970-01-01T00:00:00.0000000Z",
          "2026-11-30T12:09:16.1234567Z",
          "9999-12-31T23:59:59.9999999Z");

  private final ThreeApis apis = new ThreeApis();

  @AfterEach
  void close() {
    apis.close();
  }

  @Test
  void aDatetimeAndTheTimestampAreTheSameTextInEveryApiAndInViewKeysAndEtags()
      throws InterruptedException {
    apis.db.createView(ViewDefinition.of("RulesByTime", ThreeApis.TABLE, "all", "{t}"));
    ViewBuilds.awaitReady(apis.db, "RulesByTime");
    for (String time : TIMES) {
      Item written =
          apis.db
              .table(ThreeApis.TABLE)
              .upsert(Item.of("p", "r", Map.of("t", Value.of(Instant.parse(time)))));
      ApiResponse nativeRead = apis.nativeGet();
      AzureResponse azureRead = apis.azureGet();

      assertThat(nativeRead.bodyText()).as(time).contains("\"t\":\"" + time + "\"");
      assertThat(azureRead.bodyText()).as(time).contains("\"t\":\"" + time + "\"");
      assertThat(apis.db.table("RulesByTime").query(Query.all()).items())
          .as(time)
          .singleElement()
          .satisfies(entry -> assertThat(entry.id()).isEqualTo(time));

      String timestamp = Value.DateTime.of(written.timestamp()).toIsoString();
      String etag = "W/\"datetime'" + timestamp.replace(":", "%3A") + "'\"";
      assertThat(written.etag()).as(time).isEqualTo(etag);
      assertThat(nativeRead.headers().get("ETag")).as(time).isEqualTo(etag);
      assertThat(azureRead.header("ETag")).as(time).isEqualTo(etag);
      assertThat(nativeRead.bodyText()).as(time).contains("\"_timestamp\":\"" + timestamp + "\"");
      assertThat(azureRead.bodyText()).as(time).contains("\"Timestamp\":\"" + timestamp + "\"");
    }
  }
}
