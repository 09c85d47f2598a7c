package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The little of MIME multipart that entity group transactions use: splitting a body on its
 * boundary, and a part (or an embedded HTTP message) into headers and the rest. Lines may end in
 * CRLF (every current client) or a bare LF.
 */
final class Multipart {
  private static final String BOUNDARY = "boundary=";

  private Multipart() {}

  /**
   * Where {@code what} (ASCII) first occurs in {@code text}, letters in either case; -1 if nowhere.
   * Searched in the text itself: an index into a lower-cased copy is not one into the text, since
   * lower-casing can change a string's length (U+0130 becomes two chars).
   */
  private static int indexOfIgnoringCase(String text, String what) {
    for (int i = 0; i + what.length() <= text.length(); i++) {
      if (text.regionMatches(true, i, what, 0, what.length())) {
        return i;
      }
    }
    return -1;
  }

  /** The {@code boundary} parameter of a multipart Content-Type, or null. */
  static String boundary(String contentType) {
    if (contentType == null) {
      return null;
    }
    int at = indexOfIgnoringCase(contentType, BOUNDARY);
    if (at < 0) {
      return null;
    }
    String b = contentType.substring(at + BOUNDARY.length());
    int semicolon = b.indexOf(';');
    b = (semicolon < 0 ? b : b.substring(0, semicolon)).trim();
    if (b.length() >= 2 && b.startsWith("\"") && b.endsWith("\"")) {
      b = b.substring(1, b.length() - 1);
    }
    return b.isEmpty() ? null : b;
  }

  /**
   * The parts between {@code --boundary} lines, up to {@code --boundary--}, without their framing
   * line breaks.
   */
  static List<String> parts(String text, String boundary) {
    String delimiter = "--" + boundary;
    List<String> parts = new ArrayList<>();
    int at = text.startsWith(delimiter) ? 0 : text.indexOf("\n" + delimiter);
    if (at < 0) {
      throw malformed("no part starts with --" + boundary);
    }
    if (at > 0) {
      at++;
    }
    while (true) {
      int after = at + delimiter.length();
      if (text.startsWith("--", after)) {
        return parts;
      }
      int lineEnd = text.indexOf('\n', after);
      if (lineEnd < 0) {
        throw malformed("the body ends inside a delimiter line");
      }
      int start = lineEnd + 1;
      int next = text.indexOf("\n" + delimiter, start - 1);
      if (next < 0) {
        throw malformed("the closing --" + boundary + "-- is missing");
      }
      int end = next > 0 && text.charAt(next - 1) == '\r' ? next - 1 : next;
      parts.add(end <= start ? "" : text.substring(start, end));
      at = next + 1;
    }
  }

  /** Headers of a part or message, and the text after the blank line that ends them. */
  record Split(String firstLine, Map<String, String> headers, String rest) {}

  /**
   * Splits text into lines up to the first blank one. With {@code requestLine}, the first line is
   * an HTTP request line rather than a header. Header names are lower-cased; the first value wins.
   */
  static Split split(String text, boolean requestLine) {
    Map<String, String> headers = new LinkedHashMap<>();
    String first = null;
    int pos = 0;
    // Tolerate blank lines before a request line (one client adds them).
    if (requestLine) {
      while (pos < text.length() && (text.charAt(pos) == '\r' || text.charAt(pos) == '\n')) {
        pos++;
      }
    }
    while (pos < text.length()) {
      int nl = text.indexOf('\n', pos);
      int lineEnd = nl < 0 ? text.length() : nl;
      String line =
          text.substring(
              pos, lineEnd > pos && text.charAt(lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd);
      pos = nl < 0 ? text.length() : nl + 1;
      if (line.isEmpty()) {
        if (requestLine && first == null) {
          continue;
        }
        return new Split(first, headers, text.substring(pos));
      }
      if (requestLine && first == null) {
        first = line;
        continue;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw malformed("a header line has no name: " + line);
      }
      headers.putIfAbsent(
          line.substring(0, colon).trim().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).trim());
    }
    return new Split(first, headers, "");
  }

  static ViewbaseException malformed(String why) {
    return ViewbaseException.of(
        ErrorCode.InvalidInput,
        "The batch request body is not a valid multipart/mixed " + "message",
        "reason",
        why);
  }
}
