package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * An import's input, read byte by byte through a buffer of its own, counting the bytes consumed
 * (the offset a resume journal records) and the lines. The readers on top of it ({@link #readLine}
 * and {@link CsvRecords}) bound what they hold: a record longer than their limit is skipped to its
 * end and reported as too long, never held in memory whole.
 */
final class ByteInput implements AutoCloseable {
  private static final int BUFFER = 64 * 1024;

  private final InputStream in;
  private final byte[] buffer = new byte[BUFFER];
  private int position;
  private int limit;
  private long offset;
  private long line = 1;

  /** Reads {@code in}, whose first byte is at {@code offset} of the whole input. */
  ByteInput(InputStream in, long offset) {
    this.in = in;
    this.offset = offset;
  }

  /** Bytes of the input consumed so far, from its start. */
  long offset() {
    return offset;
  }

  /** The line the next byte is on (1-based), counting from where reading began. */
  long line() {
    return line;
  }

  /** Sets the line number of the next byte: a resumed import continues the count. */
  void setLine(long next) {
    line = next;
  }

  /** The next byte (0..255), or -1 at the end of the input. */
  int read() {
    if (position == limit && !fill()) {
      return -1;
    }
    offset++;
    byte b = buffer[position++];
    if (b == '\n') {
      line++;
    }
    return b & 0xff;
  }

  /** The next byte without consuming it, or -1 at the end. */
  int peek() {
    if (position == limit && !fill()) {
      return -1;
    }
    return buffer[position] & 0xff;
  }

  /** Skips to {@code target}, an offset at or after this one, without counting lines. */
  void skipTo(long target) {
    long ahead = target - offset;
    int inBuffer = (int) Math.min(ahead, limit - position);
    position += inBuffer;
    offset += inBuffer;
    try {
      while (offset < target) {
        long skipped = in.skip(target - offset);
        if (skipped <= 0) {
          if (in.read() < 0) {
            throw ViewbaseException.of(
                ErrorCode.InvalidInput,
                "The input ends before the point the import journal resumes at; "
                    + "was the file replaced? Delete the journal to import from the start",
                "bytes",
                offset,
                "resumeAt",
                target);
          }
          skipped = 1;
        }
        offset += skipped;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The next line without its terminator ({@code \n} or {@code \r\n}), or null at the end of the
   * input. A line longer than {@code max} bytes is consumed to its end and returned as {@link
   * Line#tooLong}, its bytes dropped as they are read.
   */
  Line readLine(int max) {
    long number = line;
    int first = read();
    if (first < 0) {
      return null;
    }
    byte[] bytes = new byte[Math.min(max, 256)];
    int length = 0;
    long total = 0;
    for (int b = first; b >= 0 && b != '\n'; b = read()) {
      if (total++ < max) {
        if (length == bytes.length) {
          bytes = Arrays.copyOf(bytes, (int) Math.min(max, 2L * bytes.length));
        }
        bytes[length++] = (byte) b;
      }
    }
    if (total > max) {
      return new Line(number, null, total);
    }
    if (length > 0 && bytes[length - 1] == '\r') {
      length--;
    }
    return new Line(number, Arrays.copyOf(bytes, length), total);
  }

  /**
   * One line of input.
   *
   * @param number its line number
   * @param bytes its bytes without the terminator, or null when it was longer than the limit
   * @param length how many bytes it had (without the {@code \n})
   */
  record Line(long number, byte[] bytes, long length) {
    boolean tooLong() {
      return bytes == null;
    }
  }

  private boolean fill() {
    try {
      int n = in.read(buffer);
      while (n == 0) {
        n = in.read(buffer);
      }
      if (n < 0) {
        return false;
      }
      position = 0;
      limit = n;
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
