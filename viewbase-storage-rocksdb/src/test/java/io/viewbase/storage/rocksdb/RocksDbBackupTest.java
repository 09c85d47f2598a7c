package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.viewbase.storage.spi.BackupRun;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageProvider;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.StoreConfig;
import io.viewbase.storage.spi.StoredBackup;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Online backups of the RocksDB store and offline restores, on temporary directories. */
class RocksDbBackupTest {
  @TempDir Path dir;

  private final StorageProvider provider = new RocksDbStorageProvider();

  private Store open(Path data) {
    return provider.open(new StoreConfig(data, true, Map.of()));
  }

  @Test
  void restoreOfABackupHoldsEveryKeyCommittedBeforeIt() {
    Path backups = dir.resolve("backups");
    try (Store store = open(dir.resolve("data"))) {
      write(store, "p", 0, 500);
      BackupRun run = store.backup(backups);
      assertThat(run.backup().id()).isEqualTo(1);
      assertThat(run.filesCopied()).isEqualTo(run.backup().files()).isPositive();
      assertThat(run.bytesCopied()).isPositive();
      write(store, "after", 0, 10); // not in the backup
    }

    StoredBackup restored = provider.restore(backups, OptionalLong.empty(), dir.resolve("copy"));

    assertThat(restored.id()).isEqualTo(1);
    try (Store copy = open(dir.resolve("copy"))) {
      for (int i = 0; i < 500; i++) {
        assertThat(copy.get(b("p"), key(i))).as("key %d", i).isPresent();
      }
      assertThat(copy.get(b("after"), key(0))).isEmpty();
    }
  }

  @Test
  void secondBackupIntoTheSameDirectoryCopiesOnlyTheNewFiles() {
    Path backups = dir.resolve("backups");
    try (Store store = open(dir.resolve("data"))) {
      for (int round = 0; round < 5; round++) {
        write(store, "p" + round, 0, 2000);
        store.backup(dir.resolve("scratch" + round)); // flushes: one more table file each round
      }
      BackupRun first = store.backup(backups);
      write(store, "q", 0, 10);
      BackupRun second = store.backup(backups);

      assertThat(second.backup().id()).isEqualTo(2);
      assertThat(second.filesShared()).isPositive();
      assertThat(second.filesCopied()).isLessThan(first.filesCopied());
      assertThat(second.bytesCopied()).isLessThan(first.bytesCopied());
      assertThat(provider.backups(backups)).extracting(StoredBackup::id).containsExactly(1L, 2L);
    }
  }

  @Test
  void restoreByIdRestoresThatBackupAndNotTheLatest() {
    Path backups = dir.resolve("backups");
    try (Store store = open(dir.resolve("data"))) {
      write(store, "first", 0, 3);
      store.backup(backups);
      write(store, "second", 0, 3);
      store.backup(backups);
    }

    provider.restore(backups, OptionalLong.of(1), dir.resolve("one"));
    provider.restore(backups, OptionalLong.empty(), dir.resolve("latest"));

    try (Store one = open(dir.resolve("one"));
        Store latest = open(dir.resolve("latest"))) {
      assertThat(one.get(b("first"), key(0))).isPresent();
      assertThat(one.get(b("second"), key(0))).isEmpty();
      assertThat(latest.get(b("second"), key(0))).isPresent();
    }
  }

  @Test
  void restoreIntoANonEmptyDirectoryIsRefusedAndLeavesItAsItWas() throws Exception {
    Path backups = dir.resolve("backups");
    try (Store store = open(dir.resolve("data"))) {
      write(store, "p", 0, 3);
      store.backup(backups);
    }
    Path other = dir.resolve("other");
    try (Store store = open(other)) {
      write(store, "mine", 0, 1);
    }
    List<Path> before;
    try (var files = Files.list(other)) {
      before = files.sorted().toList();
    }

    assertThatIllegalArgumentException()
        .isThrownBy(() -> provider.restore(backups, OptionalLong.empty(), other))
        .withMessageContaining("is not empty");

    try (var files = Files.list(other)) {
      assertThat(files.sorted().toList()).isEqualTo(before);
    }
    try (Store store = open(other)) {
      assertThat(store.get(b("mine"), key(0))).isPresent();
      assertThat(store.get(b("p"), key(0))).isEmpty();
    }
  }

