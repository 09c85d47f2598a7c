package io.viewbase.server.dynamodb.expr;

import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.expr.Syntax.Node;
import io.viewbase.server.dynamodb.expr.Syntax.PathNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses DynamoDB's expressions. Each call checks the expression's syntax, then its meaning, and
 * resolves its placeholders (marking them used in {@code placeholders}); the request's unused
 * placeholders are refused afterwards, across all its expressions, by {@link
 * Placeholders#checkAllUsed}.
 *
 * <p>Refusals are InvalidInput with DynamoDB's message, prefixed as DynamoDB prefixes them
 * ("Invalid ConditionExpression: Syntax error; token: \"=\", near: \"a = = :v\""). Bounds: 4 KB of
 * text ("Expression size has exceeded the maximum allowed size; expression size: 5000"), 300
 * operators and functions ("The expression contains too many operators; operator count: 301"), 100
 * operands of IN ("The IN operator is provided with too many operands; number of operands: 101").
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Expressions {
  private Expressions() {}

  /** A PutItem, UpdateItem or DeleteItem (or transaction) ConditionExpression. */
  public static Condition parseCondition(String expression, Placeholders placeholders) {
    return condition("ConditionExpression", expression, placeholders);
  }

  /** A Query or Scan FilterExpression. */
  public static Condition parseFilter(String expression, Placeholders placeholders) {
    return condition("FilterExpression", expression, placeholders);
  }

  /**
   * A Query KeyConditionExpression: the partition key by equality, optionally one condition on the
   * sort key ({@code = < <= > >= BETWEEN begins_with}), joined by AND.
   *
   * @param hashKey the table's (or index's) partition key attribute
   * @param rangeKey its sort key attribute, or null
   * @throws ViewbaseException InvalidInput, with DynamoDB's messages ("Query condition missed key
   *     schema element: pk", "Query key condition not supported", "Invalid operator used in
   *     KeyConditionExpression: OR", ...)
   */
  public static KeyCondition parseKeyCondition(
      String expression, Placeholders placeholders, String hashKey, String rangeKey) {
    return parseKeyCondition(
        expression,
        placeholders,
        List.of(hashKey),
        rangeKey == null ? List.of() : List.of(rangeKey));
  }

  /**
   * A Query KeyConditionExpression on a key of several partition and sort key attributes (a global
   * index's multi-attribute key): each partition key attribute by equality, optionally conditions
   * on a left-to-right prefix of the sort key attributes ({@link KeyCondition#of}).
   */
  public static KeyCondition parseKeyCondition(
      String expression, Placeholders placeholders, List<String> hashKeys, List<String> rangeKeys) {
    Condition condition = condition("KeyConditionExpression", expression, placeholders);
    return KeyCondition.fromExpression(condition, hashKeys, rangeKeys);
  }

  /** An UpdateItem (or transaction Update) UpdateExpression. */
  public static Update parseUpdate(String expression, Placeholders placeholders) {
    Parser parser = Parser.forUpdate(expression);
    List<Syntax.ActionNode> actions = parser.update();
    Problems problems = new Problems(parser.parameter, Problems.UPDATE_RANKING);
    Update update =
        new UpdateBuilder(new Resolver(placeholders, problems))
            .build(actions, parser.repeatedClause);
    problems.throwFirst();
    return update;
  }

  /** A ProjectionExpression: paths, comma-separated. */
  public static Projection parseProjection(String expression, Placeholders placeholders) {
    Parser parser = Parser.forProjection(expression);
    List<PathNode> nodes = parser.projection();
    Problems problems = new Problems(parser.parameter, Problems.PROJECTION_RANKING);
    Resolver resolver = new Resolver(placeholders, problems);
    List<Path> paths = new ArrayList<>(nodes.size());
    for (PathNode node : nodes) {
      paths.add(resolver.path(node));
    }
    resolver.checkDistinct(paths);
    problems.throwFirst();
    return new Projection(paths);
  }

  private static Condition condition(
      String parameter, String expression, Placeholders placeholders) {
    Parser parser = Parser.forCondition(parameter, expression);
    Node node = parser.condition();
    Problems problems = new Problems(parameter, Problems.CONDITION_RANKING);
    Condition condition =
        new ConditionBuilder(new Resolver(placeholders, problems)).condition(node);
    problems.throwFirst();
    return condition;
  }
}
