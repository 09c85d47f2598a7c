package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Every catalog record round-trips through {@link CatalogCodec}, and its bytes are exactly those
 * the catalog wrote before it had records: the maps of {@link OldCatalogLayout}, encoded as items.
 */
class CatalogCodecTest {
  private static final Instant CREATED = Instant.parse("2025-03-01T10:15:30.1234567Z");

  @Test
  void tableRecordRoundTripsAndEncodesAsTheOldLayout() {
    TableRecord table = new TableRecord("People", 1, CREATED);
    byte[] bytes = CatalogCodec.encode(table);
    assertThat(CatalogCodec.decode(bytes)).isEqualTo(table);
    assertThat(bytes).isEqualTo(ItemCodec.encode(OldCatalogLayout.table("People", 1, CREATED)));
  }

  @Test
  void tableOptionsRoundTripAndAreLeftOutWhenDefault() {
    TableRecord table =
        new TableRecord(
            "Orders",
            4,
            CREATED,
            new TableOptions(
                TableOptions.ChangeFeed.ON
                    .withBeforeImages(true)
                    .withRetention(Duration.ofMinutes(90), 12_345),
                Duration.ofSeconds(3600)));
    assertThat(CatalogCodec.decode(CatalogCodec.encode(table))).isEqualTo(table);
    TableRecord offAgain =
        table.withOptions(
            new TableOptions(
                new TableOptions.ChangeFeed(false, false, Duration.ofHours(2), 10), null));
    assertThat(CatalogCodec.decode(CatalogCodec.encode(offAgain))).isEqualTo(offAgain);
    assertThat(ItemCodec.decode(CatalogCodec.encode(new TableRecord("Plain", 5, CREATED))))
        .doesNotContainKeys("changeFeed", "ttlMillis");
  }

  @Test
  void viewRecordWithoutOptionalFieldsRoundTripsAndEncodesAsTheOldLayout() {
    ViewRecord view =
        ViewRecord.building(
            new TableRecord("Copy", 2, CREATED),
            new ViewDefinition("Copy", "People", null, null, null, List.of()));
    byte[] bytes = CatalogCodec.encode(view);
    assertThat(CatalogCodec.decode(bytes)).isEqualTo(view);
    assertThat(bytes).isEqualTo(ItemCodec.encode(OldCatalogLayout.view(view)));
    assertThat(ItemCodec.decode(bytes))
        .doesNotContainKeys("partitionBy", "idBy", "where", "resumePartition", "resumeKey");
  }

  @Test
  void viewRecordWithEveryFieldRoundTripsAndEncodesAsTheOldLayout() {
    ViewRecord view =
        new ViewRecord(
            new TableRecord("ByCity", 3, CREATED),
            new ViewDefinition(
                "ByCity", "People", "{city}", "{id}", "active eq true", List.of("name", "city")),
            ViewState.FAILED,
            new ViewRecord.Progress(
                7, 9, new ViewRecord.SourceEntry(new byte[] {0, 0, 0, 1, 'p'}, new byte[] {'7'})),
            List.of(
                new ViewStatus.Conflict("Oslo", "1", "p", "1", "p", "2"),
                new ViewStatus.Conflict(
                    null, null, null, null, null, "backfill error: disk on fire")));
    byte[] bytes = CatalogCodec.encode(view);
    assertThat(CatalogCodec.decode(bytes)).isEqualTo(view);
    assertThat(bytes).isEqualTo(ItemCodec.encode(OldCatalogLayout.view(view)));
  }

  @Test
  void aViewRecordInTheOldLayoutWithoutAKindDecodesAsACopyView() {
    ViewRecord old =
        ViewRecord.building(
            new TableRecord("Copy", 2, CREATED),
            new ViewDefinition("Copy", "People", "all", "{email}", null, List.of()));
    ViewRecord decoded =
        (ViewRecord) CatalogCodec.decode(ItemCodec.encode(OldCatalogLayout.view(old)));
    assertThat(decoded.definition().kind()).isEqualTo(ViewDefinition.Kind.COPY);
    assertThat(decoded.definition().retention()).isNull();
    assertThat(decoded.countsAfter()).isZero();
    assertThat(decoded).isEqualTo(old);
  }

  @Test
  void historyAndPartitionsRecordsRoundTripWithKindRetentionAndCountsAfter() {
    ViewRecord history =
        ViewRecord.building(
            new TableRecord("Hist", 4, CREATED),
            ViewDefinition.history("Hist", "People")
                .withRetention(new ViewDefinition.Retention(10, java.time.Duration.ofDays(30))));
    ViewRecord partitions =
        ViewRecord.building(
                new TableRecord("Parts", 5, CREATED),
                ViewDefinition.partitions("Parts", "People").withWhere("active eq true"),
                ViewRecord.COUNTS_AFTER_PENDING)
            .withCountsAfter(17_000_000_000_000_000L);
    for (ViewRecord view : List.of(history, partitions)) {
      byte[] bytes = CatalogCodec.encode(view);
      assertThat(CatalogCodec.decode(bytes)).isEqualTo(view);
    }
    assertThat(ItemCodec.decode(CatalogCodec.encode(history)))
        .containsEntry("kind", Value.of("history"))
        .containsEntry("maxVersions", Value.of(10L))
        .containsEntry("maxAge", Value.of("PT720H"))
        .doesNotContainKey("countsAfter");
    assertThat(ItemCodec.decode(CatalogCodec.encode(partitions)))
        .containsEntry("kind", Value.of("partitions"))
        .containsEntry("countsAfter", Value.of(17_000_000_000_000_000L));
  }

