package io.viewbase.filter;

import io.viewbase.api.Value;

/**
 * One token of a filter: its kind, its text as written, its value when it is a literal, and the
 * offset where it starts (for error messages).
 */
record Token(Kind kind, String text, Value value, int position) {

  enum Kind {
    /** {@code (} */
    OPEN,
    /** {@code )} */
    CLOSE,
    /** An identifier or keyword: {@code and}, {@code eq}, {@code true}, {@code Age}... */
    WORD,
    /**
     * A literal with its value: a string, number, {@code datetime'…'}, {@code guid'…'}, {@code
     * X'…'}.
     */
    LITERAL,
    /** The end of the text. */
    END
  }

  boolean isWord(String word) {
    return kind == Kind.WORD && text.equals(word);
  }

  /**
   * How an error message names this token: {@code 'and'}, {@code 42}, {@code 'it''s'}, or {@code
   * end of filter}.
   */
  String describe() {
    if (kind == Kind.END) {
      return "end of filter";
    }
    String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
    return kind == Kind.LITERAL ? shown : "'" + shown + "'";
  }
}
