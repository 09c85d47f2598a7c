package io.viewbase.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * RFC 4180 CSV, read from bytes and written as text: records of fields separated by commas, a field
 * in double quotes when it holds a comma, a quote (doubled) or a line break. Writing ends records
 * with CRLF as the RFC says; reading takes CRLF or LF.
 *
 * <p>Reading keeps one fact the RFC leaves open, whether a field was quoted: an unquoted empty
 * field is an absent value, a quoted one ({@code ""}) an empty string. UTF-8 is decoded strictly (a
 * malformed byte is the record's error, not a replacement character), a byte order mark before the
 * first record is dropped, and a record longer than the reader's bound is read to its end (quotes
 * and all, so the next record starts where it should) without being kept.
 *
 * <pre>
 * input                    | fields
 * -------------------------+-----------------------------------------------
 * a,,"",b                  | "a", absent, "" (quoted), "b"
 * "x, ""y""",z             | "x, \"y\"" (quoted), "z"
 * "two↵lines",z            | "two\nlines" (quoted), "z": one record, two lines
 * "x"y,z                   | the record is malformed (text after a closing quote)
 * (an empty line)          | skipped
 * </pre>
 */
final class CsvRecords {
  private final ByteInput input;
  private final int maxBytes;
  private boolean first = true;

  CsvRecords(ByteInput input, int maxBytes) {
    this.input = input;
    this.maxBytes = maxBytes;
  }

  /** One field's text and whether it was quoted. */
  record Field(String text, boolean quoted) {
    /** An unquoted empty field: no value at all. */
    boolean absent() {
      return !quoted && text.isEmpty();
    }
  }

  /**
   * One record.
   *
   * @param line the line it starts on
   * @param fields its fields; empty when it was too long or malformed
   * @param error null, or why the record cannot be read ("too long", malformed quoting, not UTF-8)
   * @param tooLong whether it was longer than the bound
   */
  record Record(long line, List<Field> fields, String error, boolean tooLong) {}

  /** The next record, or null at the end of the input. */
  Record next() {
    if (first) {
      first = false;
      if (input.peek() == 0xEF) {
        skipByteOrderMark();
      }
    }
    while (true) {
      long line = input.line();
      int b = input.peek();
      if (b < 0) {
        return null;
      }
      if (b == '\n' || b == '\r') { // an empty line
        input.read();
        if (b == '\r' && input.peek() == '\n') {
          input.read();
        }
        continue;
      }
      return read(line);
    }
  }

  private Record read(long line) {
    List<Field> fields = new ArrayList<>();
    byte[] field = new byte[64];
    long total = 0;
    String error = null;
    while (true) {
      int length = 0;
      boolean quoted = input.peek() == '"';
      int b;
      if (quoted) {
        input.read();
        while (true) {
          b = input.read();
          if (b < 0) {
            error =
                error == null ? "A quoted field is not closed before the end of the input" : error;
            break;
          }
          if (b == '"') {
            if (input.peek() == '"') {
              input.read();
            } else {
              b = input.read();
              break;
            }
          }
          if (total++ < maxBytes) {
            field = put(field, length++, b);
          }
        }
        while (b >= 0 && b != ',' && b != '\n') { // text after the closing quote
          if (b != '\r' || input.peek() != '\n') {
            error = error == null ? "Text follows the closing quote of a field" : error;
          }
          b = input.read();
        }
      } else {
        for (b = input.read(); b >= 0 && b != ',' && b != '\n'; b = input.read()) {
          if (total++ < maxBytes) {
            field = put(field, length++, b);
          }
        }
        if (b == '\n' && length > 0 && field[length - 1] == '\r') {
          length--;
        }
      }
      total++; // the separator
      if (total <= maxBytes && error == null) {
        String text = decode(field, length);
        if (text == null) {
          error = "A field is not valid UTF-8";
        } else {
          fields.add(new Field(text, quoted));
        }
      }
      if (b != ',') {
        break;
      }
    }
    if (total > maxBytes) {
      return new Record(line, List.of(), "longer than " + maxBytes + " bytes", true);
    }
    return error == null
        ? new Record(line, fields, null, false)
        : new Record(line, List.of(), error, false);
  }

  private static byte[] put(byte[] field, int at, int b) {
    byte[] bytes = at == field.length ? Arrays.copyOf(field, 2 * field.length) : field;
    bytes[at] = (byte) b;
    return bytes;
  }

  private static String decode(byte[] bytes, int length) {
    boolean ascii = true;
    for (int i = 0; i < length && ascii; i++) {
      ascii = bytes[i] >= 0;
    }
    if (ascii) {
      return new String(bytes, 0, length, StandardCharsets.US_ASCII);
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes, 0, length))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private void skipByteOrderMark() {
    input.read();
    if (input.peek() == 0xBB) {
      input.read();
      if (input.peek() == 0xBF) {
        input.read();
      }
    }
  }

  /** The field as CSV: quoted when it is empty or holds a comma, a quote or a line break. */
  static String quote(String text) {
    boolean plain = !text.isEmpty();
    for (int i = 0; i < text.length() && plain; i++) {
      char c = text.charAt(i);
      plain = c != ',' && c != '"' && c != '\n' && c != '\r';
    }
    return plain ? text : '"' + text.replace("\"", "\"\"") + '"';
  }

  /** Appends one record: the fields (null: an absent value, an empty field), then CRLF. */
  static void write(StringBuilder out, List<String> fields) {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      String field = fields.get(i);
      if (field != null) {
        out.append(quote(field));
      }
    }
    out.append("\r\n");
  }
}
