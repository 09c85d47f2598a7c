package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class ViewJsonTest {
  private static final Instant WHEN = Instant.parse("2026-11-30T12:00:00.1234567Z");

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ViewbaseException failure(ThrowingCallable call, ErrorCode code) {
    ViewbaseException[] caught = new ViewbaseException[1];
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              caught[0] = e;
            });
    return caught[0];
  }

  @Test
  void itemWriteOfAViewItemEmitsItsSourceAfterTheTimestampAndReadsItBack() {
    Item viewItem =
        Item.storedView(
            "all", "ann@x", Map.of("name", Value.of("Ann")), "W/\"1\"", WHEN, "people", "g1");
    String json = new String(ItemJson.write(viewItem), StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"partitionKey\":\"all\",\"id\":\"ann@x\",\"_etag\":\"W/\\\"1\\\"\","
                + "\"_timestamp\":\"2026-11-30T12:00:00.1234567Z\",\"_sourcePartitionKey\":\"people\",\"_sourceId\":\"g1\","
                + "\"name\":\"Ann\"}");
    Item back = ItemJson.readStored(utf8(json), Limits.DEFAULT);
    assertThat(back).isEqualTo(viewItem);
    assertThat(back.sourceId()).isEqualTo("g1");
  }

  @Test
  void itemWriteOfATableItemHasNoSource() {
    Item item = Item.stored("p", "i", Map.of(), "W/\"1\"", WHEN);
    assertThat(new String(ItemJson.write(item), StandardCharsets.UTF_8)).doesNotContain("_source");
    assertThat(ItemJson.readStored(ItemJson.write(item), Limits.DEFAULT).sourceId()).isNull();
  }

  @Test
  void itemBodyWithSourceMembersWritesOnlyUserProperties() {
    Item written =
        ItemJson.read(
                utf8("{\"_sourcePartitionKey\":\"p\",\"_sourceId\":\"i\",\"a\":1}"), Limits.DEFAULT)
            .addressedTo("x", "y");
    assertThat(written.properties()).containsOnlyKeys("a");
    assertThat(written.sourceId()).isNull();
  }

  @Test
  void definitionReadTakesTheNameFromTheAddress() {
    ViewDefinition d =
        ViewDefinitionJson.read(
            utf8(
                "{\"source\":\"People\",\"partitionBy\":\"all\",\"idBy\":\"{email}\","
                    + "\"where\":\"active eq true\",\"select\":[\"email\",\"name\"]}"),
            "PeopleByEmail");
    assertThat(d)
        .isEqualTo(
            new ViewDefinition(
                "PeopleByEmail",
                "People",
                "all",
                "{email}",
                "active eq true",
                List.of("email", "name")));
    assertThat(
            ViewDefinitionJson.read(utf8("{\"name\":\"V\",\"source\":\"S\",\"idBy\":null}"), "V"))
        .isEqualTo(ViewDefinition.of("V", "S", null, null));
  }

  @Test
  void definitionWriteThenReadGivesTheSameDefinition() {
    ViewDefinition d = new ViewDefinition("V", "S", "{a}", "x_{b:08}", null, List.of("a"));
    assertThat(ViewDefinitionJson.read(ViewDefinitionJson.write(d), "V")).isEqualTo(d);
  }

  @Test
  void kindsAndRetentionWriteThenReadGiveTheSameDefinition() {
    ViewDefinition history =
        ViewDefinition.history("V", "S")
            .withRetention(new ViewDefinition.Retention(10, java.time.Duration.ofHours(12)));
    assertThat(ViewDefinitionJson.read(ViewDefinitionJson.write(history), "V")).isEqualTo(history);
    ViewDefinition partitions = ViewDefinition.partitions("V", "S").withWhere("a eq 1");
    assertThat(ViewDefinitionJson.read(ViewDefinitionJson.write(partitions), "V"))
        .isEqualTo(partitions);
    assertThat(
            ViewDefinitionJson.read(
                utf8(
                    "{\"source\":\"S\",\"kind\":\"History\","
                        + "\"retention\":{\"maxAge\":\"P30D\"}}"),
                "V"))
        .isEqualTo(
            ViewDefinition.history("V", "S")
                .withRetention(ViewDefinition.Retention.age(java.time.Duration.ofDays(30))));
    assertThat(ViewDefinitionJson.read(utf8("{\"source\":\"S\"}"), "V").kind())
        .isEqualTo(ViewDefinition.Kind.COPY);
  }

  @Test
  void kindsAndRetentionOfWrongShapesFailWithInvalidView() {
    failure(
        () -> ViewDefinitionJson.read(utf8("{\"source\":\"S\",\"kind\":\"ledger\"}"), "V"),
        ErrorCode.InvalidView);
    failure(
        () -> ViewDefinitionJson.read(utf8("{\"source\":\"S\",\"retention\":5}"), "V"),
        ErrorCode.InvalidView);
    failure(
        () ->
            ViewDefinitionJson.read(
                utf8("{\"source\":\"S\",\"retention\":{\"maxVersions\":-1}}"), "V"),
        ErrorCode.InvalidView);
    failure(
        () ->
            ViewDefinitionJson.read(
                utf8("{\"source\":\"S\",\"retention\":{\"maxAge\":\"a week\"}}"), "V"),
        ErrorCode.InvalidView);
    failure(
        () ->
            ViewDefinitionJson.read(utf8("{\"source\":\"S\",\"retention\":{\"versions\":3}}"), "V"),
        ErrorCode.InvalidView);
  }

  @Test
  void definitionReadWithUnknownMembersFailsWithInvalidViewNamingThem() {
    ViewbaseException e =
        failure(
            () ->
                ViewDefinitionJson.read(
                    utf8("{\"source\":\"S\",\"idby\":\"{email}\",\"filter\":{\"x\":1}}"), "V"),
            ErrorCode.InvalidView);
    assertThat(e.context()).containsEntry("members", List.of("filter", "idby"));
    assertThat(e.getMessage()).contains("Unknown members");
  }

  @Test
  void definitionReadWithAnotherNameFailsWithInvalidView() {
    ViewbaseException e =
        failure(
            () -> ViewDefinitionJson.read(utf8("{\"name\":\"Other\",\"source\":\"S\"}"), "V"),
            ErrorCode.InvalidView);
    assertThat(e.context())
        .containsEntry("field", "name")
        .containsEntry("body", "Other")
        .containsEntry("address", "V");
  }

  @Test
  void definitionReadOfWrongShapesFailsWithTheirCodes() {
    failure(() -> ViewDefinitionJson.read(utf8("{\"idBy\":\"{a}\"}"), "V"), ErrorCode.InvalidView);
    failure(() -> ViewDefinitionJson.read(utf8("{\"source\":1}"), "V"), ErrorCode.InvalidView);
    failure(
        () -> ViewDefinitionJson.read(utf8("{\"source\":\"S\",\"select\":\"a,b\"}"), "V"),
        ErrorCode.InvalidView);
    failure(
        () -> ViewDefinitionJson.read(utf8("{\"source\":\"S\",\"select\":[1]}"), "V"),
        ErrorCode.InvalidView);
    failure(
        () -> ViewDefinitionJson.read(utf8("{\"source\":\"S\",\"source\":\"T\"}"), "V"),
        ErrorCode.InvalidJson);
    failure(() -> ViewDefinitionJson.read(utf8("[]"), "V"), ErrorCode.InvalidJson);
    failure(() -> ViewDefinitionJson.read(utf8("{\"source\":"), "V"), ErrorCode.InvalidJson);
    failure(() -> ViewDefinitionJson.read(new byte[0], "V"), ErrorCode.InvalidJson);
  }

  @Test
  void statusWriteThenReadGivesTheSameStatus() {
    ViewStatus failed =
        new ViewStatus(
            new ViewDefinition("V", "S", "all", "{email}", "a eq 1", List.of("email")),
            ViewStatus.FAILED,
            new ViewStatus.Progress(10, 12, 1234.5, 0),
            List.of(new ViewStatus.Conflict("all", "x@y", "p", "1", "p", "2")),
            WHEN);
    String json = new String(ViewStatusJson.write(failed), StandardCharsets.UTF_8);
    assertThat(json)
        .startsWith(
            "{\"name\":\"V\",\"source\":\"S\",\"partitionBy\":\"all\",\"idBy\":\"{email}\","
                + "\"where\":\"a eq 1\",\"select\":[\"email\"],\"kind\":\"copy\",\"retention\":null,"
                + "\"state\":\"failed\",\"progress\":{\"done\":10,\"total\":12,"
                + "\"itemsPerSecond\":1234.5,\"etaSeconds\":0},\"conflicts\":[{\"viewPartitionKey\":\"all\"");
    assertThat(ViewStatusJson.read(utf8(json))).isEqualTo(failed);

    ViewStatus building =
        new ViewStatus(
            ViewDefinition.of("V", "S", null, null),
            ViewStatus.BUILDING,
            new ViewStatus.Progress(0, 0, 0, -1),
            List.of(),
            WHEN);
    assertThat(ViewStatusJson.read(ViewStatusJson.write(building))).isEqualTo(building);
  }

  @Test
  void statusReadSkipsMembersItDoesNotKnow() {
    ViewStatus read =
        ViewStatusJson.read(
            utf8("{\"name\":\"V\",\"source\":\"S\",\"state\":\"ready\",\"shards\":[1,{}]}"));
    assertThat(read.isReady()).isTrue();
    assertThat(read.definition().source()).isEqualTo("S");
  }

  @Test
  void verifyReportWriteThenReadGivesTheSameReportWithItsDrift() {
    VerifyReport report =
        new VerifyReport(
            "V",
            100,
            1,
            2,
            3,
            true,
            List.of(new VerifyReport.Difference("missing", "all", "a@x", "p", "1")));
    String json = new String(VerifyReportJson.write(report), StandardCharsets.UTF_8);
    assertThat(json).contains("\"drift\":6", "\"repaired\":true", "\"kind\":\"missing\"");
    assertThat(VerifyReportJson.read(utf8(json))).isEqualTo(report);
  }
}
