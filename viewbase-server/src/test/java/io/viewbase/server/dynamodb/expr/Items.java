package io.viewbase.server.dynamodb.expr;

import io.viewbase.server.dynamodb.model.AttributeValue;
import io.viewbase.server.dynamodb.model.AttributeValues;
import io.viewbase.server.dynamodb.model.JsonTree;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Items and placeholders for the expression tests, written as DynamoDB JSON. */
final class Items {
  private Items() {}

  static Object tree(String json) {
    return JsonTree.read(json.getBytes(StandardCharsets.UTF_8), 1 << 20);
  }

  static Map<String, AttributeValue> item(String json) {
    return AttributeValues.readItem(tree(json));
  }

  static AttributeValue value(String json) {
    return AttributeValues.read(tree(json));
  }

  static String json(Map<String, AttributeValue> item) {
    return new String(JsonTree.write(item), StandardCharsets.UTF_8);
  }

  /** Placeholders from JSON; either may be null. */
  static Placeholders placeholders(String names, String values) {
    return Placeholders.read(
        names == null ? null : tree(names), values == null ? null : tree(values));
  }
}
