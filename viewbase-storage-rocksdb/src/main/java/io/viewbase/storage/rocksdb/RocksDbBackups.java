package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.BackupRun;
import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoredBackup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.rocksdb.BackupEngine;
import org.rocksdb.BackupEngineOptions;
import org.rocksdb.BackupInfo;
import org.rocksdb.Env;
import org.rocksdb.RestoreOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Backups of a RocksDB store with RocksDB's {@link BackupEngine}: numbered backups in one
 * directory, table files shared between them (named by their checksum and size), so that a second
 * backup copies only the files written since the first, and every file checksummed again when it is
 * restored.
 *
 * <p>Why the engine and not a {@code Checkpoint}: a checkpoint is hard links on the data
 * directory's file system and a full copy anywhere else, every time; the engine gives incremental
 * copies to any directory, keeps several backups side by side and checks them on restore.
 *
 * <p>Consistency: the engine flushes the memtable first ({@code flushBeforeBackup}) and copies the
 * live files as of that flush, with file deletions held off meanwhile. A batch whose commit
 * returned had been written to the memtable by then (group commit acknowledges a group only after
 * its one {@code write}), so it is in the backup; a group still in flight is one {@code
 * WriteBatch}, so it is in the backup whole or not at all. The store keeps everything in one column
 * family, so the flush is one cut. No log files are copied: the flush leaves nothing only they
 * hold.
 *
 * <p>A backup directory holds the engine's {@code meta/}, {@code private/} and {@code
 * shared_checksum/} and the {@value #LOCK_FILE} file, which one backup holds at a time (across
 * processes too: the engine itself does not lock its directory).
 */
final class RocksDbBackups {
  static final String LOCK_FILE = "viewbase-backup.lock";

  /** Written into each backup's metadata, so that a listing can tell whose backups they are. */
  private static final String METADATA = "viewbase backup, format 1";

  private static final String SHARED = "shared_checksum";
  private static final String PRIVATE = "private";
  private static final String META = "meta";

  static {
    // A listing or a restore may be the first RocksDB call of the process (viewbase restore opens
    // no store before it): the native library must be loaded here too, not only by RocksDbStore.
    RocksDB.loadLibrary();
  }

  private RocksDbBackups() {}