  @Test
  void restoreOfAnUnknownIdOrFromADirectoryWithoutBackupsIsRefused() throws Exception {
    Path backups = dir.resolve("backups");
    try (Store store = open(dir.resolve("data"))) {
      write(store, "p", 0, 1);
      store.backup(backups);
    }
    assertThatIllegalArgumentException()
        .isThrownBy(() -> provider.restore(backups, OptionalLong.of(7), dir.resolve("x")))
        .withMessageContaining("holds no backup 7");
    Files.createDirectories(dir.resolve("empty"));
    assertThatIllegalArgumentException()
        .isThrownBy(
            () -> provider.restore(dir.resolve("empty"), OptionalLong.empty(), dir.resolve("y")))
        .withMessageContaining("holds no backups");
    assertThat(dir.resolve("x")).doesNotExist();
    assertThat(provider.backups(dir.resolve("absent"))).isEmpty();
  }

  @Test
  void backupIntoTheDataDirectoryAFileOrAForeignDirectoryIsRefused() throws Exception {
    Path data = dir.resolve("data");
    Path file = Files.writeString(dir.resolve("file"), "x");
    Path foreign = dir.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    try (Store store = open(data)) {
      assertThatIllegalArgumentException()
          .isThrownBy(() -> store.backup(data.resolve("backups")))
          .withMessageContaining("overlap");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> store.backup(dir))
          .withMessageContaining("overlap");
      Path link = Files.createSymbolicLink(dir.resolve("link"), data);
      assertThatIllegalArgumentException()
          .isThrownBy(() -> store.backup(link.resolve("backups")))
          .withMessageContaining("overlap");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> store.backup(file))
          .withMessageContaining("is a file");
      assertThatIllegalArgumentException()
          .isThrownBy(() -> store.backup(foreign))
          .withMessageContaining("not Viewbase backups");
    }
    assertThat(foreign.resolve("meta")).doesNotExist();
    assertThat(Files.readString(file)).isEqualTo("x");
  }

  @Test
  void backupIntoADirectoryAnotherBackupHoldsIsRefused() throws Exception {
    Path backups = dir.resolve("backups");
    Files.createDirectories(backups);
    try (Store store = open(dir.resolve("data"));
        FileChannel channel =
            FileChannel.open(
                backups.resolve(RocksDbBackups.LOCK_FILE),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      write(store, "p", 0, 1);
      assertThatIllegalStateException()
          .isThrownBy(() -> store.backup(backups))
          .withMessageContaining("Another backup into");
    }
    try (Store store = open(dir.resolve("data"))) {
      assertThat(store.backup(backups).backup().id()).isEqualTo(1); // the lock is gone: it runs
    }
  }

  /**
   * A backup copying at most 1 MiB/s ({@code rocksdb.backupBytesPerSecond}) of 2 MiB of
   * incompressible values takes seconds; a second backup of the store meanwhile, into another
   * directory, is refused, and the first one completes.
   */
  @Test
  void aSecondBackupWhileARateLimitedOneRunsIsRefusedAndTheFirstCompletes() throws Exception {
    Path data = dir.resolve("data");
    try (Store store =
        provider.open(new StoreConfig(data, true, Map.of("rocksdb.backupBytesPerSecond", "1m")))) {
      java.util.Random random = new java.util.Random(7);
      for (int i = 0; i < 32; i++) {
        byte[] value = new byte[64 * 1024];
        random.nextBytes(value);
        store.commit(List.of(Mutation.put(b("big"), key(i), 1, value)));
      }
      Path first = dir.resolve("first");
      java.util.concurrent.atomic.AtomicReference<BackupRun> done =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread running = new Thread(() -> done.set(store.backup(first)));
      running.start();
      while (!Files.exists(first.resolve(RocksDbBackups.LOCK_FILE))) {
        Thread.sleep(1);
      }
      assertThatIllegalStateException()
          .isThrownBy(() -> store.backup(dir.resolve("second")))
          .withMessageContaining("is running");
      running.join();
      assertThat(done.get().bytesCopied()).isGreaterThan(2L << 20);
      assertThat(done.get().took()).isGreaterThan(java.time.Duration.ofSeconds(1));
      assertThat(dir.resolve("second")).doesNotExist();
    }
  }

  /**
   * Writers commit without pause while backups run; each records a batch once its commit has
   * returned. Every batch acknowledged before a backup began is in its restore, whole: a batch is
   * two keys, and one may not be there without the other.
   */
  @Test
  void backupUnderConcurrentCommitsHoldsEveryBatchAcknowledgedBeforeItAndNoHalfBatch()
      throws Exception {
    Path backups = dir.resolve("backups");
    AtomicBoolean stop = new AtomicBoolean();
    ConcurrentLinkedQueue<Integer> acknowledged = new ConcurrentLinkedQueue<>();
    List<List<Integer>> before = new ArrayList<>();
    try (Store store = open(dir.resolve("data"))) {
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        Thread t =
            new Thread(
                () -> {
                  for (int n = writer; !stop.get(); n += 4) {
                    try {
                      store.commit(
                          List.of(
                              Mutation.put(b("a"), key(n), 1, b("v" + n)),
                              Mutation.put(b("z"), key(n), 1, b("v" + n))));
                    } catch (Exception e) {
                      throw new AssertionError(e);
                    }
                    acknowledged.add(n);
                  }
                });
        t.start();
        writers.add(t);
      }
      for (int i = 0; i < 3; i++) {
        // each backup after new acknowledgements, however slow the machine's syncs are
        int seen = acknowledged.size();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        do {
          Thread.sleep(100);
        } while (acknowledged.size() == seen && System.nanoTime() < deadline);
        before.add(List.copyOf(acknowledged));
        store.backup(backups);
      }
      stop.set(true);
      for (Thread t : writers) {
        t.join();
      }
    }

    for (int i = 0; i < before.size(); i++) {
      Path copy = dir.resolve("copy" + i);
      provider.restore(backups, OptionalLong.of(i + 1), copy);
      try (Store restored = open(copy)) {
        assertThat(before.get(i)).isNotEmpty();
        for (int n : before.get(i)) {
          assertThat(restored.get(b("a"), key(n)))
              .as("batch %d in backup %d", n, i + 1)
              .isPresent();
        }
        int a = 0;
        int z = 0;
        try (var cursor = restored.scan(b("a"), io.viewbase.storage.spi.KeyRange.ALL, false)) {
          while (cursor.next()) {
            a++;
            assertThat(restored.get(b("z"), cursor.key())).isPresent();
          }
        }
        try (var cursor = restored.scan(b("z"), io.viewbase.storage.spi.KeyRange.ALL, false)) {
          while (cursor.next()) {
            z++;
          }
        }
        assertThat(z).as("half batches in backup %d", i + 1).isEqualTo(a);
      }
    }
  }

  /** Commits {@code count} keys, a hundred to a batch (each commit syncs the log). */
  private static void write(Store store, String partition, int from, int count) {
    try {
      List<Mutation> batch = new ArrayList<>();
      for (int i = from; i < from + count; i++) {
        batch.add(Mutation.put(b(partition), key(i), 1, b("value-" + i)));
        if (batch.size() == 100 || i == from + count - 1) {
          store.commit(batch);
          batch = new ArrayList<>();
        }
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static byte[] key(int i) {
    return b(String.format("%08d", i));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
