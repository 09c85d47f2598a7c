package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableOptionsJsonTest {
  private static final TableOptions FULL =
      new TableOptions(
          new TableOptions.ChangeFeed(true, true, Duration.ofHours(2), 5000), Duration.ofHours(1));

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ViewbaseException refused(String body, ErrorCode code) {
    ViewbaseException[] caught = new ViewbaseException[1];
    assertThatThrownBy(() -> TableOptionsJson.read(utf8(body), TableOptions.DEFAULT))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              caught[0] = e;
            });
    return caught[0];
  }

  @Test
  void optionsAreWrittenWithIsoDurations() {
    assertThat(new String(TableOptionsJson.write(FULL), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"changeFeed\":{\"enabled\":true,\"beforeImages\":true,\"retention\":\"PT2H\","
                + "\"maxEntries\":5000},\"ttl\":\"PT1H\"}");
    assertThat(new String(TableOptionsJson.write(TableOptions.DEFAULT), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"changeFeed\":{\"enabled\":false,\"beforeImages\":false,\"retention\":\"PT24H\","
                + "\"maxEntries\":10000000},\"ttl\":null}");
  }

  @Test
  void writeThenReadGivesTheSameOptions() {
    for (TableOptions options : List.of(FULL, TableOptions.DEFAULT)) {
      assertThat(TableOptionsJson.read(TableOptionsJson.write(options), TableOptions.DEFAULT))
          .isEqualTo(options);
      assertThat(TableOptionsJson.read(TableOptionsJson.write(options), FULL)).isEqualTo(options);
    }
  }

  @Test
  void absentMembersKeepTheBase() {
    assertThat(TableOptionsJson.read(utf8("{}"), FULL)).isEqualTo(FULL);
    assertThat(
            TableOptionsJson.read(
                utf8("{\"changeFeed\":{\"enabled\":true}}"), TableOptions.DEFAULT))
        .isEqualTo(TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON));
    assertThat(TableOptionsJson.read(utf8("{\"changeFeed\":{\"enabled\":false}}"), FULL))
        .isEqualTo(
            new TableOptions(
                new TableOptions.ChangeFeed(false, true, Duration.ofHours(2), 5000),
                Duration.ofHours(1)));
    assertThat(TableOptionsJson.read(utf8("{\"ttl\":\"P7D\"}"), FULL).ttl())
        .isEqualTo(Duration.ofDays(7));
  }

  @Test
  void aNullTtlRemovesIt() {
    assertThat(TableOptionsJson.read(utf8("{\"ttl\":null}"), FULL).ttl()).isNull();
  }

  @Test
  void unknownMembersAreRefusedByName() {
    ViewbaseException e =
        refused("{\"changefeed\":{},\"ttl\":null,\"x\":1}", ErrorCode.InvalidJson);
    assertThat(e.context().get("members")).isEqualTo(List.of("changefeed", "x"));
    e = refused("{\"changeFeed\":{\"retension\":\"PT1H\"}}", ErrorCode.InvalidJson);
    assertThat(e.context().get("members")).isEqualTo(List.of("changeFeed.retension"));
  }

  @Test
  void valuesOfTheWrongTypeAreInvalidJsonNamingTheField() {
    assertThat(refused("{\"ttl\":3600}", ErrorCode.InvalidJson).context().get("field"))
        .isEqualTo("ttl");
    assertThat(refused("{\"ttl\":\"1h\"}", ErrorCode.InvalidJson).context().get("field"))
        .isEqualTo("ttl");
    assertThat(
            refused("{\"changeFeed\":{\"enabled\":\"yes\"}}", ErrorCode.InvalidJson)
                .context()
                .get("field"))
        .isEqualTo("changeFeed.enabled");
    assertThat(
            refused("{\"changeFeed\":{\"maxEntries\":1.5}}", ErrorCode.InvalidJson)
                .context()
                .get("field"))
        .isEqualTo("changeFeed.maxEntries");
    assertThat(
            refused("{\"changeFeed\":{\"retention\":null}}", ErrorCode.InvalidJson)
                .context()
                .get("field"))
        .isEqualTo("changeFeed.retention");
    assertThat(refused("{\"changeFeed\":true}", ErrorCode.InvalidJson).context().get("field"))
        .isEqualTo("changeFeed");
    refused("[]", ErrorCode.InvalidJson);
    refused("{\"ttl\":null,\"ttl\":null}", ErrorCode.InvalidJson);
  }

  @Test
  void valuesOutOfRangeAreInvalidInput() {
    refused("{\"ttl\":\"PT0S\"}", ErrorCode.InvalidInput);
    refused("{\"changeFeed\":{\"retention\":\"-PT1H\"}}", ErrorCode.InvalidInput);
    refused("{\"changeFeed\":{\"maxEntries\":0}}", ErrorCode.InvalidInput);
  }

  @Test
  void aTableDescriptionCarriesItsOptions() {
    TableInfo info = new TableInfo("People", TableInfo.TABLE, null, "ready", Instant.EPOCH);
    byte[] json = TableInfoJson.write(info, FULL);
    assertThat(new String(json, StandardCharsets.UTF_8))
        .startsWith("{\"name\":\"People\",\"kind\":\"table\"")
        .contains(",\"options\":{\"changeFeed\":{\"enabled\":true");
    assertThat(TableInfoJson.read(json)).isEqualTo(info);
    assertThat(TableOptionsJson.readDescribed(json)).contains(FULL);
    assertThat(TableOptionsJson.readDescribed(TableInfoJson.write(info))).isEmpty();
    assertThat(TableInfoJson.write(info, null)).isEqualTo(TableInfoJson.write(info));
  }
}
