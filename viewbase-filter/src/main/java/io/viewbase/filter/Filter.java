package io.viewbase.filter;

import io.viewbase.api.Stability;
import io.viewbase.api.Value;
import java.util.Objects;

/**
 * A parsed {@code $filter}: a closed set of nodes. Nodes are values (records), so two filters with
 * the same structure are equal; {@link Filters#print} turns one back into canonical text.
 *
 * <p>The constructors reject nodes that could not be written as text (a property name that is not
 * an identifier or is a reserved word, a literal of a type the language has no syntax for), so
 * every {@code Filter} can be printed and parsed back to itself.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public sealed interface Filter
    permits Filter.And,
        Filter.Or,
        Filter.Not,
        Filter.Compare,
        Filter.BoolProperty,
        Filter.Constant {

  /** Both sides hold. */
  record And(Filter left, Filter right) implements Filter {
    public And {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }
  }

  /** Either side holds. */
  record Or(Filter left, Filter right) implements Filter {
    public Or {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }
  }

  /**
   * The inner filter does not hold (two-valued: a comparison on a missing property is simply
   * false).
   */
  record Not(Filter inner) implements Filter {
    public Not {
      Objects.requireNonNull(inner, "inner");
    }
  }

  /**
   * property op literal (a literal-op-property input is normalised to this, with the operator
   * flipped).
   */
  record Compare(String property, Op op, Value literal) implements Filter {
    public Compare {
      Names.requireIdentifier(property);
      Objects.requireNonNull(op, "op");
      Literals.requireWritable(literal);
    }
  }

  /** A bare boolean property, e.g. "IsActive" (true when the property is the boolean true). */
  record BoolProperty(String property) implements Filter {
    public BoolProperty {
      Names.requireIdentifier(property);
    }
  }

  /** A bare true/false. */
  record Constant(boolean value) implements Filter {}

  /** A comparison operator, with its OData keyword. */
  enum Op {
    EQ("eq"),
    NE("ne"),
    GT("gt"),
    GE("ge"),
    LT("lt"),
    LE("le");

    private final String keyword;

    Op(String keyword) {
      this.keyword = keyword;
    }

    /** The lowercase keyword, as written in a filter: {@code eq}, {@code ne}, ... */
    public String keyword() {
      return keyword;
    }

    /** The operator with its sides swapped: {@code 3 lt X} means {@code X gt 3}. */
    public Op flipped() {
      return switch (this) {
        case EQ -> EQ;
        case NE -> NE;
        case GT -> LT;
        case GE -> LE;
        case LT -> GT;
        case LE -> GE;
      };
    }

    /**
     * The operator whose result is the opposite for two values of the same type ({@code lt} for
     * {@code ge}).
     */
    public Op negated() {
      return switch (this) {
        case EQ -> NE;
        case NE -> EQ;
        case GT -> LE;
        case GE -> LT;
        case LT -> GE;
        case LE -> GT;
      };
    }

    /** The operator for a lowercase keyword, or null when the word is not one. */
    static Op ofKeyword(String word) {
      for (Op op : values()) {
        if (op.keyword.equals(word)) {
          return op;
        }
      }
      return null;
    }
  }
}
