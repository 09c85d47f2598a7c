package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.storage.spi.Capabilities;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.PartitionCursor;
import io.viewbase.storage.spi.Snapshot;
import io.viewbase.storage.spi.StorageException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Capabilities and closing. Behaviour after {@link io.viewbase.storage.spi.Store#close()}:
 *
 * <table>
 *   <caption>after the store is closed</caption>
 *   <tr><th>call</th><th>result</th></tr>
 *   <tr><td>store get, scan, commit, snapshot</td><td>{@link StorageException}</td></tr>
 *   <tr><td>next() on a cursor opened before</td><td>{@link StorageException}</td></tr>
 *   <tr><td>get on a snapshot taken before</td><td>{@link StorageException}</td></tr>
 *   <tr><td>close() of anything, again</td><td>nothing</td></tr>
 * </table>
 */
public interface LifecycleContract extends StoreFixture {

  @Test
  default void capabilitiesAreDeclaredAndConsistent() {
    Capabilities capabilities = store().capabilities();

    assertThat(capabilities).isNotNull();
    if (capabilities.groupCommit()) {
      assertThat(capabilities.durableCommits())
          .as("group commit is a way to make durable commits cheap")
          .isTrue();
    }
    if (capabilities.isolatedBatches()) {
      assertThat(capabilities.atomicMultiPartitionBatch())
          .as("an isolated batch is atomic")
          .isTrue();
    }
  }

  @Test
  default void closingCursorsAndSnapshotsTwiceIsHarmless() {
    write(put("p", "k", 1, "v"));
    Cursor cursor = store().scan(b("p"), KeyRange.ALL, false);
    PartitionCursor partitions = store().partitions(b(""), null);
    cursor.close();
    cursor.close();
    partitions.close();
    partitions.close();
    if (store().capabilities().snapshots()) {
      Snapshot snapshot = store().snapshot();
      snapshot.close();
      snapshot.close();
    }

    assertThat(store().get(b("p"), b("k"))).isPresent();
  }

  @Test
  default void closingTheStoreTwiceIsHarmless() {
    store().close();
    store().close();
  }

  @Test
  default void storeAfterCloseFailsWithStorageExceptionOfKindClosed() {
    write(put("p", "k", 1, "v"));
    store().close();

    assertThatThrownBy(() -> store().get(b("p"), b("k")))
        .isInstanceOf(StorageException.class)
        .extracting(e -> ((StorageException) e).kind())
        .isEqualTo(StorageException.Kind.CLOSED);
    assertThatThrownBy(() -> store().scan(b("p"), KeyRange.ALL, false))
        .isInstanceOf(StorageException.class)
        .extracting(e -> ((StorageException) e).kind())
        .isEqualTo(StorageException.Kind.CLOSED);
    assertThatThrownBy(() -> store().commit(List.of(put("p", "k", 2, "v"))))
        .isInstanceOf(StorageException.class)
        .extracting(e -> ((StorageException) e).kind())
        .isEqualTo(StorageException.Kind.CLOSED);
  }

  @Test
  default void cursorsAndSnapshotsLeftOpenFailCleanlyAfterTheStoreCloses() {
    write(put("p", "a", 1, "v"), put("p", "b", 1, "v"));
    Cursor cursor = store().scan(b("p"), KeyRange.ALL, false);
    Cursor all = store().scanAll(b(""), null, null);
    PartitionCursor partitions = store().partitions(b(""), null);
    assertThat(cursor.next()).isTrue();
    Snapshot snapshot = store().capabilities().snapshots() ? store().snapshot() : null;

    store().close();

    assertThatThrownBy(cursor::next).isInstanceOf(StorageException.class);
    assertThatThrownBy(all::next).isInstanceOf(StorageException.class);
    assertThatThrownBy(partitions::next).isInstanceOf(StorageException.class);
    if (snapshot != null) {
      assertThatThrownBy(() -> snapshot.get(b("p"), b("a"))).isInstanceOf(StorageException.class);
      snapshot.close();
    }
    cursor.close();
    all.close();
    partitions.close();
  }
}
