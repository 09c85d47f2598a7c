package io.viewbase.cli;

import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * The rows an import rejected, with why: one JSON object per line, {@code {"line": 17, "code":
 * "InvalidValue", "message": "...", "context": {"property": "age", ...}}}, the code and message
 * those of the error the row met ({@code error: <Code>: <message>} elsewhere). The file is made at
 * the first rejected row, so a clean import leaves none; a fresh import removes an old one first.
 */
final class RejectsFile implements AutoCloseable {
  private final Path path;
  private FileChannel channel;
  private long length;

  private RejectsFile(Path path, long length) {
    this.path = path;
    this.length = length;
  }

  /**
   * The rejects file of an import: a fresh one ({@code keep} negative: any old file is removed), or
   * for a resumed import the old one cut back to {@code keep} bytes.
   */
  static RejectsFile open(Path path, long keep) {
    try {
      if (keep <= 0 || !Files.exists(path)) {
        Files.deleteIfExists(path);
        return new RejectsFile(path, 0);
      }
      RejectsFile file = new RejectsFile(path, 0);
      file.channel = FileChannel.open(path, StandardOpenOption.WRITE);
      file.channel.truncate(keep);
      file.channel.position(Math.min(keep, file.channel.size()));
      file.length = file.channel.position();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path path() {
    return path;
  }

  /** Bytes written so far: what the journal records. */
  long length() {
    return length;
  }

  void add(long line, ViewbaseException error) {
    StringBuilder json = new StringBuilder(128);
    json.append("{\"line\":")
        .append(line)
        .append(",\"code\":")
        .append(JsonText.quote(error.code().name()))
        .append(",\"message\":")
        .append(JsonText.quote(error.getMessage()));
    if (!error.context().isEmpty()) {
      json.append(",\"context\":{");
      boolean comma = false;
      for (Map.Entry<String, Object> e : error.context().entrySet()) {
        if (comma) {
          json.append(',');
        }
        comma = true;
        json.append(JsonText.quote(e.getKey()))
            .append(':')
            .append(JsonText.quote(String.valueOf(e.getValue())));
      }
      json.append('}');
    }
    json.append("}\n");
    write(json.toString().getBytes(StandardCharsets.UTF_8));
  }

  private void write(byte[] bytes) {
    try {
      if (channel == null) {
        channel =
            FileChannel.open(
                path,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      length += bytes.length;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
