package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BatchJsonTest {
  private static Batch read(String json) {
    return BatchJson.read(json.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
  }

  private static ViewbaseException failure(String json) {
    try {
      read(json);
    } catch (ViewbaseException e) {
      return e;
    }
    throw new AssertionError("accepted: " + json);
  }

  @Test
  void writeThenReadGivesTheSameOperationsForEveryKind() {
    Item item =
        Item.builder("p", "i").put("n", 1L << 60).put("s", "x").put("when", Instant.EPOCH).build();
    Batch batch =
        Batch.builder()
            .insert("People", item)
            .replace("People", Item.builder("p", "r").put("a", 1).build(), "W/\"1\"")
            .upsert("Orders", Item.builder("q", "u").build())
            .merge("People", Item.builder("p", "m").put("b", true).build(), "*")
            .upsertMerge("People", Item.builder("p", "um").put("c", 1.5).build())
            .delete("People", "p", "d", "W/\"2\"")
            .check("People", "p", "c", null)
            .check("People", "p", "c2", "*")
            .build();

    Batch back = BatchJson.read(BatchJson.write(batch), Limits.DEFAULT);

    assertThat(back.operations()).isEqualTo(batch.operations());
  }

  @Test
  void readOfTheDocumentedShapeGivesTheOperations() {
    Batch batch =
        read(
            """
        {"operations": [
          {"op": "insert", "table": "People", "partitionKey": "acme", "id": "ann", "item": {"age": 34}},
          {"op": "delete", "table": "People", "partitionKey": "acme", "id": "bob", "ifMatch": "W/\\"9\\""},
          {"op": "upsert", "table": "People", "item": {"partitionKey": "acme", "id": "cy", "x": "y"}}
        ]}""");

    assertThat(batch.operations())
        .containsExactly(
            new Batch.Operation(
                Batch.Kind.INSERT,
                "People",
                Item.of("acme", "ann", Map.of("age", Value.of(34))),
                null),
            new Batch.Operation(
                Batch.Kind.DELETE, "People", Item.of("acme", "bob", Map.of()), "W/\"9\""),
            new Batch.Operation(
                Batch.Kind.UPSERT,
                "People",
                Item.of("acme", "cy", Map.of("x", Value.of("y"))),
                null));
  }

  @Test
  void readOfAnItemRepeatingItsIdentityAcceptsItWhenItMatches() {
    Batch batch =
        read(
            "{\"operations\":[{\"op\":\"upsert\",\"table\":\"T\",\"partitionKey\":\"p\",\"id\":\"i\","
                + "\"item\":{\"partitionKey\":\"p\",\"id\":\"i\",\"_etag\":\"ignored\",\"v\":1}}]}");
    assertThat(batch.operations().get(0).item())
        .isEqualTo(Item.of("p", "i", Map.of("v", Value.of(1))));
  }

  @Test
  void readOfAnItemNamingAnotherIdentityFailsWithKeyMismatchAtItsIndex() {
    ViewbaseException e =
        failure(
            "{\"operations\":[{\"op\":\"check\",\"table\":\"T\",\"partitionKey\":\"p\",\"id\":\"a\"},"
                + "{\"op\":\"upsert\",\"table\":\"T\",\"partitionKey\":\"p\",\"id\":\"i\",\"item\":{\"id\":\"other\"}}]}");
    assertThat(e.code()).isEqualTo(ErrorCode.KeyMismatch);
    assertThat(e.context()).containsEntry("operationIndex", 1).containsEntry("field", "id");
  }

  @Test
  void readOfUnknownMembersFailsWithInvalidInputNamingThem() {
    ViewbaseException op =
        failure(
            "{\"operations\":[{\"op\":\"upsert\",\"table\":\"T\",\"partitionKey\":\"p\","
                + "\"id\":\"i\",\"item\":{},\"ifmatch\":\"x\",\"tabel\":1}]}");
    assertThat(op.code()).isEqualTo(ErrorCode.InvalidInput);
    assertThat(op.context())
        .containsEntry("operationIndex", 0)
        .containsEntry("members", List.of("ifmatch", "tabel"));

    ViewbaseException top = failure("{\"operations\":[],\"atomic\":true}");
    assertThat(top.code()).isEqualTo(ErrorCode.InvalidInput);
    assertThat(top.context()).containsEntry("members", List.of("atomic"));
  }

  @Test
  void readOfBadOperationsFailsWithInvalidInputNamingTheProblem() {
    String pk = "\"table\":\"T\",\"partitionKey\":\"p\",\"id\":\"i\"";
    assertThat(failure("{\"operations\":[{\"op\":\"frobnicate\"," + pk + "}]}").context())
        .containsEntry("op", "frobnicate");
    assertThat(failure("{\"operations\":[{" + pk + "}]}").context()).containsEntry("field", "op");
    assertThat(failure("{\"operations\":[{\"op\":\"insert\"," + pk + "}]}").context())
        .containsEntry("field", "item");
    assertThat(failure("{\"operations\":[{\"op\":\"delete\"," + pk + ",\"item\":{}}]}").context())
        .containsEntry("field", "item");
    assertThat(
            failure(
                    "{\"operations\":[{\"op\":\"upsert\","
                        + pk
                        + ",\"item\":{},\"ifMatch\":\"*\"}]}")
                .context())
        .containsEntry("field", "ifMatch");
    assertThat(
            failure("{\"operations\":[{\"op\":\"delete\",\"partitionKey\":\"p\",\"id\":\"i\"}]}")
                .context())
        .containsEntry("field", "table");
    assertThat(
            failure("{\"operations\":[{\"op\":\"delete\",\"table\":\"T\",\"id\":\"i\"}]}")
                .context())
        .containsEntry("field", "partitionKey");
    assertThat(failure("{\"operations\":{}}").code()).isEqualTo(ErrorCode.InvalidInput);
    assertThat(failure("{}").context()).containsEntry("field", "operations");
    assertThat(
            failure(
                    "{\"operations\":[{\"op\":\"delete\",\"table\":\"T\",\"partitionKey\":1,\"id\":\"i\"}]}")
                .code())
        .isEqualTo(ErrorCode.InvalidKey);
  }

  @Test
  void readOfMalformedJsonFailsWithInvalidJson() {
    assertThat(failure("{\"operations\":[").code()).isEqualTo(ErrorCode.InvalidJson);
    assertThat(failure("[]").code()).isEqualTo(ErrorCode.InvalidJson);
    assertThat(failure("").code()).isEqualTo(ErrorCode.InvalidJson);
    ViewbaseException twice = failure("{\"operations\":[{\"op\":\"check\",\"op\":\"check\"}]}");
    assertThat(twice.code()).isEqualTo(ErrorCode.InvalidJson);
    assertThat(twice.context()).containsEntry("operationIndex", 0);
  }

  @Test
  void readOfAnEmptyListGivesAnEmptyBatchForTheEngineToRefuse() {
    assertThat(read("{\"operations\":[]}").size()).isZero();
  }

  @Test
  void resultWriteThenReadKeepsItemsAndNullsInOrder() {
    Instant when = Instant.parse("2026-11-30T12:00:00.1234567Z");
    Item a = Item.stored("p", "a", Map.of("v", Value.of(1)), "W/\"1\"", when);
    Item b = Item.stored("q", "b", Map.of(), "W/\"2\"", when);
    BatchResult result = new BatchResult(Arrays.asList(a, null, b, null));

    byte[] json = BatchResultJson.write(result);

    assertThat(new String(json, StandardCharsets.UTF_8))
        .startsWith("{\"items\":[{\"partitionKey\":\"p\"")
        .contains(",null,");
    assertThat(BatchResultJson.read(json, Limits.DEFAULT).items())
        .containsExactly(a, null, b, null);
  }

  @Test
  void resultReadWithoutItemsFailsWithInvalidJson() {
    assertThatThrownBy(
            () -> BatchResultJson.read("{}".getBytes(StandardCharsets.UTF_8), Limits.DEFAULT))
        .isInstanceOfSatisfying(
            ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidJson));
  }
}
