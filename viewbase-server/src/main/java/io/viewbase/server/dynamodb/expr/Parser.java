package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.expr.Lexer.Kind;
import io.viewbase.server.dynamodb.expr.Lexer.Token;
import io.viewbase.server.dynamodb.expr.Syntax.ActionNode;
import io.viewbase.server.dynamodb.expr.Syntax.AndNode;
import io.viewbase.server.dynamodb.expr.Syntax.ArithmeticNode;
import io.viewbase.server.dynamodb.expr.Syntax.BetweenNode;
import io.viewbase.server.dynamodb.expr.Syntax.CallNode;
import io.viewbase.server.dynamodb.expr.Syntax.CompareNode;
import io.viewbase.server.dynamodb.expr.Syntax.InNode;
import io.viewbase.server.dynamodb.expr.Syntax.IndexStep;
import io.viewbase.server.dynamodb.expr.Syntax.NameStep;
import io.viewbase.server.dynamodb.expr.Syntax.Node;
import io.viewbase.server.dynamodb.expr.Syntax.NotNode;
import io.viewbase.server.dynamodb.expr.Syntax.OrNode;
import io.viewbase.server.dynamodb.expr.Syntax.ParenNode;
import io.viewbase.server.dynamodb.expr.Syntax.PathNode;
import io.viewbase.server.dynamodb.expr.Syntax.Step;
import io.viewbase.server.dynamodb.expr.Syntax.ValueNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A recursive-descent parser for DynamoDB's three grammars (conditions, updates, projections), one
 * token of lookahead and no backtracking, so its time is linear in the text.
 *
 * <p>Bounds, checked as parsing goes: 4 KB of UTF-8 text, 300 operators and functions, 100 operands
 * of IN (DynamoDB's documented limits, with its messages), and {@link #MAX_DEPTH} levels of nesting
 * (parentheses, NOT, function calls). The last is Viewbase's own: it keeps the parser's recursion,
 * and the evaluator's, a few hundred frames deep whatever the text, where DynamoDB documents no
 * limit; no expression a person writes nests anywhere near as deep.
 *
 * <pre>
 * condition := or
 * or        := and (OR and)*                    precedence, loosest first:
 * and       := not (AND not)*                     OR, AND, NOT, then comparisons,
 * not       := NOT not | comparison               BETWEEN, IN and functions
 * comparison:= '(' or ')' [tail] | operand [tail]
 * tail      := comparator operand | BETWEEN operand AND operand | IN '(' operand, ... ')'
 * operand   := '(' operand ')' | name '(' operand, ... ')' | :value | path
 * path      := (name | #name) ('.' (name | #name) | '[' digits ']')*
 * update    := (SET set, ... | REMOVE path, ... | ADD path :value, ... | DELETE path :value, ...)+
 * set       := path '=' ('(' value ')' | value)     value := operand [('+' | '-') operand]
 * projection:= path (',' path)*
 * </pre>
 */
final class Parser {
  static final int MAX_BYTES = 4096;
  static final int MAX_OPERATORS = 300;
  static final int MAX_IN_OPERANDS = 100;
  static final int MAX_DEPTH = 100;

  private static final Set<String> CONDITION_KEYWORDS = Set.of("AND", "OR", "NOT", "BETWEEN", "IN");
  private static final Set<String> CLAUSES = Set.of("SET", "REMOVE", "ADD", "DELETE");
  private static final Set<String> COMPARATORS = Set.of("=", "<>", "<", "<=", ">", ">=");

  /** The request parameter being parsed, as messages name it: "ConditionExpression", ... */
  final String parameter;

  private final String text;
  private final List<Token> tokens;
  private final Set<String> keywords;
  private int pos;
  private int operators;
  private int depth;

  /** The first clause an update expression repeats (SET a = :v SET b = :w), or null. */
  String repeatedClause;

  private Parser(String parameter, String text, Set<String> keywords) {
    this.parameter = parameter;
    this.text = text;
    this.keywords = keywords;
    if (text.isBlank()) {
      throw invalid(parameter, "The expression can not be empty;");
    }
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      throw invalid(
          parameter,
          "Expression size has exceeded the maximum allowed size; expression size: " + bytes);
    }
    this.tokens = Lexer.tokens(text);
  }

  static Parser forCondition(String parameter, String text) {
    return new Parser(parameter, text, CONDITION_KEYWORDS);
  }

  static Parser forUpdate(String text) {
    return new Parser("UpdateExpression", text, CLAUSES);
  }

  static Parser forProjection(String text) {
    return new Parser("ProjectionExpression", text, Set.of());
  }

  /** The message DynamoDB gives for an invalid expression: "Invalid X: ...". */
  static ViewbaseException invalid(String parameter, String message) {
    return ViewbaseException.of(ErrorCode.InvalidInput, "Invalid " + parameter + ": " + message);
  }

  // ---- conditions ----

  Node condition() {
    Node node = or();
    expectEnd();
    return node;
  }

  private Node or() {
    Node left = and();
    while (peek().isKeyword("OR")) {
      next();
      countOperator();
      left = new OrNode(left, and());
    }
    return left;
  }

  private Node and() {
    Node left = not();
    while (peek().isKeyword("AND")) {
      next();
      countOperator();
      left = new AndNode(left, not());
    }
    return left;
  }

  private Node not() {
    if (peek().isKeyword("NOT")) {
      next();
      countOperator();
      enter();
      Node inner = not();
      depth--;
      return new NotNode(inner);
    }
    return comparison();
  }

  private Node comparison() {
    // A bare operand stands as a whole parenthesized group only: "(a) = :v" reads "(a)" first.
    boolean groupStart = pos > 0 && tokens.get(pos - 1).is("(");
    Node left;
    if (peek().is("(")) {
      next();
      enter();
      Node inner = or();
      expect(")");
      depth--;
      left = new ParenNode(inner);
      if (startsTail() && !Syntax.isOperand(inner)) {
        throw syntaxError(pos);
      }
    } else {
      left = operand();
    }
    Token t = peek();
    if (t.kind() == Kind.SYMBOL && COMPARATORS.contains(t.text())) {
      next();
      countOperator();
      return new CompareNode(t.text(), left, operand());
    }
    if (t.isKeyword("BETWEEN")) {
      next();
      countOperator();
      Node low = operand();
      if (!peek().isKeyword("AND")) {
        throw syntaxError(pos);
      }
      next();
      return new BetweenNode(left, low, operand());
    }
    if (t.isKeyword("IN")) {
      next();
      countOperator();
      expect("(");
      List<Node> candidates = new ArrayList<>();
      candidates.add(operand());
      while (peek().is(",")) {
        next();
        candidates.add(operand());
      }
      expect(")");
      if (candidates.size() > MAX_IN_OPERANDS) {
        throw invalid(
            parameter,
            "The IN operator is provided with too many operands; number of operands: "
                + candidates.size());
      }
      return new InNode(left, candidates);
    }
    // A bare operand is no condition; a function call (attribute_exists(a)) or a parenthesized
    // condition is.
    Node bare = Syntax.unwrap(left);
    if ((bare instanceof PathNode || bare instanceof ValueNode)
        && !(groupStart && peek().is(")"))) {
      throw syntaxError(pos);
    }
    return left;
  }

  private boolean startsTail() {
    Token t = peek();
    return (t.kind() == Kind.SYMBOL && COMPARATORS.contains(t.text()))
        || t.isKeyword("BETWEEN")
        || t.isKeyword("IN");
  }

  /** An operand: a path, a :value, a function call, or one of these in parentheses. */
  private Node operand() {
    Token t = peek();
    if (t.is("(")) {
      next();
      enter();
      Node inner = operand();
      expect(")");
      depth--;
      return new ParenNode(inner);
    }
    if (t.kind() == Kind.VALUE_REF) {
      next();
      return new ValueNode(t);
    }
    if (t.kind() == Kind.NAME && !isKeyword(t) && peekAt(1).is("(")) {
      next();
      next();
      countOperator();
      enter();
      List<Node> arguments = new ArrayList<>();
      arguments.add(operand());
      while (peek().is(",")) {
        next();
        arguments.add(operand());
      }
      expect(")");
      depth--;
      return new CallNode(t, arguments);
    }
    return path();
  }

  PathNode path() {
    List<Step> steps = new ArrayList<>();
    steps.add(pathName());
    while (true) {
      if (peek().is(".")) {
        next();
        steps.add(pathName());
      } else if (peek().is("[")) {
        next();
        Token number = peek();
        if (number.kind() != Kind.NUMBER) {
          throw syntaxError(pos);
        }
        int index;
        try {
          index = Integer.parseInt(number.text());
        } catch (NumberFormatException e) {
          throw syntaxError(pos);
        }
        next();
        expect("]");
        steps.add(new IndexStep(index));
      } else {
        return new PathNode(steps);
      }
    }
  }

  private NameStep pathName() {
    Token t = peek();
    if ((t.kind() == Kind.NAME && !isKeyword(t)) || t.kind() == Kind.NAME_REF) {
      next();
      return new NameStep(t);
    }
    throw syntaxError(pos);
  }

  // ---- updates ----

  /** The actions of an update expression, in the order written, clause by clause. */
  List<ActionNode> update() {
    List<ActionNode> actions = new ArrayList<>();
    Set<String> clauses = new java.util.HashSet<>();
    do {
      Token clause = peek();
      if (clause.kind() != Kind.NAME || !isKeyword(clause)) {
        throw syntaxError(pos);
      }
      next();
      String name = clause.text().toUpperCase(java.util.Locale.ROOT);
      if (!clauses.add(name) && repeatedClause == null) {
        repeatedClause = name;
      }
      do {
        PathNode path = path();
        Node value = null;
        switch (name) {
          case "SET":
            expect("=");
            value = setValue();
            break;
          case "ADD":
          case "DELETE":
            Token v = peek();
            if (v.kind() != Kind.VALUE_REF) {
              throw syntaxError(pos);
            }
            next();
            value = new ValueNode(v);
            break;
          default:
            break;
        }
        actions.add(new ActionNode(name, path, value));
      } while (peek().is(",") && next() != null);
    } while (peek().kind() != Kind.EOF);
    return actions;
  }

  /** A SET action's value: {@code operand [+|- operand]}, or that in one pair of parentheses. */
  private Node setValue() {
    if (peek().is("(")) {
      next();
      enter();
      Node inner = arithmetic();
      expect(")");
      depth--;
      Node left = new ParenNode(inner);
      if ((peek().is("+") || peek().is("-")) && inner instanceof ArithmeticNode) {
        throw syntaxError(pos);
      }
      return arithmeticTail(left);
    }
    return arithmetic();
  }

  private Node arithmetic() {
    return arithmeticTail(updateOperand());
  }

  private Node arithmeticTail(Node left) {
    Token t = peek();
    if (t.is("+") || t.is("-")) {
      next();
      countOperator();
      return new ArithmeticNode(t.text(), left, updateOperand());
    }
    return left;
  }

  /** An operand of SET: as a condition's, but parentheses may not double. */
  private Node updateOperand() {
    if (peek().is("(")) {
      next();
      enter();
      if (peek().is("(")) {
        throw syntaxError(pos);
      }
      Node inner = updateOperand();
      expect(")");
      depth--;
      return new ParenNode(inner);
    }
    Token t = peek();
    if (t.kind() == Kind.NAME && !isKeyword(t) && peekAt(1).is("(")) {
      next();
      next();
      countOperator();
      enter();
      List<Node> arguments = new ArrayList<>();
      arguments.add(updateOperand());
      while (peek().is(",")) {
        next();
        arguments.add(updateOperand());
      }
      expect(")");
      depth--;
      return new CallNode(t, arguments);
    }
    if (t.kind() == Kind.VALUE_REF) {
      next();
      return new ValueNode(t);
    }
    return path();
  }

  // ---- projections ----

  List<PathNode> projection() {
    List<PathNode> paths = new ArrayList<>();
    paths.add(path());
    while (peek().is(",")) {
      next();
      paths.add(path());
    }
    expectEnd();
    return paths;
  }

  // ---- tokens ----

  private boolean isKeyword(Token t) {
    return t.kind() == Kind.NAME && keywords.contains(t.text().toUpperCase(java.util.Locale.ROOT));
  }

  private Token peek() {
    return tokens.get(pos);
  }

  private Token peekAt(int ahead) {
    return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
  }

  private Token next() {
    Token t = tokens.get(pos);
    if (t.kind() != Kind.EOF) {
      pos++;
    }
    return t;
  }

  private void expect(String symbol) {
    if (!peek().is(symbol)) {
      throw syntaxError(pos);
    }
    next();
  }

  private void expectEnd() {
    if (peek().kind() != Kind.EOF) {
      throw syntaxError(pos);
    }
  }

  private void countOperator() {
    if (++operators > MAX_OPERATORS) {
      throw invalid(
          parameter, "The expression contains too many operators; operator count: " + operators);
    }
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw invalid(
          parameter,
          "The expression is nested too deeply; the maximum is " + MAX_DEPTH + " levels");
    }
  }

  /**
   * DynamoDB's syntax error: the offending token, and the text from the token before it to the
   * token after it ("near"); at the end of the text, the last token.
   */
  private ViewbaseException syntaxError(int at) {
    Token t = tokens.get(at);
    String near;
    if (t.kind() == Kind.EOF) {
      near = at > 0 ? tokens.get(at - 1).text() : "";
    } else {
      int start = at > 0 ? tokens.get(at - 1).start() : t.start();
      Token after = tokens.get(at + 1);
      int end = after.kind() == Kind.EOF ? t.end() : after.end();
      near = text.substring(start, end);
    }
    return invalid(parameter, "Syntax error; token: \"" + t.text() + "\", near: \"" + near + "\"");
  }
}