  @Test
  void aViewRecordWithAnUnknownKindIsDamaged() {
    Map<String, Value> p =
        new LinkedHashMap<>(
            ItemCodec.decode(
                CatalogCodec.encode(
                    ViewRecord.building(
                        new TableRecord("Hist", 4, CREATED),
                        ViewDefinition.history("Hist", "People")))));
    p.put("kind", Value.of("ledger"));
    assertThatThrownBy(() -> CatalogCodec.decode(ItemCodec.encode(p)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("kind");
  }

  @Property(tries = 500)
  void everyViewRecordRoundTripsAndEncodesAsTheOldLayout(@ForAll("views") ViewRecord view) {
    byte[] bytes = CatalogCodec.encode(view);
    assertThat(CatalogCodec.decode(bytes)).isEqualTo(view);
    assertThat(bytes).isEqualTo(ItemCodec.encode(OldCatalogLayout.view(view)));
  }

  @Test
  void metadataRecordsRoundTripAndEncodeAsTheOldLayout() {
    byte[] secret = {1, 2, 3, 4};
    assertThat(CatalogCodec.decodeNextTableId(CatalogCodec.encodeNextTableId(42))).isEqualTo(42);
    assertThat(CatalogCodec.encodeNextTableId(42))
        .isEqualTo(ItemCodec.encode(Map.of("value", Value.of(42))));
    assertThat(CatalogCodec.decodeTokenSecret(CatalogCodec.encodeTokenSecret(secret)))
        .isEqualTo(secret);
    assertThat(CatalogCodec.encodeTokenSecret(secret))
        .isEqualTo(ItemCodec.encode(Map.of("value", Value.of(secret))));
    assertThat(CatalogCodec.decodeGeneration(CatalogCodec.encodeGeneration(-5L))).isEqualTo(-5L);
    assertThat(CatalogCodec.encodeGeneration(-5L))
        .isEqualTo(ItemCodec.encode(Map.of("value", Value.of(-5L))));
    assertThat(CatalogCodec.decodePurge(CatalogCodec.encodePurge("Gone"))).isEqualTo("Gone");
    assertThat(CatalogCodec.encodePurge("Gone"))
        .isEqualTo(ItemCodec.encode(Map.of("name", Value.of("Gone"))));
    assertThat(CatalogCodec.decodeSetting(CatalogCodec.encodeSetting("acl"))).isEqualTo("acl");
    assertThat(CatalogCodec.encodeSetting("acl"))
        .isEqualTo(ItemCodec.encode(Map.of("value", Value.of("acl"))));
  }

  @Test
  void tableRecordKeepsTheCreationTimeAtTheStoredPrecision() {
    TableRecord table =
        new TableRecord("People", 1, Instant.parse("2025-03-01T10:15:30.123456789Z"));
    assertThat(table.created()).isEqualTo(Instant.parse("2025-03-01T10:15:30.1234567Z"));
    assertThat(CatalogCodec.decode(CatalogCodec.encode(table))).isEqualTo(table);
  }

  @Test
  void decodeOfARecordLackingAPropertyFailsNamingIt() {
    Map<String, Value> table = OldCatalogLayout.table("People", 1, CREATED);
    table.remove("tableId");
    assertThatThrownBy(() -> CatalogCodec.decode(ItemCodec.encode(table)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("tableId is missing");
  }

  @Test
  void decodeOfAViewInAnUnknownStateFailsNamingTheState() {
    Map<String, Value> view =
        OldCatalogLayout.view(
            ViewRecord.building(
                new TableRecord("Copy", 2, CREATED),
                new ViewDefinition("Copy", "People", null, null, null, List.of())));
    view.put("state", Value.of("paused"));
    assertThatThrownBy(() -> CatalogCodec.decode(ItemCodec.encode(view)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("state")
        .hasMessageContaining("paused");
  }

  @Test
  void viewStateTextIsTheApiText() {
    assertThat(ViewState.BUILDING.text()).isEqualTo(ViewStatus.BUILDING);
    assertThat(ViewState.READY.text()).isEqualTo(ViewStatus.READY);
    assertThat(ViewState.FAILED.text()).isEqualTo(ViewStatus.FAILED);
    for (ViewState state : ViewState.values()) {
      assertThat(ViewState.of(state.text())).isEqualTo(state);
    }
    assertThatThrownBy(() -> ViewState.of("Ready")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void conflictsBeyondTheLimitAreNotKept() {
    ViewRecord view =
        ViewRecord.building(
            new TableRecord("Copy", 2, CREATED),
            new ViewDefinition("Copy", "People", null, null, null, List.of()));
    List<ViewStatus.Conflict> many = new ArrayList<>();
    for (int i = 0; i < ViewRecord.MAX_CONFLICTS + 5; i++) {
      many.add(new ViewStatus.Conflict("k", "v" + i, "p", "a" + i, "p", "b" + i));
    }
    ViewRecord full =
        view.withConflicts(many.subList(0, 60)).withConflicts(many.subList(60, many.size()));
    assertThat(full.conflicts())
        .containsExactlyElementsOf(many.subList(0, ViewRecord.MAX_CONFLICTS));
  }

  @Provide
  Arbitrary<ViewRecord> views() {
    Arbitrary<String> text = Arbitraries.strings().ofMaxLength(20);
    Arbitrary<String> maybe = text.injectNull(0.3);
    Arbitrary<TableRecord> table =
        Combinators.combine(
                Arbitraries.strings().alpha().ofMinLength(3).ofMaxLength(12),
                Arbitraries.integers().between(1, Integer.MAX_VALUE),
                Arbitraries.longs()
                    .between(
                        -62_135_596_800L * Value.DateTime.TICKS_PER_SECOND,
                        253_402_300_799L * Value.DateTime.TICKS_PER_SECOND))
            .as(
                (name, id, ticks) ->
                    new TableRecord(name, id, new Value.DateTime(ticks).toInstant()));
    Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(16);
    Arbitrary<ViewRecord.SourceEntry> resume =
        Combinators.combine(bytes, bytes).as(ViewRecord.SourceEntry::new).injectNull(0.4);
    Arbitrary<ViewRecord.Progress> progress =
        Combinators.combine(
                Arbitraries.longs().greaterOrEqual(0),
                Arbitraries.longs().greaterOrEqual(0),
                resume)
            .as(ViewRecord.Progress::new);
    Arbitrary<ViewStatus.Conflict> conflict =
        Combinators.combine(maybe, maybe, maybe, maybe, maybe, maybe).as(ViewStatus.Conflict::new);
    Arbitrary<List<String>> select =
        Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(8).list().ofMaxSize(4);
    return Combinators.combine(
            table,
            Arbitraries.strings().alpha().ofMinLength(3).ofMaxLength(12),
            maybe,
            maybe,
            maybe,
            select,
            Arbitraries.of(ViewState.class),
            progress)
        .flatAs(
            (t, source, partitionBy, idBy, where, names, state, p) ->
                conflict
                    .list()
                    .ofMaxSize(5)
                    .map(
                        conflicts ->
                            new ViewRecord(
                                t,
                                new ViewDefinition(
                                    t.name(), source, partitionBy, idBy, where, names),
                                state,
                                p,
                                conflicts)));
  }

  /** The catalog's maps as written before the codec existed, built the way that code built them. */
  static final class OldCatalogLayout {
    private OldCatalogLayout() {}

    static Map<String, Value> table(String name, int id, Instant created) {
      Map<String, Value> record = new LinkedHashMap<>();
      record.put("name", Value.of(name));
      record.put("tableId", Value.of(id));
      record.put("created", Value.of(created));
      return record;
    }

    static Map<String, Value> view(ViewRecord v) {
      ViewDefinition d = v.definition();
      Map<String, Value> record = new LinkedHashMap<>();
      record.put("name", Value.of(d.name()));
      record.put("tableId", Value.of(v.table().id()));
      record.put("created", Value.of(v.table().created()));
      record.put("source", Value.of(d.source()));
      putIfNotNull(record, "partitionBy", d.partitionBy());
      putIfNotNull(record, "idBy", d.idBy());
      putIfNotNull(record, "where", d.where());
      record.put("select", new Value.Arr(d.select().stream().map(Value::of).toList()));
      record.put("state", Value.of(v.state().text()));
      record.put("done", Value.of(v.progress().done()));
      record.put("total", Value.of(v.progress().total()));
      if (v.progress().resumeAfter() != null) {
        record.put("resumePartition", Value.of(v.progress().resumeAfter().partition()));
        record.put("resumeKey", Value.of(v.progress().resumeAfter().key()));
      }
      List<Value> conflicts = new ArrayList<>();
      for (ViewStatus.Conflict c : v.conflicts()) {
        Map<String, Value> o = new LinkedHashMap<>();
        putIfNotNull(o, "viewPartitionKey", c.viewPartitionKey());
        putIfNotNull(o, "viewId", c.viewId());
        putIfNotNull(o, "sourcePartitionKey", c.sourcePartitionKey());
        putIfNotNull(o, "sourceId", c.sourceId());
        putIfNotNull(o, "otherSourcePartitionKey", c.otherSourcePartitionKey());
        putIfNotNull(o, "otherSourceId", c.otherSourceId());
        conflicts.add(new Value.Obj(o));
      }
      record.put("conflicts", new Value.Arr(conflicts));
      return record;
    }

    private static void putIfNotNull(Map<String, Value> record, String name, String value) {
      if (value != null) {
        record.put(name, Value.of(value));
      }
    }
  }
}
