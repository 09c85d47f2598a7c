package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A tmpfs of a few MiB mounted on a directory for one test, so that a store can run out of space
 * for real. Mounting needs root (or CAP_SYS_ADMIN): where {@code mount} fails the test is skipped
 * with the reason, unless {@code -Dviewbase.test.requireMount=true} asks it to fail instead.
 *
 * <p>The same as viewbase-storage-rocksdb's test helper of this name (test classes are not shared
 * between modules).
 *
 * <p>tmpfs rather than a loop-mounted ext4: it needs no image file, no mkfs and no loop device,
 * mounts in milliseconds, and answers a full disk with ENOSPC as ext4 does; what it lacks (a
 * journal, reserved blocks) plays no part in running out of space.
 */
final class SmallFileSystem implements AutoCloseable {
  private final Path mountPoint;

  private SmallFileSystem(Path mountPoint) {
    this.mountPoint = mountPoint;
  }

  /** Mounts a tmpfs of {@code mebibytes} MiB on {@code mountPoint} (an empty directory). */
  static SmallFileSystem mount(Path mountPoint, int mebibytes) throws IOException {
    String failure =
        run(
            List.of(
                "mount",
                "-t",
                "tmpfs",
                "-o",
                "size=" + mebibytes + "m",
                "tmpfs",
                mountPoint.toString()));
    if (failure != null) {
      String reason = "cannot mount a small tmpfs (needs root): " + failure;
      if (Boolean.getBoolean("viewbase.test.requireMount")) {
        fail(reason + " (and -Dviewbase.test.requireMount=true asks for it)");
      }
      Assumptions.abort(reason);
    }
    return new SmallFileSystem(mountPoint);
  }

  Path path() {
    return mountPoint;
  }

  /**
   * Writes {@code filler} until the file system is full (ENOSPC), leaving {@code spareBytes} free
   * by truncating the filler back that much.
   */
  void fill(Path filler, long spareBytes) throws IOException {
    byte[] chunk = new byte[64 << 10];
    long written = 0;
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(chunk);
        written += chunk.length;
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
    if (spareBytes > 0) {
      try (var channel =
          java.nio.channels.FileChannel.open(filler, java.nio.file.StandardOpenOption.WRITE)) {
        channel.truncate(Math.max(0, Files.size(filler) - spareBytes));
      }
    }
  }

  @Override
  public void close() throws IOException {
    String failure = run(List.of("umount", "-l", mountPoint.toString()));
    if (failure != null) {
      throw new IOException("cannot unmount " + mountPoint + ": " + failure);
    }
  }

  /** Runs a command; null if it succeeded, else why not. */
  private static String run(List<String> command) throws IOException {
    Process process;
    try {
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        return String.join(" ", command) + " did not finish in 30 s";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    String output =
        new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return process.exitValue() == 0 ? null : "exit " + process.exitValue() + ": " + output;
  }
}
