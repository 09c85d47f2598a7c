package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.check;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Versioned;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every condition kind on every mutation kind, met and not met. The key is either absent ({@code
 * -}) or present at version 5 with value "old".
 */
public interface ConditionContract extends StoreFixture {

  @ParameterizedTest(name = "{0} on {1} when {2} -> met={3}")
  @CsvSource({
    "put,    -, NONE,     true",
    "put,    5, NONE,     true",
    "put,    -, ABSENT,   true",
    "put,    5, ABSENT,   false",
    "put,    5, EXISTS,   true",
    "put,    -, EXISTS,   false",
    "put,    5, VERSION5, true",
    "put,    5, VERSION6, false",
    "put,    -, VERSION5, false",
    "delete, -, NONE,     true",
    "delete, 5, NONE,     true",
    "delete, -, ABSENT,   true",
    "delete, 5, ABSENT,   false",
    "delete, 5, EXISTS,   true",
    "delete, -, EXISTS,   false",
    "delete, 5, VERSION5, true",
    "delete, 5, VERSION6, false",
    "delete, -, VERSION5, false",
    "check,  -, NONE,     true",
    "check,  5, NONE,     true",
    "check,  -, ABSENT,   true",
    "check,  5, ABSENT,   false",
    "check,  5, EXISTS,   true",
    "check,  -, EXISTS,   false",
    "check,  5, VERSION5, true",
    "check,  5, VERSION6, false",
    "check,  -, VERSION5, false",
  })
  default void commitAppliesTheMutationOnlyWhenItsConditionHolds(
      String kind, String existing, String condition, boolean met) {
    Long before = existing.equals("-") ? null : Long.valueOf(existing);
    if (before != null) {
      write(put("p", "k", before, "old"));
    }
    Condition cond =
        switch (condition) {
          case "NONE" -> Condition.NONE;
          case "ABSENT" -> Condition.ABSENT;
          case "EXISTS" -> Condition.EXISTS;
          case "VERSION5" -> Condition.version(5);
          case "VERSION6" -> Condition.version(6);
          default -> throw new IllegalArgumentException(condition);
        };
    Mutation mutation =
        switch (kind) {
          case "put" -> put("p", "k", 9, "new", cond);
          case "delete" -> delete("p", "k", cond);
          case "check" -> check("p", "k", cond);
          default -> throw new IllegalArgumentException(kind);
        };

    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class, () -> store().commit(List.of(mutation)));

    Optional<Versioned> after = store().get(b("p"), b("k"));
    if (!met) {
      assertThat(failure).as("commit should fail").isNotNull();
      assertThat(failure.index()).isZero();
      assertThat(failure.condition()).isEqualTo(cond);
      assertThat(failure.actualVersion()).isEqualTo(before);
      assertThat(after.map(Versioned::version).orElse(null)).as("unchanged").isEqualTo(before);
      return;
    }
    assertThat(failure).as("commit should succeed").isNull();
    switch (kind) {
      case "put" ->
          assertThat(after.map(v -> v.version() + "=" + TestBytes.s(v.value()))).contains("9=new");
      case "delete" -> assertThat(after).isEmpty();
      default -> assertThat(after.map(Versioned::version).orElse(null)).isEqualTo(before);
    }
  }
}
