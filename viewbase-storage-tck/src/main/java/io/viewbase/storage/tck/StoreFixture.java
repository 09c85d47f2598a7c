package io.viewbase.storage.tck;

import static org.assertj.core.api.Assertions.fail;

import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Store;
import java.util.List;

/**
 * What every conformance contract needs from the test class: the store under test, opened fresh for
 * each test, and a way to close and reopen it on the same data.
 */
public interface StoreFixture {
  /** The store under test, opened with {@code sync=false} before each test. */
  Store store();

  /** Closes the store under test and opens it again on the same directory. */
  Store reopen(boolean sync);

  /** Whether data committed before {@link #reopen} is there afterwards. */
  boolean survivesReopen();

  /** Commits a batch that is expected to succeed. */
  default void write(Mutation... batch) {
    try {
      store().commit(List.of(batch));
    } catch (ConditionFailedException e) {
      fail("expected the batch to commit", e);
    }
  }
}
