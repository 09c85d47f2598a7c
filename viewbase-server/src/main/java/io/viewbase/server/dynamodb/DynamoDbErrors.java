package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.model.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB's error answers for Viewbase errors: status, exception name and message come from the
 * error's {@link ErrorCode#dynamoDb()} row of the one error table, and this class writes them in
 * DynamoDB's shape, {@code {"__type": "NAMESPACE#Name", "message": "…"}}.
 *
 * <pre>
 * the row's DynamoDB message  | the answer's message
 * ----------------------------+---------------------------------------------------------------
 * none                        | the error's message, its lower-case context after it:
 *                             |   "m (table: T, id: 7)"
 * a fixed one                 | that one, exactly (clients match some of them)
 * one with %s                 | DynamoDB's words, the error's message and context for the %s
 * </pre>
 *
 * A context member whose name starts with an upper-case letter is a member of DynamoDB's answer,
 * written beside the message as it is (a tree, as {@link JsonTree} writes them): {@code
 * CancellationReasons} of a TransactionCanceledException, {@code Item} of a
 * ConditionalCheckFailedException. The namespace is the one DynamoDB uses for the exception: the
 * request-layer ones are {@code com.amazon.coral.service}'s, ValidationException {@code
 * com.amazon.coral.validate}'s, ThrottlingException {@code com.amazon.coral.availability}'s, the
 * others {@code com.amazonaws.dynamodb.v20120810}'s. SerializationException and
 * TransactionCanceledException carry {@code Message}, as DynamoDB's do; the SDKs read either.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class DynamoDbErrors {
  static final String DYNAMODB = "com.amazonaws.dynamodb.v20120810#";
  private static final String SERVICE = "com.amazon.coral.service#";

  private DynamoDbErrors() {}

  /** The error's answer (status and body); the caller adds the headers every answer has. */
  public static DynamoDbAnswer answer(ViewbaseException e) {
    ErrorCode.DynamoDbError row = e.code().dynamoDb();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("__type", namespace(row.type()) + row.type());
    String message = message(e);
    if (message != null && !message.isEmpty()) {
      body.put(capitalMessage(row.type()) ? "Message" : "message", message);
    }
    e.context()
        .forEach(
            (name, value) -> {
              if (isAnswerMember(name)) {
                body.put(name, value);
              }
            });
    return DynamoDbAnswer.of(row.status(), DynamoDbApi.CONTENT_TYPE, JsonTree.write(body));
  }

  /**
   * A TransactionCanceledException with DynamoDB's message and its {@code CancellationReasons}: one
   * per item of the transaction, in order, each {@code {"Code": "None"}} or a code and message
   * ({@code {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}}, with
   * {@code "Item"} when the request asked for it).
   */
  public static ViewbaseException transactionCanceled(List<Map<String, Object>> reasons) {
    List<String> codes = new ArrayList<>(reasons.size());
    for (Map<String, Object> r : reasons) {
      codes.add(String.valueOf(r.get("Code")));
    }
    return ViewbaseException.of(
        ErrorCode.TransactionCanceled,
        "Transaction cancelled, please refer cancellation reasons for specific reasons ["
            + String.join(", ", codes)
            + "]",
        "CancellationReasons",
        List.copyOf(reasons));
  }

  /** The message the answer carries (see the table above), or null for none. */
  static String message(ViewbaseException e) {
    String template = e.code().dynamoDb().message();
    if (template == null) {
      return detail(e);
    }
    int at = template.indexOf("%s");
    return at < 0 ? template : template.substring(0, at) + detail(e) + template.substring(at + 2);
  }

  /** Viewbase's message with its lower-case context members. */
  static String detail(ViewbaseException e) {
    StringBuilder sb = new StringBuilder(e.getMessage() == null ? "" : e.getMessage());
    boolean first = true;
    for (Map.Entry<String, Object> c : e.context().entrySet()) {
      if (isAnswerMember(c.getKey())) {
        continue;
      }
      sb.append(first ? " (" : ", ").append(c.getKey()).append(": ").append(c.getValue());
      first = false;
    }
    return first ? sb.toString() : sb.append(')').toString();
  }

  private static boolean isAnswerMember(String name) {
    return !name.isEmpty() && Character.isUpperCase(name.charAt(0));
  }

  private static boolean capitalMessage(String type) {
    return type.equals("SerializationException") || type.equals("TransactionCanceledException");
  }

  static String namespace(String type) {
    return switch (type) {
      case "ValidationException" -> "com.amazon.coral.validate#";
      case "ThrottlingException" -> "com.amazon.coral.availability#";
      case "SerializationException",
          "UnknownOperationException",
          "MissingAuthenticationTokenException",
          "IncompleteSignatureException",
          "InvalidSignatureException",
          "UnrecognizedClientException",
          "AccessDeniedException",
          "RequestEntityTooLarge",
          "RequestTimeoutException",
          "ServiceUnavailable" ->
          SERVICE;
      default -> DYNAMODB;
    };
  }
}
