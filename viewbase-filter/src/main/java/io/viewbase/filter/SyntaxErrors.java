package io.viewbase.filter;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;

/**
 * How a filter that does not parse is reported: {@link ErrorCode#InvalidFilter} (400) with a
 * message naming what was expected and where ("expected ')' at 17, found end of filter"), and the
 * same facts as context fields {@code position} (0-based character offset into the filter text),
 * {@code expected} and {@code found}.
 */
final class SyntaxErrors {
  private SyntaxErrors() {}

  /** The parser wanted {@code expected} at {@code position} and saw {@code found} instead. */
  static ViewbaseException expected(String expected, int position, String found) {
    return expected(expected, position, found, null);
  }

  /**
   * As {@link #expected(String, int, String)}, with a hint on how to fix it appended to the
   * message.
   */
  static ViewbaseException expected(String expected, int position, String found, String hint) {
    return ViewbaseException.of(
        ErrorCode.InvalidFilter,
        "expected "
            + expected
            + " at "
            + position
            + ", found "
            + found
            + (hint == null ? "" : " (" + hint + ")"),
        "position",
        position,
        "expected",
        expected,
        "found",
        found);
  }

  /**
   * Something at {@code position} is malformed or over a limit; the message says what, and how to
   * fix it.
   */
  static ViewbaseException invalid(String what, int position, String hint) {
    return ViewbaseException.of(
        ErrorCode.InvalidFilter,
        what + " at " + position + (hint == null ? "" : " (" + hint + ")"),
        "position",
        position);
  }
}
