package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.KeyRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Data outlives the store object, for backends that keep it ({@link StoreFixture#survivesReopen}).
 */
public interface DurabilityContract extends StoreFixture {

  @Test
  default void syncedCommitsSurviveCloseAndReopen() {
    assumeTrue(survivesReopen(), "backend does not keep data across reopen");
    reopen(true);
    write(put("p", "a", 1, "one"), put("q", "b", 2, "two"));
    write(put("p", "a", 3, "three", Condition.version(1)), delete("q", "b"));

    reopen(false);

    assertThat(store().get(b("p"), b("a")).orElseThrow().version()).isEqualTo(3);
    assertThat(store().get(b("q"), b("b"))).isEmpty();
    assertThat(Entry.drain(store().scanAll(b(""), null, null)))
        .containsExactly(new Entry("p", "a", 3, "three"));
  }

  @Test
  default void unsyncedCommitsSurviveACleanClose() {
    assumeTrue(survivesReopen(), "backend does not keep data across reopen");
    for (int i = 0; i < 100; i++) {
      write(put("p", String.format("k%03d", i), i, "v" + i));
    }

    reopen(false);

    List<Entry> entries = Entry.drain(store().scan(b("p"), KeyRange.ALL, false));
    assertThat(entries).hasSize(100);
    assertThat(entries.get(99)).isEqualTo(new Entry("p", "k099", 99, "v99"));
  }

  @Test
  default void storeReopenedTwiceKeepsWorking() {
    assumeTrue(survivesReopen(), "backend does not keep data across reopen");
    write(put("p", "a", 1, "x"));
    reopen(true);
    write(put("p", "b", 1, "y", Condition.ABSENT));
    reopen(true);

    assertThat(Entry.keys(Entry.drain(store().scan(b("p"), KeyRange.ALL, false))))
        .containsExactly("a", "b");
  }
}
