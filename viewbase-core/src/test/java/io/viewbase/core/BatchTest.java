package io.viewbase.core;

import static io.viewbase.core.DatabaseContract.assertCode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batches on the RocksDB engine: all or nothing, across tables, partitions and views. */
class BatchTest {
  @TempDir Path dir;

  Database db;
  Table people;
  Table orders;

  @BeforeEach
  void setUp() {
    db = Viewbase.open(OpenOptions.at(dir));
    db.createTable("People");
    db.createTable("Orders");
    people = db.table("People");
    orders = db.table("Orders");
    db.createView(ViewDefinition.of("ByEmail", "People", "all", "{email}"));
    ViewContract.awaitBuilt(db, "ByEmail");
  }

  @AfterEach
  void tearDown() {
    db.close();
  }

  /** Every stored entry of the database, byte for byte (catalog included). */
  private List<String> everything() {
    List<String> out = new ArrayList<>();
    try (Cursor c = ((EmbeddedDatabase) db).store().scanAll(Bytes.EMPTY, null, null)) {
      while (c.next()) {
        out.add(
            Base64.getEncoder().encodeToString(c.partition())
                + "|"
                + Base64.getEncoder().encodeToString(c.key())
                + "|"
                + c.version()
                + "|"
                + Base64.getEncoder().encodeToString(c.value()));
      }
    }
    return out;
  }

  private static Item person(String pk, String id, String email) {
    return Item.builder(pk, id).put("email", email).put("n", 1).build();
  }

  @Test
  void aBatchAcrossTablesAndPartitionsCommitsAllAndMaintainsViews() {
    BatchResult result =
        db.commit(
            Batch.builder()
                .insert("People", person("a", "1", "x@a"))
                .insert("People", person("b", "2", "y@b"))
                .upsert("Orders", Item.builder("o", "9").put("who", "1").build())
                .build());
    assertThat(result.items()).hasSize(3).allSatisfy(i -> assertThat(i.etag()).isNotNull());
    assertThat(people.get("b", "2")).isPresent();
    assertThat(orders.get("o", "9")).isPresent();
    assertThat(db.table("ByEmail").get("all", "y@b").orElseThrow().sourceId()).isEqualTo("2");
  }

  private Batch.Builder fiftySixGoodOperations() {
    Batch.Builder b = Batch.builder();
    for (int i = 0; i < 56; i++) {
      b.upsert(
          i % 2 == 0 ? "People" : "Orders", person("p" + (i % 5), "new" + i, "new" + i + "@x"));
    }
    return b;
  }

