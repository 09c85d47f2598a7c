package io.viewbase.storage.rocksdb;

import io.viewbase.storage.spi.StorageException;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Refuses writes while the data directory's file system has less free space than a reserve, so that
 * RocksDB itself rarely meets ENOSPC. It matters because RocksDB stops every write after an ENOSPC
 * in its log and resumes only on {@code DB::Resume()}, which RocksJava does not expose: the store
 * would then take writes again only once reopened. A refusal here leaves RocksDB untouched, so
 * writes go on as soon as space is back. ENOSPC in a flush or compaction (which the reserve makes
 * room for) RocksDB recovers from by itself, its SstFileManager polling for free space.
 *
 * <pre>
 * free space (checked)   | a group write
 * -----------------------+----------------------------------------------------------
 * at least the reserve   | goes to RocksDB
 * below the reserve      | fails NO_SPACE before RocksDB sees it; nothing is written
 * reserve 0              | never checked: RocksDB's own ENOSPC is the only refusal
 * </pre>
 *
 * The free space is read (one statvfs) at most every {@link #CHECK_NANOS} or after a tenth of the
 * reserve was written since, and at every write while below the reserve, so that writes resume at
 * the first one after space is freed. Used by the group-commit leader only: not thread-safe.
 */
final class SpaceReserve {
  static final long CHECK_NANOS = 10_000_000L;

  private final Path directory;
  private final FileStore fileStore;
  private final long reserveBytes;
  private long checkedAt;
  private long writtenSinceCheck;
  private long lastFree = Long.MAX_VALUE;

  SpaceReserve(Path directory, long reserveBytes) {
    this.directory = directory;
    this.reserveBytes = reserveBytes;
    FileStore store = null;
    if (reserveBytes > 0) {
      try {
        store = Files.getFileStore(directory);
      } catch (IOException e) {
        store = null; // no file store to ask (an unusual file system): RocksDB's ENOSPC decides
      }
    }
    this.fileStore = store;
    this.checkedAt = System.nanoTime() - CHECK_NANOS;
  }

  /**
   * Throws NO_SPACE if the file system is below the reserve, before a write of {@code bytes}.
   *
   * @throws StorageException of kind NO_SPACE, naming the directory, the free space and the reserve
   */
  void check(long bytes) {
    if (fileStore == null) {
      return;
    }
    long now = System.nanoTime();
    writtenSinceCheck += bytes;
    if (lastFree < reserveBytes
        || now - checkedAt >= CHECK_NANOS
        || writtenSinceCheck >= reserveBytes / 10) {
      try {
        lastFree = fileStore.getUsableSpace();
      } catch (IOException e) {
        lastFree = Long.MAX_VALUE; // cannot tell: let RocksDB try
      }
      checkedAt = now;
      writtenSinceCheck = 0;
    }
    if (lastFree < reserveBytes) {
      throw new StorageException(
          "the file system of the data directory "
              + directory
              + " is full ("
              + lastFree
              + " bytes free, below the reserve of "
              + reserveBytes
              + "): writes are refused until space is freed (reads go on)",
          null,
          StorageException.Kind.NO_SPACE);
    }
  }
}
