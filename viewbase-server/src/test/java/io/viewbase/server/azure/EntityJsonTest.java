package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Entities as Azure's JSON, both ways, per Edm type and metadata level. */
class EntityJsonTest {
  private static Map<String, Value> read(String json) {
    return EntityReader.read(json.getBytes(StandardCharsets.UTF_8)).properties();
  }

  private static ViewbaseException refused(String json) {
    return catchThrowableOfType(() -> read(json), ViewbaseException.class);
  }

  /** The Azure code a body is refused with. */
  private static String refusedWith(String json) {
    return refused(json).code().azure().code();
  }

  @Test
  void untypedJsonValuesTakeTheirTypeFromTheirForm() {
    assertThat(
            read(
                "{\"s\":\"x\",\"b\":true,\"i\":-7,\"big\":5000000000,\"d\":1.5,\"e\":1e3,\"z\":5.0}"))
        .containsExactly(
            Map.entry("s", Value.of("x")),
            Map.entry("b", Value.of(true)),
            Map.entry("i", Value.of(-7)),
            Map.entry("big", Value.of(5_000_000_000.0)),
            Map.entry("d", Value.of(1.5)),
            Map.entry("e", Value.of(1000.0)),
            Map.entry("z", Value.of(5.0)));
  }

  @Test
  void annotationsTypeValuesWhetherTheyComeBeforeOrAfterThem() {
    Map<String, Value> p =
        read(
            "{\"l\":\"9223372036854775807\",\"l@odata.type\":\"Edm.Int64\","
                + "\"t@odata.type\":\"Edm.DateTime\",\"t\":\"2026-11-30T12:00:00.1234567Z\","
                + "\"g@odata.type\":\"Edm.Guid\",\"g\":\"C9DA6455-213D-42C9-9A79-3E9149A57833\","
                + "\"x@odata.type\":\"Edm.Binary\",\"x\":\"AQID\"}");

    assertThat(p.get("l")).isEqualTo(Value.of(Long.MAX_VALUE));
    assertThat(((Value.DateTime) p.get("t")).toInstant())
        .isEqualTo(Instant.parse("2026-11-30T12:00:00.1234567Z"));
    assertThat(p.get("g"))
        .isEqualTo(Value.of(UUID.fromString("c9da6455-213d-42c9-9a79-3e9149a57833")));
    assertThat(p.get("x")).isEqualTo(Value.of(new byte[] {1, 2, 3}));
  }

  @Test
  void redundantAndStringValuedAnnotationsAsOtherSdksSendThemAreAccepted() {
    Map<String, Value> p =
        read(
            "{\"PartitionKey@odata.type\":\"Edm.String\",\"PartitionKey\":\"p\","
                + "\"n@odata.type\":\"Edm.Int32\",\"n\":\"5\",\"d@odata.type\":\"Edm.Double\",\"d\":\"5\","
                + "\"nan@odata.type\":\"Edm.Double\",\"nan\":\"NaN\",\"inf@odata.type\":\"Edm.Double\",\"inf\":\"-Infinity\","
                + "\"b@odata.type\":\"Edm.Boolean\",\"b\":\"true\",\"l@odata.type\":\"Edm.Int64\",\"l\":12}");

    assertThat(p)
        .containsEntry("n", Value.of(5))
        .containsEntry("d", Value.of(5.0))
        .containsEntry("nan", Value.of(Double.NaN))
        .containsEntry("inf", Value.of(Double.NEGATIVE_INFINITY))
        .containsEntry("b", Value.of(true))
        .containsEntry("l", Value.of(12L))
        .doesNotContainKey("PartitionKey");
  }

