package io.viewbase.server.dynamodb;

import io.netty.handler.codec.http.HttpHeaders;
import java.util.List;

/**
 * A request as the DynamoDB dialect reads it: its method, target, headers and body.
 *
 * @param method the HTTP method
 * @param target the request target as sent (path and query, percent-encoded)
 * @param headers the request's headers (Netty's, looked up case-insensitively)
 * @param body the body's bytes
 */
record DynamoDbRequest(String method, String target, HttpHeaders headers, byte[] body) {
  /** The path as sent, without the query. */
  String rawPath() {
    int q = target.indexOf('?');
    return q < 0 ? target : target.substring(0, q);
  }

  /** The query as sent, without '?'; empty for none. */
  String rawQuery() {
    int q = target.indexOf('?');
    return q < 0 ? "" : target.substring(q + 1);
  }

  /** The first value of a header, or null. */
  String header(String name) {
    return headers.get(name);
  }

  /** Every value of a header, in the order sent (empty if absent). */
  List<String> headerValues(String name) {
    return headers.getAll(name);
  }
}
