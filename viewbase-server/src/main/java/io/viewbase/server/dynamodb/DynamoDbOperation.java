package io.viewbase.server.dynamodb;

import io.viewbase.api.Stability;
import java.util.Map;

/**
 * One DynamoDB operation ({@code CreateTable}, {@code PutItem}, ...), as the dialect serves it: the
 * request's body as a tree in, the answer's body as a tree out. Operations are registered by name
 * ({@link TableOperations#operations}, {@link ItemOperations#operations}) and served on the worker
 * pool, so they may block (on a log sync, a scan, a catalog change).
 *
 * <pre>
 * the request body       | a JSON object, read by {@code JsonTree} into LinkedHashMap, ArrayList,
 *                        |   String, BigDecimal, Boolean and null ({@link RequestTree} reads its
 *                        |   members with DynamoDB's type errors, {@link Violations} checks them
 *                        |   with its constraint errors)
 * the answer             | a tree of Map, List, String, Number, Boolean, null and {@code
 *                        |   AttributeValue} (written as DynamoDB JSON), or null for {}; the dialect
 *                        |   writes it with x-amzn-RequestId and x-amz-crc32
 * a refusal              | a {@link io.viewbase.api.ViewbaseException}: its code's DynamoDB row
 *                        |   ({@code ErrorCode.dynamoDb()}) gives the status, the exception name
 *                        |   and the fixed message; context members with upper-case names
 *                        |   ({@code CancellationReasons}, {@code Item}) are written into the error
 *                        |   body ({@link DynamoDbErrors})
 * anything else thrown   | logged, and answered 500 InternalServerError without details
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
@FunctionalInterface
public interface DynamoDbOperation {
  /**
   * Serves one request.
   *
   * @param request the request body's members
   * @param call who sent it, where, and the answer's request id
   * @return the answer's tree (null for an empty object)
   */
  Object serve(Map<String, Object> request, CallContext call);
}