  @Test
  void dateTimesInEveryFormClientsSendBecomeUtcTicks() {
    Map<String, Value> p =
        read(
            "{\"a@odata.type\":\"Edm.DateTime\",\"a\":\"2008-07-10T00:00:00\","
                + "\"b@odata.type\":\"Edm.DateTime\",\"b\":\"2008-07-10T02:00+02:00\","
                + "\"c@odata.type\":\"Edm.DateTime\",\"c\":\"2008-07-10T00:00:00.123456789Z\"}");

    assertThat(((Value.DateTime) p.get("a")).toInstant())
        .isEqualTo(Instant.parse("2008-07-10T00:00:00Z"));
    assertThat(((Value.DateTime) p.get("b")).toInstant())
        .isEqualTo(Instant.parse("2008-07-10T00:00:00Z"));
    assertThat(((Value.DateTime) p.get("c")).toInstant())
        .isEqualTo(Instant.parse("2008-07-10T00:00:00.1234567Z"));
  }

  @Test
  void nullsOdataMembersAndTimestampAreDropped() {
    assertThat(
            read(
                "{\"gone\":null,\"odata.etag\":\"W/\\\"x\\\"\",\"Timestamp\":\"2020-01-01T00:00:00Z\",\"k\":1}"))
        .containsOnlyKeys("k");
  }

  @Test
  void valuesThatDoNotFitAreRefusedWithAzuresCodes() {
    assertThat(refusedWith("{\"l@odata.type\":\"Edm.Int64\",\"l\":\"12x\"}"))
        .isEqualTo("InvalidInput");
    assertThat(refusedWith("{\"t@odata.type\":\"Edm.DateTime\",\"t\":\"1600-12-31T23:59:59Z\"}"))
        .isEqualTo("InvalidInput");
    assertThat(refusedWith("{\"o\":{\"nested\":1}}")).isEqualTo("InvalidInput");
    assertThat(refusedWith("{\"a\":1,\"a\":2}")).isEqualTo("DuplicatePropertiesSpecified");
    assertThat(refusedWith("{\"s\":\"" + "x".repeat(32 * 1024 + 1) + "\"}"))
        .isEqualTo("PropertyValueTooLarge");
    assertThat(refused("{\"q@odata.type\":\"Edm.Decimal\",\"q\":\"1\"}").getMessage())
        .contains("Edm.Decimal");
    assertThat(refusedWith("{\"a\":")).isEqualTo("InvalidInput");
  }

  private static String write(Item item, MetadataLevel level) {
    return new String(
        EntityWriter.single(
            item, new EntityWriter.Shape("T", "acct", "http://h/acct", level, null)),
        StandardCharsets.UTF_8);
  }

  private static final Item STORED =
      Item.stored(
          "p",
          "r",
          Map.of("l", Value.of(5L)),
          "W/\"datetime'2026-01-01T00%3A00%3A00.0000001Z'\"",
          Instant.parse("2026-01-01T00:00:00.0000001Z"));

  @Test
  void writesDoublesWithADecimalPointAndAnnotatesWhatJsonCannotSay() {
    String json =
        write(
            Item.builder("p", "r")
                .put("d", 42.0)
                .put("nan", Double.NaN)
                .put("t", Instant.EPOCH)
                .put("g", new UUID(0, 1))
                .put("x", new byte[] {1})
                .build(),
            MetadataLevel.MINIMAL);

    assertThat(json)
        .contains(
            "\"d\":42.0",
            "\"nan@odata.type\":\"Edm.Double\",\"nan\":\"NaN\"",
            "\"t@odata.type\":\"Edm.DateTime\",\"t\":\"1970-01-01T00:00:00.0000000Z\"",
            "\"g@odata.type\":\"Edm.Guid\",\"g\":\"00000000-0000-0000-0000-000000000001\"",
            "\"x@odata.type\":\"Edm.Binary\",\"x\":\"AQ==\"");
  }