  @Test
  void aFailingFiftySeventhOperationWritesNothingAndNamesIndex56() {
    Item existing = people.insert(person("p", "old", "old@x"));
    people.replace(person("p", "old", "old2@x"), existing.etag());
    people.insert(person("q", "taken", "taken@x"));
    List<String> before = everything();
    List<Batch> failing =
        List.of(
            fiftySixGoodOperations()
                .replace("People", person("p", "old", "z@x"), existing.etag())
                .build(),
            fiftySixGoodOperations().insert("People", person("q", "taken", "other@x")).build(),
            fiftySixGoodOperations().upsert("People", person("r", "r1", "taken@x")).build(),
            fiftySixGoodOperations().check("Orders", "nope", "nope", "*").build());
    List<ErrorCode> codes =
        List.of(
            ErrorCode.PreconditionFailed,
            ErrorCode.ItemAlreadyExists,
            ErrorCode.ViewKeyConflict,
            ErrorCode.ItemNotFound);
    for (int i = 0; i < failing.size(); i++) {
      Batch batch = failing.get(i);
      ErrorCode code = codes.get(i);
      assertThatThrownBy(() -> db.commit(batch))
          .isInstanceOf(ViewbaseException.class)
          .satisfies(
              t -> {
                ViewbaseException e = (ViewbaseException) t;
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.context()).containsEntry("operationIndex", 56);
              });
      assertThat(everything()).as("after the batch failing with %s", code).isEqualTo(before);
    }
  }

  @Test
  void checkAssertsAnEtagPresenceOrAbsence() {
    Item a = people.insert(person("p", "a", "a@x"));
    db.commit(
        Batch.builder()
            .check("People", "p", "a", a.etag())
            .check("People", "p", "zz", null)
            .check("People", "p", "b", null)
            .upsert("Orders", Item.builder("o", "1").build())
            .build());
    assertThat(orders.get("o", "1")).isPresent();
    people.merge(Item.builder("p", "a").put("n", 2).build(), null);
    assertCode(
        () ->
            db.commit(
                Batch.builder()
                    .upsert("Orders", Item.builder("o", "2").build())
                    .check("People", "p", "a", a.etag())
                    .build()),
        ErrorCode.PreconditionFailed);
    assertCode(
        () -> db.commit(Batch.builder().check("People", "p", "a", null).build()),
        ErrorCode.ItemAlreadyExists);
    assertThat(orders.get("o", "2")).isEmpty();
  }

  @Test
  void moveToANewIdentityIsInsertNewAndDeleteOldAtItsEtag() {
    Item old = people.insert(person("p", "old", "m@x"));
    db.commit(
        Batch.builder()
            .delete("People", "p", "old", old.etag())
            .insert("People", Item.builder("q", "new").put("email", "m@x").put("n", 1).build())
            .build());
    assertThat(people.get("p", "old")).isEmpty();
    assertThat(people.get("q", "new")).isPresent();
    assertThat(db.table("ByEmail").get("all", "m@x").orElseThrow().sourceId()).isEqualTo("new");
    // a stale move fails whole
    assertCode(
        () ->
            db.commit(
                Batch.builder()
                    .insert("People", person("z", "z", "zz@x"))
                    .delete("People", "p", "old", old.etag())
                    .build()),
        ErrorCode.ItemNotFound);
    assertThat(people.get("z", "z")).isEmpty();
  }

  @Test
  void moveUnderAUniqueViewKeyWorksInEitherOrder() {
    Item old = people.insert(person("p", "old", "m@x"));
    db.commit(
        Batch.builder()
            .insert("People", person("q", "new", "m@x"))
            .delete("People", "p", "old", old.etag())
            .build());
    assertThat(db.table("ByEmail").get("all", "m@x").orElseThrow().sourceId()).isEqualTo("new");
    assertThat(db.verifyView("ByEmail", false).drift()).isZero();
  }

  @Test
  void swappingTwoUniqueViewKeysInOneBatchSucceeds() {
    people.insert(person("p", "1", "one@x"));
    people.insert(person("p", "2", "two@x"));
    db.commit(
        Batch.builder()
            .merge("People", Item.builder("p", "1").put("email", "tmp@x").build(), null)
            .merge("People", Item.builder("p", "2").put("email", "one@x").build(), null)
            .build());
    db.commit(
        Batch.builder()
            .merge("People", Item.builder("p", "1").put("email", "two@x").build(), null)
            .build());
    assertThat(db.table("ByEmail").get("all", "one@x").orElseThrow().sourceId()).isEqualTo("2");
    assertThat(db.table("ByEmail").get("all", "two@x").orElseThrow().sourceId()).isEqualTo("1");
    assertThat(db.table("ByEmail").get("all", "tmp@x")).isEmpty();
    assertThat(db.verifyView("ByEmail", false).drift()).isZero();
    // exchanging in one batch through the overlay: 1 takes three@x, 2 takes one's old key
    db.commit(
        Batch.builder()
            .merge("People", Item.builder("p", "1").put("email", "three@x").build(), null)
            .merge("People", Item.builder("p", "2").put("email", "two@x").build(), null)
            .build());
    assertThat(db.table("ByEmail").get("all", "two@x").orElseThrow().sourceId()).isEqualTo("2");
    assertThat(db.verifyView("ByEmail", false).drift()).isZero();
  }

  @Test
  void twoOperationsClaimingOneViewKeyFailWithViewKeyConflict() {
    assertThatThrownBy(
            () ->
                db.commit(
                    Batch.builder()
                        .insert("People", person("p", "1", "same@x"))
                        .insert("People", person("p", "2", "same@x"))
                        .build()))
        .satisfies(
            t -> {
              assertThat(((ViewbaseException) t).code()).isEqualTo(ErrorCode.ViewKeyConflict);
              assertThat(((ViewbaseException) t).context()).containsEntry("operationIndex", 1);
            });
    assertThat(people.get("p", "1")).isEmpty();
  }

  @Test
  void malformedBatchesAreRefusedWithTheOperationIndex() {
    assertCode(() -> db.commit(Batch.builder().build()), ErrorCode.InvalidInput);
    Batch.Builder big = Batch.builder();
    for (int i = 0; i < 101; i++) {
      big.upsert("Orders", Item.builder("o", "i" + i).build());
    }
    assertCode(() -> db.commit(big.build()), ErrorCode.InvalidInput);
    assertThatThrownBy(
            () ->
                db.commit(
                    Batch.builder()
                        .upsert("Orders", Item.builder("o", "1").build())
                        .delete("Orders", "o", "1", null)
                        .build()))
        .satisfies(
            t -> {
              assertThat(((ViewbaseException) t).code()).isEqualTo(ErrorCode.InvalidInput);
              assertThat(((ViewbaseException) t).context()).containsEntry("operationIndex", 1);
            });
    assertCode(
        () -> db.commit(Batch.builder().upsert("Nope", Item.builder("o", "1").build()).build()),
        ErrorCode.TableNotFound);
    assertCode(
        () -> db.commit(Batch.builder().upsert("ByEmail", Item.builder("o", "1").build()).build()),
        ErrorCode.ViewIsReadOnly);
    assertCode(
        () -> db.commit(Batch.builder().upsert("Orders", Item.builder("o\n", "1").build()).build()),
        ErrorCode.InvalidKey);
    assertCode(
        () ->
            db.commit(
                Batch.builder()
                    .add(Batch.Kind.INSERT, "Orders", Item.builder("o", "1").build(), "*")
                    .build()),
        ErrorCode.InvalidInput);
    assertThat(orders.get("o", "1")).isEmpty();
  }

  @Test
  void theItemsOfABatchShareOneVersion() {
    BatchResult r =
        db.commit(
            Batch.builder()
                .upsert("Orders", Item.builder("o", "1").put("v", Value.of(1)).build())
                .upsert("Orders", Item.builder("o", "2").build())
                .build());
    assertThat(r.items().get(0).timestamp()).isEqualTo(r.items().get(1).timestamp());
  }
}
