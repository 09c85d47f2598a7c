package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ${attribute|key}} template slots: sort keys in value order, negative and fractional
 * numbers included, with range and begins conditions that follow that order.
 */
class SortableKeysTest {
  record Reading(String sensor, String at, Object value, String label) {}

  static final Entity<Reading> READINGS =
      Entity.define("reading", Reading.class)
          .service("lab")
          .attribute(Attribute.string("sensor").required())
          .attribute(Attribute.string("at").required())
          .attribute(Attribute.any("value").required())
          .attribute(Attribute.string("label").required())
          .index(Index.primary("byTime").pk("sensor").sk("at"))
          .index(
              Index.secondary("byValue")
                  .pk("sensor")
                  .sk(KeyDefinition.template("${value|key}${label|key}")))
          .build();

  private static final Object[] VALUES = {-1e6, -2.5, -2, -0.001, 0, 0.5, 2, 2.5, 10, 1e6};

  Database db;
  EntityClient<Reading> readings;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    readings =
        Service.define("lab")
            .entity(READINGS)
            .build()
            .open(db, "Lab", Duration.ofSeconds(30))
            .entity(READINGS);
    for (int i = VALUES.length - 1; i >= 0; i--) {
      readings.create(new Reading("s1", "t" + i, VALUES[i], "abc" + i));
    }
    readings.create(new Reading("s1", "tb", 2, "b"));
  }

  @AfterEach
  void close() {
    db.close();
  }

  private List<String> labels(EntityQuery<Reading> query) {
    return query.all().stream().map(Reading::label).toList();
  }

  @Test
  void anIndexWithASortableSlotListsNumbersInNumericOrder() {
    assertThat(labels(readings.query("byValue", Map.of("sensor", "s1"))))
        .containsExactly(
            "abc0", "abc1", "abc2", "abc3", "abc4", "abc5", "abc6", "b", "abc7", "abc8", "abc9");
  }

  @Test
  void rangeConditionsOnASortableSlotFollowNumericOrder() {
    var s1 = Map.of("sensor", "s1");
    assertThat(labels(readings.query("byValue", s1).gt(Map.of("value", -2))))
        .containsExactly("abc3", "abc4", "abc5", "abc6", "b", "abc7", "abc8", "abc9");
    assertThat(labels(readings.query("byValue", s1).gte(Map.of("value", 2.0))))
        .containsExactly("abc6", "b", "abc7", "abc8", "abc9");
    assertThat(labels(readings.query("byValue", s1).lt(Map.of("value", 0))))
        .containsExactly("abc0", "abc1", "abc2", "abc3");
    assertThat(labels(readings.query("byValue", s1).lte(Map.of("value", 2))))
        .containsExactly("abc0", "abc1", "abc2", "abc3", "abc4", "abc5", "abc6", "b");
    assertThat(
            labels(
                readings.query("byValue", s1).between(Map.of("value", -2.5), Map.of("value", 0.5))))
        .containsExactly("abc1", "abc2", "abc3", "abc4", "abc5");
  }

  @Test
  void keyValuesAndBeginsNarrowWithinOneValue() {
    var atTwo = Map.<String, Object>of("sensor", "s1", "value", 2L);
    assertThat(labels(readings.query("byValue", atTwo))).containsExactly("abc6", "b");
    assertThat(labels(readings.query("byValue", atTwo).begins(Map.of("label", "ab"))))
        .containsExactly("abc6");
    assertThat(labels(readings.query("byValue", atTwo).gt(Map.of("label", "abc6"))))
        .containsExactly("b");
  }

  @Test
  void aSortableSlotTakesNoPaddingAndNoCasing() {
    for (Index index :
        List.of(
            Index.secondary("padded").pk("sensor").sk(KeyDefinition.template("${at|key}")),
            Index.secondary("cased")
                .pk("sensor")
                .sk(KeyDefinition.template("${label|key}"))
                .casing(Casing.LOWER))) {
      ViewbaseException e =
          catchThrowableOfType(
              () ->
                  Entity.define("r", Reading.class)
                      .service("lab")
                      .attribute(Attribute.string("sensor"))
                      .attribute(Attribute.string("at").padding(4))
                      .attribute(Attribute.string("label"))
                      .index(Index.primary("p").pk("sensor"))
                      .index(index)
                      .build(),
              ViewbaseException.class);
      assertThat(e).as(index.name()).isNotNull();
      assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
      assertThat(e.getMessage()).contains("takes no padding and no casing");
    }
  }
}
