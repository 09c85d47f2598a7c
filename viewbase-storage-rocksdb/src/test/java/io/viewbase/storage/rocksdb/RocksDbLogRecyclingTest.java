package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.viewbase.storage.spi.StoreConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recycled log files ({@code rocksdb.recycleLogFiles}): once a log's memtable is flushed, the file
 * is written over from its start by a later log rather than deleted, and recovery, after a close or
 * a SIGKILL, replays the new records and stops at the old ones. {@link RecyclingWriter} writes with
 * a small memtable, so logs switch every dozen batches.
 */
class RocksDbLogRecyclingTest {

  @TempDir Path dir;

  @Test
  void logFilesAreWrittenOverByDefaultAndReopeningReplaysOnlyTheNewRecords() throws Exception {
    RecyclingWriter writer = new RecyclingWriter(dir, Map.of());
    int batch = 0;
    int recycled = 0;
    try {
      // go on for a while inside recycled logs: each reuse leaves older records behind the new ones
      for (; batch < RecyclingWriter.MAX_BATCHES && recycled < 40; batch++) {
        if (writer.write(batch)) {
          recycled++;
        }
      }
    } finally {
      writer.close();
    }
    assertThat(recycled).as("batches written into a recycled log, of %d", batch).isEqualTo(40);

    try (RocksDbStore reopened = reopen()) {
      assertThat(RecyclingWriter.assertHolds(reopened, batch - 1)).isEqualTo(batch - 1);
    }
  }

  @Test
  void withZeroEveryLogIsANewFile() throws Exception {
    RecyclingWriter writer =
        new RecyclingWriter(dir, Map.of(RocksDbSettings.RECYCLE_LOG_FILES, "0"));
    try {
      for (int batch = 0; batch < 300; batch++) { // some twenty logs
        assertThat(writer.write(batch)).as("batch %d went into a recycled log", batch).isFalse();
      }
    } finally {
      writer.close();
    }
  }

  @Test
  void aDirectoryCanSwitchRecyclingOnAndOff() throws Exception {
    Map<String, String> off = Map.of(RocksDbSettings.RECYCLE_LOG_FILES, "0");
    int batch = 0;
    for (Map<String, String> options :
        List.of(off, Map.<String, String>of(), off, Map.<String, String>of())) {
      RecyclingWriter writer = new RecyclingWriter(dir, options);
      int recycled = 0;
      try {
        for (int end = batch + 300; batch < end; batch++) { // some twenty logs each time
          recycled += writer.write(batch) ? 1 : 0;
        }
      } finally {
        writer.close();
      }
      if (options.isEmpty()) {
        assertThat(recycled)
            .as("batches into recycled logs, recycling on, up to batch %d", batch)
            .isPositive();
      } else {
        assertThat(recycled)
            .as("batches into recycled logs, recycling off, up to batch %d", batch)
            .isZero();
      }
      try (RocksDbStore reopened = RocksDbStore.open(new StoreConfig(dir, true, off))) {
        RecyclingWriter.assertHolds(reopened, batch - 1);
      }
    }
  }

  @Test
  void aProcessKilledWhileWritingIntoARecycledLogRestartsWithEveryAcknowledgedWrite()
      throws Exception {
    for (int cycle = 0; cycle < 3; cycle++) {
      int lastAcknowledged = killWhileWritingIntoARecycledLog(cycle);
      try (RocksDbStore reopened = reopen()) {
        RecyclingWriter.assertHolds(reopened, lastAcknowledged);
      }
    }
  }

  @Test
  void aBadCountFailsNamingTheOption() {
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                RocksDbStore.open(
                    new StoreConfig(dir, true, Map.of(RocksDbSettings.RECYCLE_LOG_FILES, "-1"))))
        .withMessageContaining(RocksDbSettings.RECYCLE_LOG_FILES)
        .withMessageContaining("'-1'");
  }

  /**
   * The test's store opened again with the writer's memtable size, after the writer closed or died.
   */
  private RocksDbStore reopen() {
    return RocksDbStore.open(
        new StoreConfig(
            dir, true, Map.of(RocksDbSettings.WRITE_BUFFER_BYTES, RecyclingWriter.WRITE_BUFFER)));
  }

  /**
   * Runs {@link RecyclingWriter} in a second JVM, kills it with SIGKILL some batches after its
   * first write into a recycled log, and returns the last batch it acknowledged. Each writer starts
   * again at batch 0, so what the store must hold is this cycle's: by the time its logs are
   * recycled it has written over every key of the ring many times.
   */
  private int killWhileWritingIntoARecycledLog(int cycle) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                RecyclingWriter.class.getName(),
                dir.toAbsolutePath().toString())
            .redirectErrorStream(true)
            .start();
    int lastAcknowledged = -1;
    int recycled = 0;
    StringBuilder output = new StringBuilder();
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      int killAt = 5 + 7 * cycle; // batches into recycled logs before the kill
      // after the kill, read on to the end: what the writer acknowledged before it died is promised
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.matches("(acked|recycled) \\d+")) {
          lastAcknowledged = Integer.parseInt(line.substring(line.indexOf(' ') + 1));
          if (line.startsWith("recycled ") && ++recycled == killAt) {
            // SIGKILL while the next batch is written (the handle's kill leaves the output
            // readable)
            process.toHandle().destroyForcibly();
          }
        } else {
          output.append(line).append('\n');
        }
      }
    } finally {
      process.destroyForcibly();
    }
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the writer JVM ended").isTrue();
    assertThat(process.exitValue())
        .as("the writer's exit (killed, not finished); its output:%n%s", output)
        .isEqualTo(137);
    assertThat(lastAcknowledged)
        .as("the writer's acknowledgements in cycle %d; its output:%n%s", cycle, output)
        .isGreaterThanOrEqualTo(RecyclingWriter.KEYS / RecyclingWriter.BATCH);
    return lastAcknowledged;
  }
}
