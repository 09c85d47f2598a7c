package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A write that breaks an attribute rule is InvalidInput naming the attribute, and writes nothing.
 */
class ValidationTest {
  static final Entity<Map<String, Object>> ACCOUNTS =
      Entity.define("account")
          .service("bank")
          .attribute(Attribute.string("accountId").required())
          .attribute(Attribute.string("owner").required().readOnly())
          .attribute(Attribute.enumOf("kind", "checking", "savings").required())
          .attribute(
              Attribute.number("balance")
                  .defaultValue(0)
                  .validate(b -> ((Number) b).doubleValue() >= 0, "zero or more"))
          .attribute(Attribute.set("tags"))
          .attribute(Attribute.string("pin").hidden())
          .attribute(
              Attribute.string("nick")
                  .field("nickname")
                  .set(v -> v == null ? null : v.toString().trim())
                  .get(v -> "~" + v))
          .index(Index.primary("byId").namespace("account").pk("accountId"))
          .index(Index.secondary("byOwner").namespace("owners").pk("owner").sk("kind"))
          .build();

  Database db;
  ServiceTable bank;
  EntityClient<Map<String, Object>> accounts;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    bank = Service.define("bank").entity(ACCOUNTS).build().open(db, "Bank", Duration.ofSeconds(30));
    accounts = bank.entity(ACCOUNTS);
    accounts.create(Map.of("accountId", "a1", "owner", "ann", "kind", "checking", "pin", "1234"));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void defineWithAStoredNameThePropertyRuleReservesFailsWithInvalidInputAndAnOrdinaryOneWorks() {
    // The entity layer's stored names are the api's property names: the names the rule reserves
    // (PropertyName.isReserved) are refused when the entity is defined, not at its first write.
    for (String reserved : List.of("id", "partitionKey", "_x", "_etag")) {
      assertThat(io.viewbase.api.PropertyName.isReserved(reserved)).as(reserved).isTrue();
      ViewbaseException e =
          catchThrowableOfType(
              () ->
                  Entity.define("thing")
                      .service("s")
                      .attribute(Attribute.string("a").field(reserved))
                      .index(Index.primary("byA").pk("a"))
                      .build(),
              ViewbaseException.class);
      assertThat(e).as(reserved).isNotNull();
      assertThat(e.code()).as(reserved).isEqualTo(ErrorCode.InvalidInput);
      assertThat(e.getMessage()).as(reserved).contains("has the stored name '" + reserved + "'");
    }
    assertThat(
            Entity.define("thing")
                .service("s")
                .attribute(Attribute.string("a").field("ident"))
                .index(Index.primary("byA").pk("a"))
                .build()
                .name())
        .isEqualTo("thing");
  }

  @Test
  void createWithoutARequiredAttributeFails() {
    assertRefused(
        () -> accounts.create(Map.of("accountId", "a2", "owner", "ann")), "kind", "is required");
  }

  @Test
  void enumValueOutsideItsSetFails() {
    assertRefused(
        () -> accounts.create(Map.of("accountId", "a2", "owner", "ann", "kind", "gold")),
        "kind",
        "must be one of [checking, savings]");
    assertRefused(
        () -> accounts.patch(Map.of("accountId", "a1"), Changes.set("kind", "gold")),
        "kind",
        "must be one of");
  }

  @Test
  void changingAReadOnlyAttributeFails() {
    assertRefused(
        () -> accounts.patch(Map.of("accountId", "a1"), Changes.set("owner", "bob")),
        "owner",
        "is read-only");
    assertRefused(
        () -> accounts.update(Map.of("accountId", "a1"), Changes.set("owner", "bob")),
        "owner",
        "is read-only");
  }

  @Test
  void changingThePrimaryKeyFails() {
    assertRefused(
        () -> accounts.patch(Map.of("accountId", "a1"), Changes.set("accountId", "a9")),
        "accountId",
        "is part of the primary key");
  }

  @Test
  void aValueOfTheWrongTypeFails() {
    assertRefused(
        () ->
            accounts.create(
                Map.of("accountId", "a2", "owner", "ann", "kind", "savings", "balance", "a lot")),
        "balance",
        "must be a finite number, not String");
    assertRefused(
        () -> accounts.patch(Map.of("accountId", "a1"), Changes.set("owner", 42)), "owner", "");
    assertRefused(
        () -> accounts.create(Map.of("accountId", 7, "owner", "ann", "kind", "savings")),
        "accountId",
        "must be a string");
  }

  @Test
  void aFailedValidateCheckFails() {
    assertRefused(
        () -> accounts.patch(Map.of("accountId", "a1"), Changes.set("balance", -5)),
        "balance",
        "must be zero or more");
  }

  @Test
  void removingARequiredAttributeFails() {
    assertRefused(
        () -> accounts.patch(Map.of("accountId", "a1"), Changes.remove("kind")),
        "kind",
        "cannot be removed");
  }

  @Test
  void defaultsHiddenFieldsAndTransformsApply() {
    Map<String, Object> in =
        new HashMap<>(
            Map.of(
                "accountId",
                "a2",
                "owner",
                "bo",
                "kind",
                "savings",
                "tags",
                List.of("x", "y", "x"),
                "nick",
                "  bobby ",
                "pin",
                "9"));
    accounts.create(in);

    Item stored = db.table("Bank").get("$bank#account#accountid_a2", "$account_1").orElseThrow();
    assertThat(stored.properties())
        .containsKeys("nickname", "pin", "vb_service", "vb_entity", "vb_version")
        .doesNotContainKey("nick");
    assertThat(stored.get("nickname")).contains(io.viewbase.api.Value.of("bobby"));
    assertThat(accounts.get(Map.of("accountId", "a2")).orElseThrow())
        .containsEntry("balance", 0L)
        .containsEntry("tags", List.of("x", "y"))
        .containsEntry("nick", "~bobby")
        .doesNotContainKey("pin");
  }

  private void assertRefused(ThrowingCallable write, String attribute, String message) {
    List<Item> before = everything();
    ViewbaseException e = catchThrowableOfType(ViewbaseException.class, write);
    assertThat(e).as("a refusal").isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
    assertThat(e.getMessage()).contains("'" + attribute + "'", message);
    assertThat(e.context())
        .containsEntry("entity", "account")
        .containsEntry("attribute", attribute);
    assertThat(everything()).isEqualTo(before);
  }

  private List<Item> everything() {
    List<Item> all = new ArrayList<>(db.table("Bank").query(Query.all()).items());
    all.addAll(db.table(bank.viewName(ACCOUNTS, "byOwner")).query(Query.all()).items());
    return all;
  }
}
