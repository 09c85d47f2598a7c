package io.viewbase.server.dynamodb;

import io.viewbase.server.dynamodb.expr.Condition;
import io.viewbase.server.dynamodb.expr.Expressions;
import io.viewbase.server.dynamodb.expr.KeyCondition;
import io.viewbase.server.dynamodb.expr.LegacyParameters;
import io.viewbase.server.dynamodb.expr.Placeholders;
import io.viewbase.server.dynamodb.expr.Projection;
import io.viewbase.server.dynamodb.expr.Update;
import java.util.List;
import java.util.Map;

/**
 * The expressions of one request, or of one action of a transaction, read with their placeholders:
 * each parameter in its expression form or, where the operation has one, its legacy form ({@code
 * Expected}, {@code AttributeUpdates}, {@code KeyConditions}, {@code QueryFilter}, {@code
 * ScanFilter}, {@code AttributesToGet}); never both ({@link LegacyParameters#checkParameters}).
 * Once every expression is read, {@link #checkAllUsed} refuses placeholders none of them used, as
 * DynamoDB does.
 */
final class RequestExpressions {
  private final Map<String, Object> members;
  private final Placeholders placeholders;

  private RequestExpressions(Map<String, Object> members) {
    this.members = members;
    this.placeholders =
        Placeholders.read(
            members.get("ExpressionAttributeNames"), members.get("ExpressionAttributeValues"));
  }

  /** A request of an operation that has legacy parameters too. */
  static RequestExpressions of(RequestTree r, LegacyParameters.Operation operation) {
    LegacyParameters.checkParameters(operation, r.members());
    return new RequestExpressions(r.members());
  }

  /** A transaction's action, which has expressions only. */
  static RequestExpressions of(RequestTree r) {
    return new RequestExpressions(r.members());
  }

  private String text(String member) {
    Object v = members.get(member);
    return v == null ? null : RequestTree.of(Map.of("v", v)).string("v");
  }

  /** ConditionExpression, or Expected (with ConditionalOperator); null when there is none. */
  Condition condition() {
    String expression = text("ConditionExpression");
    if (expression != null) {
      return Expressions.parseCondition(expression, placeholders);
    }
    return LegacyParameters.expected(members.get("Expected"), members.get("ConditionalOperator"))
        .orElse(null);
  }

  /** FilterExpression, or the legacy filter ({@code QueryFilter} or {@code ScanFilter}). */
  Condition filter(String legacy) {
    String expression = text("FilterExpression");
    if (expression != null) {
      return Expressions.parseFilter(expression, placeholders);
    }
    return LegacyParameters.filter(members.get(legacy), members.get("ConditionalOperator"), legacy)
        .orElse(null);
  }

  /** ProjectionExpression, or AttributesToGet; null when the whole item is asked for. */
  Projection projection() {
    String expression = text("ProjectionExpression");
    if (expression != null) {
      return Expressions.parseProjection(expression, placeholders);
    }
    Object legacy = members.get("AttributesToGet");
    return legacy == null ? null : LegacyParameters.attributesToGet(legacy);
  }

  /** UpdateExpression, or AttributeUpdates; null when the request has neither. */
  Update update() {
    String expression = text("UpdateExpression");
    if (expression != null) {
      return Expressions.parseUpdate(expression, placeholders);
    }
    Object legacy = members.get("AttributeUpdates");
    return legacy == null ? null : LegacyParameters.attributeUpdates(legacy);
  }

  /** KeyConditionExpression, or KeyConditions. */
  KeyCondition keyCondition(List<String> hashKeys, List<String> rangeKeys) {
    String expression = text("KeyConditionExpression");
    if (expression != null) {
      return Expressions.parseKeyCondition(expression, placeholders, hashKeys, rangeKeys);
    }
    Object legacy = members.get("KeyConditions");
    if (legacy == null) {
      throw ItemOperations.validation(
          "Either the KeyConditions or KeyConditionExpression parameter must be specified in the"
              + " request.");
    }
    return LegacyParameters.keyConditions(legacy, hashKeys, rangeKeys);
  }

  void checkAllUsed() {
    placeholders.checkAllUsed();
  }
}
