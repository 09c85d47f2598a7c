package io.viewbase.server.dynamodb.expr;

import io.viewbase.server.dynamodb.expr.Lexer.Token;
import java.util.List;

/**
 * The tree a parser builds before placeholders are resolved and meaning is checked: one node type
 * per construct of DynamoDB's grammars, each holding the tokens it came from.
 */
final class Syntax {
  private Syntax() {}

  sealed interface Node
      permits PathNode,
          ValueNode,
          CallNode,
          ParenNode,
          CompareNode,
          BetweenNode,
          InNode,
          AndNode,
          OrNode,
          NotNode,
          ArithmeticNode {}

  /** A step of a path: a name or {@code #placeholder} token, or a list index. */
  sealed interface Step permits NameStep, IndexStep {}

  record NameStep(Token token) implements Step {}

  record IndexStep(int index) implements Step {}

  record PathNode(List<Step> steps) implements Node {}

  record ValueNode(Token token) implements Node {}

  record CallNode(Token name, List<Node> arguments) implements Node {}

  record ParenNode(Node inner) implements Node {}

  record CompareNode(String operator, Node left, Node right) implements Node {}

  record BetweenNode(Node value, Node low, Node high) implements Node {}

  record InNode(Node value, List<Node> candidates) implements Node {}

  record AndNode(Node left, Node right) implements Node {}

  record OrNode(Node left, Node right) implements Node {}

  record NotNode(Node inner) implements Node {}

  /** {@code +} or {@code -} in a SET action's value. */
  record ArithmeticNode(String operator, Node left, Node right) implements Node {}

  /** One action of an update expression: its clause, its path, and its value (null for REMOVE). */
  record ActionNode(String clause, PathNode path, Node value) {}

  /** Strips operand parentheses: {@code (a)} is {@code a}. */
  static Node unwrap(Node node) {
    while (node instanceof ParenNode p) {
      node = p.inner();
    }
    return node;
  }

  /** Whether a node is an operand (a path, a value, a function call), parenthesized or not. */
  static boolean isOperand(Node node) {
    Node n = unwrap(node);
    return n instanceof PathNode || n instanceof ValueNode || n instanceof CallNode;
  }
}
