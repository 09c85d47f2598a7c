package io.viewbase.api;

import java.time.Duration;
import java.time.Instant;

/**
 * What {@link Database#backup} made: a numbered backup in a backup directory, and what taking it
 * cost. Backups in one directory share the files they have in common, so a backup after an earlier
 * one copies only what changed since: {@code filesCopied} of its {@code files}, {@code filesShared}
 * already there.
 *
 * @param id the backup's number in its directory (1, 2, ...): what a restore names
 * @param created when the backup was taken, to the second
 * @param directory the backup directory, absolute, on the database's machine
 * @param sizeBytes the size of every file the backup is made of, shared ones included
 * @param files how many files it is made of
 * @param filesCopied files this backup wrote
 * @param filesShared files it shares with earlier backups in the directory
 * @param bytesCopied the bytes it wrote
 * @param duration how long it took
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record BackupInfo(
    long id,
    Instant created,
    String directory,
    long sizeBytes,
    int files,
    int filesCopied,
    int filesShared,
    long bytesCopied,
    Duration duration) {}
