package io.viewbase.storage.spi;

import java.time.Instant;

/**
 * One backup that a backup directory holds: a consistent copy of a whole store as it was at {@code
 * created}.
 *
 * @param id the backup's number in its directory: 1 for the first, one more for each after
 * @param created when the backup was taken (second precision)
 * @param sizeBytes the bytes of every file the backup is made of, shared with other backups or not
 * @param files how many files it is made of
 */
public record StoredBackup(long id, Instant created, long sizeBytes, int files) {}
