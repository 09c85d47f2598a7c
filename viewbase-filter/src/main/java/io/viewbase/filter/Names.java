package io.viewbase.filter;

import java.util.Set;

/**
 * The words of the filter language: which text is a property name and which words are reserved. A
 * property name is an identifier: a letter, '_' or '$', then letters, digits, '_' or '$' (Unicode
 * letters and digits count, as in C# identifiers, which Azure property names follow; '$' is
 * Viewbase's, for the names the Azure dialect escapes, see {@link FilterDialect}).
 */
final class Names {
  /**
   * Words that never name a property: operators, boolean constants, {@code null} (which the
   * language rejects with its own message) and the special doubles {@code NaN} and {@code INF}.
   */
  static final Set<String> RESERVED =
      Set.of(
          "and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le", "true", "false", "null", "NaN",
          "INF");

  private Names() {}

  static boolean isIdentifierStart(int codePoint) {
    return Character.isLetter(codePoint) || codePoint == '_' || codePoint == '$';
  }

  static boolean isIdentifierPart(int codePoint) {
    return Character.isLetterOrDigit(codePoint) || codePoint == '_' || codePoint == '$';
  }

  /** Whether the text can be written as a property name in a filter. */
  static boolean isPropertyName(String name) {
    if (name == null || name.isEmpty() || RESERVED.contains(name)) {
      return false;
    }
    if (!isIdentifierStart(name.codePointAt(0))) {
      return false;
    }
    return name.codePoints().allMatch(Names::isIdentifierPart);
  }

  /** Rejects a name an AST node cannot carry, since the printed filter would not parse back. */
  static void requireIdentifier(String name) {
    if (name == null) {
      throw new NullPointerException("property");
    }
    if (!isPropertyName(name)) {
      throw new IllegalArgumentException(
          "not a property name a filter can express: '" + name + "'");
    }
  }
}
