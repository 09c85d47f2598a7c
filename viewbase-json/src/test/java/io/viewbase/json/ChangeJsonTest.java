package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChangeJsonTest {
  private static final Instant WHEN = Instant.parse("2026-11-30T12:00:00.1234567Z");
  private static final String ETAG = "W/\"datetime'2026-11-30T12%3A00%3A00.1234567Z'\"";

  private static Item stored(String id, Map<String, Value> properties) {
    return Item.stored("acme", id, new LinkedHashMap<>(properties), ETAG, WHEN);
  }

  private static Change update() {
    Item after =
        stored(
            "alice",
            Map.of("age", new Value.Int64(35), "seen", new Value.DateTime(WHEN.toEpochMilli())));
    Item before = stored("alice", Map.of("age", new Value.Int64(34)));
    return new Change(7, Change.Kind.UPDATE, "acme", "alice", ETAG, WHEN, after, before, 6, 2);
  }

  private static String utf8(byte[] json) {
    return new String(json, StandardCharsets.UTF_8);
  }

  @Test
  void entryIsWrittenWithItsItemAsTheItemApiWritesIt() {
    Change change = update();
    String json = utf8(ChangeJson.write(change));
    assertThat(json)
        .startsWith(
            "{\"sequence\":7,\"kind\":\"update\",\"partitionKey\":\"acme\",\"id\":\"alice\","
                + "\"etag\":"
                + JsonText.quoted(ETAG)
                + ",\"timestamp\":\"2026-11-30T12:00:00.1234567Z\",\"item\":"
                + utf8(ItemJson.write(change.item()))
                + ",\"before\":"
                + utf8(ItemJson.write(change.before())))
        .endsWith(",\"transaction\":{\"first\":6,\"size\":2}}")
        .contains("\"seen@odata.type\":\"Edm.DateTime\"");
  }

  @Test
  void entryRoundTripsWithBeforeImage() {
    Change change = update();
    assertThat(ChangeJson.read(ChangeJson.write(change), Limits.DEFAULT)).isEqualTo(change);
  }

  @Test
  void deleteWritesANullItemAndNoBefore() {
    Change delete = new Change(9, Change.Kind.DELETE, "acme", "bob", ETAG, WHEN, null, null, 9, 1);
    String json = utf8(ChangeJson.write(delete));
    assertThat(json)
        .contains("\"kind\":\"delete\"")
        .contains("\"item\":null")
        .doesNotContain("before");
    assertThat(ChangeJson.read(ChangeJson.write(delete), Limits.DEFAULT)).isEqualTo(delete);
  }

  @Test
  void everyKindRoundTripsByItsLowerCaseName() {
    for (Change.Kind kind : Change.Kind.values()) {
      Change c = new Change(1, kind, "p", "i", ETAG, WHEN, null, null, 1, 1);
      assertThat(utf8(ChangeJson.write(c)))
          .contains("\"kind\":\"" + kind.name().toLowerCase() + "\"");
      assertThat(ChangeJson.read(ChangeJson.write(c), Limits.DEFAULT).kind()).isEqualTo(kind);
    }
  }

  @Test
  void pageRoundTrips() {
    Change insert =
        new Change(
            6,
            Change.Kind.INSERT,
            "acme",
            "bob",
            ETAG,
            WHEN,
            stored("bob", Map.of("n", new Value.Str("x"))),
            null,
            6,
            2);
    ChangePage page = new ChangePage(List.of(insert, update()), 7, 3, 12);
    byte[] json = ChangeJson.write(page);
    assertThat(utf8(json)).endsWith("],\"next\":7,\"oldest\":3,\"latest\":12}");
    assertThat(ChangeJson.readPage(json, Limits.DEFAULT)).isEqualTo(page);
  }

  @Test
  void emptyPageRoundTrips() {
    ChangePage page = new ChangePage(List.of(), 12, 13, 12);
    assertThat(utf8(ChangeJson.write(page)))
        .isEqualTo("{\"changes\":[],\"next\":12,\"oldest\":13,\"latest\":12}");
    assertThat(ChangeJson.readPage(ChangeJson.write(page), Limits.DEFAULT)).isEqualTo(page);
  }

  @Test
  void unknownMembersAreSkippedOnRead() {
    String json =
        "{\"sequence\":3,\"kind\":\"insert\",\"partitionKey\":\"p\",\"id\":\"i\",\"future\":[1],"
            + "\"item\":null,\"transaction\":{\"first\":3,\"size\":1,\"more\":true}}";
    assertThat(ChangeJson.read(json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT).sequence())
        .isEqualTo(3);
  }

  @Test
  void anUnknownKindIsInvalidJson() {
    String json = "{\"sequence\":3,\"kind\":\"upsert\",\"partitionKey\":\"p\",\"id\":\"i\"}";
    assertThatThrownBy(() -> ChangeJson.read(json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }

  /** JSON string quoting, for the expected text. */
  private static final class JsonText {
    static String quoted(String s) {
      return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
  }
}
