package io.viewbase.filter;

/**
 * Writes a filter as canonical text: single spaces, lowercase keywords, canonical literals, and
 * parentheses only where precedence ({@code or} below {@code and} below {@code not}) or the
 * left-to-right grouping of the parser needs them, plus around the comparison or group under a
 * {@code not} for readability. Parsing the result gives an equal filter.
 */
final class Printer {
  private static final int OR = 1;
  private static final int AND = 2;
  private static final int UNARY = 3;

  private final StringBuilder out = new StringBuilder();

  static String print(Filter filter) {
    Printer printer = new Printer();
    printer.write(filter);
    return printer.out.toString();
  }

  private void write(Filter filter) {
    if (filter instanceof Filter.Or or) {
      binary(or.left(), " or ", or.right(), OR);
    } else if (filter instanceof Filter.And and) {
      binary(and.left(), " and ", and.right(), AND);
    } else if (filter instanceof Filter.Not not) {
      out.append("not ");
      Filter inner = not.inner();
      boolean group =
          inner instanceof Filter.And
              || inner instanceof Filter.Or
              || inner instanceof Filter.Compare;
      grouped(inner, group);
    } else if (filter instanceof Filter.Compare compare) {
      out.append(compare.property())
          .append(' ')
          .append(compare.op().keyword())
          .append(' ')
          .append(Literals.print(compare.literal()));
    } else if (filter instanceof Filter.BoolProperty bool) {
      out.append(bool.property());
    } else {
      out.append(((Filter.Constant) filter).value());
    }
  }

  /** The parser groups left to right, so a right operand of the same level needs parentheses. */
  private void binary(Filter left, String keyword, Filter right, int level) {
    grouped(left, level(left) < level);
    out.append(keyword);
    grouped(right, level(right) <= level);
  }

  private void grouped(Filter filter, boolean parentheses) {
    if (parentheses) {
      out.append('(');
    }
    write(filter);
    if (parentheses) {
      out.append(')');
    }
  }

  private static int level(Filter filter) {
    if (filter instanceof Filter.Or) {
      return OR;
    }
    return filter instanceof Filter.And ? AND : UNARY;
  }
}
