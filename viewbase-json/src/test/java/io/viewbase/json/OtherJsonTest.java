package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.TableInfo;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OtherJsonTest {
  private static final Instant WHEN = Instant.parse("2026-11-30T12:00:00.1234567Z");

  @Test
  void pageWriteThenReadGivesTheSamePage() {
    Item a = Item.stored("p", "a", Map.of(), "W/\"1\"", WHEN);
    Page page = new Page(List.of(a, Item.stored("p", "b", Map.of(), "W/\"2\"", WHEN)), "tok");
    assertThat(PageJson.read(PageJson.write(page), Limits.DEFAULT)).isEqualTo(page);
    Page last = new Page(List.of(), null);
    assertThat(new String(PageJson.write(last), StandardCharsets.UTF_8))
        .isEqualTo("{\"items\":[],\"continuation\":null}");
    assertThat(PageJson.read(PageJson.write(last), Limits.DEFAULT)).isEqualTo(last);
  }

  @Test
  void tableInfoWriteThenReadGivesTheSameInfo() {
    TableInfo t =
        new TableInfo(
            "People",
            TableInfo.TABLE,
            null,
            "ready",
            Instant.parse("2026-11-30T12:00:00.123456789Z"));
    TableInfo v = new TableInfo("PeopleByEmail", TableInfo.VIEW, "People", "building", WHEN);
    assertThat(TableInfoJson.read(TableInfoJson.write(t))).isEqualTo(t);
    assertThat(TableInfoJson.readList(TableInfoJson.writeList(List.of(t, v))))
        .containsExactly(t, v);
  }

  @Test
  void errorWriteThenReadKeepsCodeMessageAndContext() {
    ViewbaseException e =
        ViewbaseException.of(
            ErrorCode.ItemNotFound,
            "Item not found",
            "table",
            "People",
            "line",
            3,
            "big",
            1L << 40,
            "list",
            List.of("a", 1));
    String json = new String(ErrorJson.write(e), StandardCharsets.UTF_8);
    assertThat(json)
        .startsWith(
            "{\"error\":{\"code\":\"ItemNotFound\",\"message\":\"Item not found\",\"table\":\"People\"");
    ViewbaseException back = ErrorJson.read(json.getBytes(StandardCharsets.UTF_8)).orElseThrow();
    assertThat(back.code()).isEqualTo(ErrorCode.ItemNotFound);
    assertThat(back.getMessage()).isEqualTo("Item not found");
    assertThat(back.context()).isEqualTo(e.context());
  }

  @Test
  void errorReadOfUnknownCodeGivesInternalErrorWithTheRemoteCode() {
    byte[] json =
        "{\"error\":{\"code\":\"Brand New\",\"message\":\"m\"}}".getBytes(StandardCharsets.UTF_8);
    ViewbaseException back = ErrorJson.read(json).orElseThrow();
    assertThat(back.code()).isEqualTo(ErrorCode.InternalError);
    assertThat(back.context()).containsEntry("remoteCode", "Brand New");
  }

  @Test
  void errorReadOfOtherJsonIsEmpty() {
    assertThat(ErrorJson.read("<html>".getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(ErrorJson.read("{\"status\":\"ok\"}".getBytes(StandardCharsets.UTF_8))).isEmpty();
  }
}
