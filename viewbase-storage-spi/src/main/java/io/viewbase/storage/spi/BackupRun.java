package io.viewbase.storage.spi;

import java.time.Duration;

/**
 * What one {@link Store#backup} did: the backup it made and how much of it had to be copied. A file
 * an earlier backup in the same directory already holds is shared, not copied again; {@code
 * backup.files() - filesCopied} files were shared.
 *
 * @param backup the backup made
 * @param filesCopied files written into the backup directory by this run
 * @param bytesCopied their bytes
 * @param took how long the run took, from the call to the backup being durable
 */
public record BackupRun(StoredBackup backup, int filesCopied, long bytesCopied, Duration took) {
  public int filesShared() {
    return backup.files() - filesCopied;
  }
}
