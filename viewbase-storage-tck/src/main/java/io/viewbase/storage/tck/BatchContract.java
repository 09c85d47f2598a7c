package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.check;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Mutation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Batches: all or nothing across partitions, and the shapes of batch the store refuses. */
public interface BatchContract extends StoreFixture {

  @Test
  default void commitAcrossPartitionsAppliesEveryMutation() {
    write(put("p1", "k", 1, "a"), put("p2", "k", 1, "b"), put("p3", "k", 1, "c"));

    write(
        put("p1", "k", 2, "a2"),
        delete("p2", "k"),
        check("p3", "k", Condition.version(1)),
        put("p4", "k", 1, "d", Condition.ABSENT));

    assertThat(store().get(b("p1"), b("k")).orElseThrow().version()).isEqualTo(2);
    assertThat(store().get(b("p2"), b("k"))).isEmpty();
    assertThat(store().get(b("p3"), b("k")).orElseThrow().version()).isEqualTo(1);
    assertThat(store().get(b("p4"), b("k")).orElseThrow().value()).isEqualTo(b("d"));
  }

  @Test
  default void commitWhenThirdConditionFailsWritesNothingAndReportsIndexTwo() {
    write(put("p1", "k", 1, "a"), put("p2", "k", 1, "b"), put("p3", "k", 7, "c"));
    List<Entry> before = Entry.drain(store().scanAll(b(""), null, null));

    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class,
            () ->
                store()
                    .commit(
                        List.of(
                            put("p1", "k", 2, "a2", Condition.version(1)),
                            delete("p2", "k", Condition.EXISTS),
                            put("p3", "k", 8, "c2", Condition.version(6)),
                            put("p4", "k", 1, "d"))));

    assertThat(failure).isNotNull();
    assertThat(failure.index()).isEqualTo(2);
    assertThat(failure.actualVersion()).isEqualTo(7L);
    assertThat(failure.condition()).isEqualTo(Condition.version(6));
    assertThat(Entry.drain(store().scanAll(b(""), null, null))).isEqualTo(before);
  }

  @Test
  default void commitWhenSeveralConditionsFailReportsTheFirst() {
    write(put("p", "b", 1, "x"));

    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class,
            () ->
                store()
                    .commit(
                        List.of(
                            put("p", "a", 1, "x"),
                            check("p", "b", Condition.ABSENT),
                            check("p", "c", Condition.EXISTS))));

    assertThat(failure.index()).isEqualTo(1);
    assertThat(failure.actualVersion()).isEqualTo(1L);
    assertThat(store().get(b("p"), b("a"))).isEmpty();
  }

  @Test
  default void commitWhenConditionFailsOnAbsentKeyReportsNullVersion() {
    ConditionFailedException failure =
        catchThrowableOfType(
            ConditionFailedException.class,
            () ->
                store()
                    .commit(List.of(put("p", "a", 1, "x"), delete("q", "gone", Condition.EXISTS))));

    assertThat(failure.index()).isEqualTo(1);
    assertThat(failure.actualVersion()).isNull();
  }

  @Test
  default void commitOfEmptyBatchFailsWithIllegalArgument() {
    assertThatIllegalArgumentException().isThrownBy(() -> store().commit(List.of()));
  }

  @Test
  default void commitNamingAKeyTwiceFailsWithIllegalArgumentAndWritesNothing() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                store()
                    .commit(
                        List.of(put("p", "a", 1, "x"), put("p", "k", 1, "x"), delete("p", "k"))));

    assertThat(Entry.drain(store().scan(b("p"), KeyRange.ALL, false))).isEmpty();
  }

  @Test
  default void commitNamingAKeyTwiceViaCheckFailsWithIllegalArgument() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                store().commit(List.of(check("p", "k", Condition.ABSENT), put("p", "k", 1, "x"))));
  }

  @Test
  default void commitOfTheSameKeyInDifferentPartitionsIsAllowed() {
    write(put("a", "k", 1, "x"), put("ab", "k", 1, "y"), put("a\0", "k", 1, "z"));

    assertThat(store().get(b("ab"), b("k")).orElseThrow().value()).isEqualTo(b("y"));
  }

  @Test
  default void commitOfAKeyThatOnlyLooksAlikeAcrossThePartitionBoundaryIsAllowed() {
    // ("a", "\0b") and ("a\0", "b") must stay two different keys, whatever the backend's encoding.
    write(
        new Mutation.Put(b("a"), b("\0b"), 1, b("x"), Condition.ABSENT),
        new Mutation.Put(b("a\0"), b("b"), 2, b("y"), Condition.ABSENT));

    assertThat(store().get(b("a"), b("\0b")).orElseThrow().version()).isEqualTo(1);
    assertThat(store().get(b("a\0"), b("b")).orElseThrow().version()).isEqualTo(2);
  }
}
