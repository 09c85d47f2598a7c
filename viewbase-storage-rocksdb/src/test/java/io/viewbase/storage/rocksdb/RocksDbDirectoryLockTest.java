package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.storage.spi.StorageException;
import io.viewbase.storage.spi.StoreConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One process owns a data directory, and a second one is told so clearly. */
class RocksDbDirectoryLockTest {
  @TempDir Path dir;

  private RocksDbStore open() {
    return RocksDbStore.open(new StoreConfig(dir, false, Map.of()));
  }

  @Test
  void openWhenAlreadyOpenInThisProcessFailsLockedNamingTheDirectory() {
    try (RocksDbStore first = open()) {
      assertThat(first.directory()).isEqualTo(dir.toAbsolutePath());
      StorageException e = catchThrowableOfType(StorageException.class, this::open);

      assertThat(e).isNotNull();
      assertThat(e.isUnavailable()).isTrue();
      assertThat(e.kind()).isEqualTo(StorageException.Kind.LOCKED);
      assertThat(e.getMessage())
          .contains("in use by another Viewbase process")
          .contains(dir.toAbsolutePath().toString());
    }
  }

  @Test
  void openWhenAnotherProcessHoldsTheDirectoryFailsLockedNamingTheDirectory() throws Exception {
    try (RocksDbStore first = open()) {
      assertThat(first.directory()).isEqualTo(dir.toAbsolutePath());
      String output = runTryOpen();

      assertThat(output)
          .startsWith("unavailable=true kind=LOCKED")
          .contains("in use by another Viewbase process")
          .contains(dir.toAbsolutePath().toString());
    }
  }

  @Test
  void openAfterTheHolderClosedSucceeds() throws Exception {
    open().close();

    assertThat(runTryOpen()).isEqualTo("opened");
    open().close();
  }

  private String runTryOpen() throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process process =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                TryOpen.class.getName(),
                dir.toAbsolutePath().toString())
            .redirectErrorStream(true)
            .start();
    try {
      boolean exited = process.waitFor(60, TimeUnit.SECONDS);
      assertThat(exited).as("the second JVM finished").isTrue();
      return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    } finally {
      process.destroyForcibly();
    }
  }
}