  @Test
  void writesADecimalAsTheDoubleThatIsExactlyItElseAsItsText() {
    for (MetadataLevel level : MetadataLevel.values()) {
      String json =
          write(
              Item.builder("p", "r")
                  .put("half", new BigDecimal("12.50"))
                  .put("whole", new BigDecimal("1E+2"))
                  .put("tenth", new BigDecimal("0.1"))
                  .put("digits38", new BigDecimal("1234567890123456789.0123456789012345678"))
                  .put("huge", new BigDecimal("1E+400"))
                  .put("tiny", new BigDecimal("-1E-400"))
                  .put("zero", BigDecimal.ZERO)
                  .build(),
              level);

      assertThat(json)
          .as(level.toString())
          .contains(
              "\"half\":12.5,",
              "\"whole\":100.0,",
              "\"tenth\":\"0.1\"",
              "\"digits38\":\"1234567890123456789.0123456789012345678\"",
              "\"huge\":\"1" + "0".repeat(400) + "\"",
              "\"tiny\":\"-0." + "0".repeat(399) + "1\"",
              "\"zero\":0.0")
          .doesNotContain("Edm.Decimal");
    }
    // Azure counts a decimal as what it is written as: a Double's 8 bytes, or its text's String
    assertThat(EntitySize.of("p", "r", Map.of("d", Value.of(new BigDecimal("12.5")))))
        .isEqualTo(26);
    assertThat(EntitySize.of("p", "r", Map.of("d", Value.of(new BigDecimal("0.1"))))).isEqualTo(28);
  }

  @Test
  void metadataLevelsDecideWhatSurroundsTheProperties() {
    assertThat(write(STORED, MetadataLevel.NONE))
        .isEqualTo(
            "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"Timestamp\":\"2026-01-01T00:00:00.0000001Z\",\"l\":\"5\"}");
    assertThat(write(STORED, MetadataLevel.MINIMAL))
        .isEqualTo(
            "{\"odata.metadata\":\"http://h/acct/$metadata#T/@Element\","
                + "\"odata.etag\":\"W/\\\"datetime'2026-01-01T00%3A00%3A00.0000001Z'\\\"\",\"PartitionKey\":\"p\",\"RowKey\":\"r\","
                + "\"Timestamp\":\"2026-01-01T00:00:00.0000001Z\",\"l@odata.type\":\"Edm.Int64\",\"l\":\"5\"}");
    assertThat(write(STORED, MetadataLevel.FULL))
        .contains(
            "\"odata.type\":\"acct.T\"",
            "\"odata.id\":\"http://h/acct/T(PartitionKey='p',RowKey='r')\"",
            "\"odata.editLink\":\"T(PartitionKey='p',RowKey='r')\"",
            "\"Timestamp@odata.type\":\"Edm.DateTime\"");
  }

  @Test
  void aPageHoldsOnlyMetadataAndValue() {
    String json =
        new String(
            EntityWriter.page(
                List.of(STORED),
                new EntityWriter.Shape(
                    "T", "acct", "http://h/acct", MetadataLevel.MINIMAL, java.util.Set.of("l"))),
            StandardCharsets.UTF_8);

    assertThat(json)
        .isEqualTo(
            "{\"odata.metadata\":\"http://h/acct/$metadata#T\",\"value\":[{\"odata.etag\":"
                + "\"W/\\\"datetime'2026-01-01T00%3A00%3A00.0000001Z'\\\"\",\"l@odata.type\":\"Edm.Int64\",\"l\":\"5\"}]}");
  }

  @Test
  void aSelectedPropertyTheEntityLacksIsWrittenAsNull() {
    String json =
        new String(
            EntityWriter.page(
                List.of(STORED),
                new EntityWriter.Shape(
                    "T",
                    "acct",
                    "http://h/acct",
                    MetadataLevel.NONE,
                    new java.util.LinkedHashSet<>(List.of("RowKey", "missing", "l")))),
            StandardCharsets.UTF_8);

    assertThat(json).isEqualTo("{\"value\":[{\"RowKey\":\"r\",\"missing\":null,\"l\":\"5\"}]}");
  }

  @Test
  void metadataLevelFollowsFormatThenAccept() {
    assertThat(
            MetadataLevel.choose(
                "application/json;odata=fullmetadata", "application/json;odata=nometadata"))
        .isEqualTo(MetadataLevel.FULL);
    assertThat(MetadataLevel.choose(null, "application/json; odata=nometadata"))
        .isEqualTo(MetadataLevel.NONE);
    assertThat(MetadataLevel.choose(null, "application/json")).isEqualTo(MetadataLevel.MINIMAL);
    assertThat(MetadataLevel.choose(null, null)).isEqualTo(MetadataLevel.MINIMAL);
  }
}
