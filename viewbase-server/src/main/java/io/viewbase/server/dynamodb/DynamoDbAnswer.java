package io.viewbase.server.dynamodb;

import io.viewbase.api.Stability;
import io.viewbase.server.Answer;
import io.viewbase.server.ResponseBytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the DynamoDB dialect answers: a status, a body with its content type, and headers in order
 * (a flat list of name/value pairs, a handful per answer).
 */
@Stability(Stability.Level.INTERNAL)
public record DynamoDbAnswer(int status, String contentType, byte[] body, List<String> headers)
    implements Answer {
  private static final byte[] EMPTY = new byte[0];

  public DynamoDbAnswer {
    body = body == null ? EMPTY : body;
  }

  static DynamoDbAnswer of(int status, String contentType, byte[] body) {
    return new DynamoDbAnswer(status, contentType, body, new ArrayList<>(12));
  }

  /** Adds a header (a null value adds nothing) and returns this answer. */
  DynamoDbAnswer with(String name, String value) {
    if (value != null) {
      headers.add(name);
      headers.add(value);
    }
    return this;
  }

  /** The first value of a header, compared case-insensitively, or null. */
  public String header(String name) {
    for (int i = 0; i < headers.size(); i += 2) {
      if (headers.get(i).equalsIgnoreCase(name)) {
        return headers.get(i + 1);
      }
    }
    return null;
  }

  @Override
  public void writeHeaders(ResponseBytes out) {
    for (int i = 0; i < headers.size(); i += 2) {
      out.header(headers.get(i), headers.get(i + 1));
    }
  }

  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
