package io.viewbase.server.dynamodb.expr;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The meaning errors found in one parsed expression, of which DynamoDB reports one: the first of
 * the most important kind. The kinds rank differently per grammar (an update reports a reserved
 * word before an unknown function, a condition the other way round), so each grammar gives its
 * ranking.
 */
final class Problems {
  enum Kind {
    REDUNDANT_PARENTHESES,
    UNKNOWN_FUNCTION,
    MISUSED_FUNCTION,
    RESERVED_WORD,
    REPEATED_CLAUSE,
    UNDEFINED_NAME,
    UNDEFINED_VALUE,
    OVERLAPPING_PATHS,
    CONFLICTING_PATHS,
    OPERAND_COUNT,
    NOT_DISTINCT,
    ACTION_OPERAND,
    FUNCTION_OPERAND
  }

  static final List<Kind> CONDITION_RANKING =
      List.of(
          Kind.REDUNDANT_PARENTHESES,
          Kind.UNKNOWN_FUNCTION,
          Kind.MISUSED_FUNCTION,
          Kind.RESERVED_WORD,
          Kind.UNDEFINED_NAME,
          Kind.UNDEFINED_VALUE,
          Kind.OPERAND_COUNT,
          Kind.NOT_DISTINCT,
          Kind.FUNCTION_OPERAND);

  static final List<Kind> UPDATE_RANKING =
      List.of(
          Kind.RESERVED_WORD,
          Kind.UNKNOWN_FUNCTION,
          Kind.REPEATED_CLAUSE,
          Kind.UNDEFINED_NAME,
          Kind.UNDEFINED_VALUE,
          Kind.OVERLAPPING_PATHS,
          Kind.CONFLICTING_PATHS,
          Kind.ACTION_OPERAND,
          Kind.MISUSED_FUNCTION,
          Kind.OPERAND_COUNT,
          Kind.FUNCTION_OPERAND);

  static final List<Kind> PROJECTION_RANKING =
      List.of(
          Kind.RESERVED_WORD, Kind.UNDEFINED_NAME, Kind.OVERLAPPING_PATHS, Kind.CONFLICTING_PATHS);

  private final String parameter;
  private final List<Kind> ranking;
  private final Map<Kind, String> first = new EnumMap<>(Kind.class);

  Problems(String parameter, List<Kind> ranking) {
    this.parameter = parameter;
    this.ranking = ranking;
  }

  void add(Kind kind, String message) {
    first.putIfAbsent(kind, message);
  }

  /** Throws the most important problem found, if any. */
  void throwFirst() {
    for (Kind kind : ranking) {
      String message = first.get(kind);
      if (message != null) {
        throw Parser.invalid(parameter, message);
      }
    }
    if (!first.isEmpty()) {
      throw Parser.invalid(parameter, first.values().iterator().next());
    }
  }
}
