package io.viewbase.server.azure;

import static io.viewbase.server.azure.ThreeApis.OK;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TimeToLive;
import io.viewbase.api.Value;
import io.viewbase.core.CoreDatabaseProvider;
import io.viewbase.server.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TimeToLive}'s rule through every interface: a {@code _ttl} value as a row says, written
 * through the Java API, the native API and the Azure dialect, answers the row's outcome in each
 * (the dialect's refusal being InvalidValue's Azure code); and an item written with it through any
 * of them is absent to the reads of all of them once it has expired.
 */
class TtlAcrossApisTest {
  private static final String INVALID = ErrorCode.InvalidValue.name();
  private static final String AZURE_INVALID = ErrorCode.InvalidValue.azure().code();
  private static final String SOON = "2000-01-01T00:00:00.0000000Z";

  /**
   * A {@code _ttl} as the Java API's value and as JSON members (the native API and the dialect read
   * the same annotations), and the outcome; {@code why} is null when the interfaces agree.
   */
  private record Row(Value java, String json, String outcome, String why) {}

  private static final List<Row> ROWS =
      List.of(
          new Row(Value.of(3600), "\"_ttl\":3600", OK, null),
          new Row(Value.of(1), "\"_ttl\":1", OK, null),
          new Row(Value.of(2_147_483_647L), "\"_ttl\":2147483647", OK, null),
          new Row(Value.of(60L), "\"_ttl\":\"60\",\"_ttl@odata.type\":\"Edm.Int64\"", OK, null),
          new Row(
              Value.DateTime.of(Instant.parse(SOON)),
              "\"_ttl\":\"" + SOON + "\",\"_ttl@odata.type\":\"Edm.DateTime\"",
              OK,
              null),
          new Row(Value.of(0), "\"_ttl\":0", INVALID, null),
          new Row(Value.of(-60), "\"_ttl\":-60", INVALID, null),
          new Row(Value.of(2_147_483_648L), "\"_ttl\":2147483648", INVALID, null),
          new Row(new Value.Double(1.5), "\"_ttl\":1.5", INVALID, null),
          new Row(Value.of("3600"), "\"_ttl\":\"3600\"", INVALID, null),
          new Row(Value.of(true), "\"_ttl\":true", INVALID, null),
          new Row(Value.Null.INSTANCE, "\"_ttl\":null", OK, null));

  private final MovableClock clock = new MovableClock();
  private final ThreeApis apis =
      new ThreeApis(CoreDatabaseProvider.open(OpenOptions.inMemory(), clock));

  @AfterEach
  void close() {
    apis.close();
  }

  @Test
  void everyInterfaceAnswersEachTtlAsItsRowSays() {
    for (Row row : ROWS) {
      String label = "_ttl " + row.json();
      String azure = row.outcome().equals(OK) ? OK : AZURE_INVALID;
      Map<String, Value> properties = Map.of(TimeToLive.PROPERTY, row.java());
      assertThat(apis.javaApi(properties)).as("Java API, " + label).isEqualTo(row.outcome());
      assertThat(apis.nativeApi(row.json())).as("native API, " + label).isEqualTo(row.outcome());
      assertThat(apis.azureApi(row.json())).as("Azure dialect, " + label).isEqualTo(azure);
    }
  }

  @Test
  void anItemWrittenWithATtlThroughAnyInterfaceIsAbsentToEveryReadOnceExpired() {
    List<java.util.function.IntConsumer> writes =
        List.of(
            ttl -> apis.javaApi(Map.of(TimeToLive.PROPERTY, Value.of(ttl))),
            ttl -> apis.nativeApi("\"_ttl\":" + ttl),
            ttl -> apis.azureApi("\"_ttl\":" + ttl));
    for (java.util.function.IntConsumer write : writes) {
      int ttl = clock.secondsFromNow(60); // each write's life ends a minute after the clock's now
      write.accept(ttl);
      assertThat(apis.nativeGet().status()).isEqualTo(200);
      assertThat(apis.azureGet().status()).isEqualTo(200);
      assertThat(apis.stored(TimeToLive.PROPERTY)).isEqualTo(Value.of(ttl));
      clock.advance(Duration.ofMinutes(2));
      assertThat(apis.db.table(ThreeApis.TABLE).get("p", "r")).isEmpty();
      assertThat(apis.nativeGet().status()).isEqualTo(404);
      assertThat(apis.azureGet().status()).isEqualTo(404);
    }
  }
}