  /**
   * Takes one backup of {@code db}, whose data is in {@code dataDirectory}, into {@code target},
   * copying at most {@code bytesPerSecond} (0: no limit); see {@link
   * io.viewbase.storage.spi.Store#backup} for what it answers.
   */
  static BackupRun backup(RocksDB db, Path dataDirectory, Path target, long bytesPerSecond) {
    long started = System.nanoTime();
    Path dir = checkTarget(dataDirectory, target);
    try (FileChannel lockChannel =
            FileChannel.open(
                dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = tryLock(lockChannel, dir)) {
      Map<String, Long> sharedBefore = files(dir.resolve(SHARED));
      try (BackupEngineOptions options = engineOptions(dir);
          BackupEngine engine =
              BackupEngine.open(
                  Env.getDefault(),
                  bytesPerSecond > 0 ? options.setBackupRateLimit(bytesPerSecond) : options)) {
        engine.createNewBackupWithMetadata(db, METADATA, true);
        BackupInfo info = latest(engine.getBackupInfo()).orElseThrow();
        int copied = 0;
        long bytes = 0;
        for (Map.Entry<String, Long> file : files(dir.resolve(SHARED)).entrySet()) {
          if (!sharedBefore.containsKey(file.getKey())) {
            copied++;
            bytes += file.getValue();
          }
        }
        for (long size :
            files(dir.resolve(PRIVATE).resolve(Integer.toString(info.backupId()))).values()) {
          copied++;
          bytes += size;
        }
        return new BackupRun(
            stored(info), copied, bytes, Duration.ofNanos(System.nanoTime() - started));
      }
    } catch (RocksDBException e) {
      throw new StorageException(
          "RocksDB failed to back up into " + dir + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw new StorageException("Cannot back up into " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The backups in {@code directory}, oldest first; none if it does not exist or is empty. */
  static List<StoredBackup> list(Path directory) {
    Path dir = directory.toAbsolutePath().normalize();
    if (!holdsBackups(dir)) {
      return List.of();
    }
    try (BackupEngineOptions options = engineOptions(dir);
        BackupEngine engine = BackupEngine.open(Env.getDefault(), options)) {
      return engine.getBackupInfo().stream()
          .sorted(Comparator.comparingInt(BackupInfo::backupId))
          .map(RocksDbBackups::stored)
          .toList();
    } catch (RocksDBException e) {
      throw new StorageException("RocksDB cannot read the backups in " + dir + ": " + e, e);
    }
  }

  /**
   * Restores backup {@code id} (the latest when empty) from {@code from} into {@code
   * dataDirectory}, which must be empty or absent; on failure, removes what it restored so far.
   */
  static StoredBackup restore(Path from, OptionalLong id, Path dataDirectory) {
    Path source = from.toAbsolutePath().normalize();
    Path data = dataDirectory.toAbsolutePath().normalize();
    List<StoredBackup> backups = list(source);
    if (backups.isEmpty()) {
      throw new IllegalArgumentException(
          "The directory " + source + " holds no backups (a 'viewbase backup --to' directory)");
    }
    StoredBackup chosen =
        id.isEmpty()
            ? backups.get(backups.size() - 1)
            : backups.stream()
                .filter(b -> b.id() == id.getAsLong())
                .findFirst()
                .orElseThrow(
                    () ->
                        new IllegalArgumentException(
                            "The directory "
                                + source
                                + " holds no backup "
                                + id.getAsLong()
                                + "; it holds "
                                + backups.stream().map(b -> Long.toString(b.id())).toList()));
    if (!isEmptyOrAbsent(data)) {
      throw new IllegalArgumentException(
          "The data directory "
              + data
              + " is not empty: a restore never overwrites a database (and a server may be running"
              + " on it); restore into a new or empty directory");
    }
    try (BackupEngineOptions options = engineOptions(source);
        BackupEngine engine = BackupEngine.open(Env.getDefault(), options);
        RestoreOptions restore = new RestoreOptions(false)) {
      Files.createDirectories(data);
      engine.restoreDbFromBackup((int) chosen.id(), data.toString(), data.toString(), restore);
      return chosen;
    } catch (RocksDBException | IOException e) {
      removeContents(data);
      throw new StorageException(
          "Cannot restore backup " + chosen.id() + " of " + source + " into " + data + ": " + e, e);
    }
  }

  /**
   * The target as an absolute path, refused where a backup must not go: a file, the data directory
   * or a place inside or around it, a directory holding something other than backups.
   */
  private static Path checkTarget(Path dataDirectory, Path target) {
    Path data = real(dataDirectory);
    Path dir = target.toAbsolutePath().normalize();
    Path realDir = real(dir);
    if (realDir.startsWith(data) || data.startsWith(realDir)) {
      throw new IllegalArgumentException(
          "The backup directory "
              + dir
              + " and the data directory "
              + data
              + " overlap; back up into a directory outside the data directory");
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IllegalArgumentException(
          "The backup target " + dir + " is a file; name a directory");
    }
    if (!isEmptyOrAbsent(dir) && !holdsBackups(dir)) {
      throw new IllegalArgumentException(
          "The backup directory "
              + dir
              + " holds files that are not Viewbase backups; name a new or empty directory, or one"
              + " that earlier backups wrote");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "Cannot create the backup directory " + dir + ": " + e.getMessage(), e);
    }
    return dir;
  }

  /**
   * The path with every symbolic link of its longest existing prefix resolved, so that a link into
   * the data directory is seen for what it is; the rest, not yet created, as given.
   */
  private static Path real(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    Path existing = absolute;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return absolute;
    }
    try {
      return existing.toRealPath().resolve(existing.relativize(absolute));
    } catch (IOException e) {
      return absolute;
    }
  }

  private static FileLock tryLock(FileChannel channel, Path dir) throws IOException {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // this process holds it: a backup of another store into the same directory
    }
    if (lock == null) {
      throw new IllegalStateException(
          "Another backup into " + dir + " is running; wait for it to finish");
    }
    return lock;
  }

  private static BackupEngineOptions engineOptions(Path dir) {
    return new BackupEngineOptions(dir.toString())
        .setShareTableFiles(true)
        .setShareFilesWithChecksum(true)
        .setSync(true)
        .setMaxBackgroundOperations(2);
  }

  private static java.util.Optional<BackupInfo> latest(List<BackupInfo> infos) {
    return infos.stream().max(Comparator.comparingInt(BackupInfo::backupId));
  }

  private static StoredBackup stored(BackupInfo info) {
    return new StoredBackup(
        info.backupId(), Instant.ofEpochSecond(info.timestamp()), info.size(), info.numberFiles());
  }

  /** Whether a backup was made (or begun: it takes the lock first) in {@code dir}. */
  private static boolean holdsBackups(Path dir) {
    return Files.isDirectory(dir.resolve(META)) || Files.exists(dir.resolve(LOCK_FILE));
  }

  private static boolean isEmptyOrAbsent(Path dir) {
    if (!Files.exists(dir)) {
      return true;
    }
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The regular files directly in {@code dir}, by name, with their sizes; none if it is absent. */
  private static Map<String, Long> files(Path dir) throws IOException {
    Map<String, Long> files = new HashMap<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path file : (Iterable<Path>) entries::iterator) {
        if (Files.isRegularFile(file)) {
          files.put(file.getFileName().toString(), Files.size(file));
        }
      }
    }
    return files;
  }

  /** Deletes everything under {@code dir}, keeping {@code dir}; best effort. */
  private static void removeContents(Path dir) {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder())
          .filter(p -> !p.equals(dir))
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException ignored) {
                  // best effort: the failure itself is what the caller reports
                }
              });
    } catch (IOException ignored) {
      // as above
    }
  }
}
