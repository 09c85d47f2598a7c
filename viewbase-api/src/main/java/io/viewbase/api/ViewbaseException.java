package io.viewbase.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one unchecked root of every Viewbase error. The message is short and static in spirit; the
 * particulars (table, partition key, id, view, position...) travel as named context fields, so logs
 * group by message and clients can read the fields.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public class ViewbaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final Map<String, Object> context;

  public ViewbaseException(ErrorCode code, String message) {
    this(code, message, Map.of(), null);
  }

  public ViewbaseException(ErrorCode code, String message, Map<String, ?> context) {
    this(code, message, context, null);
  }

  public ViewbaseException(
      ErrorCode code, String message, Map<String, ?> context, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.context = Collections.unmodifiableMap(new LinkedHashMap<>(context));
  }

  public ErrorCode code() {
    return code;
  }

  /** Named facts about the failure, for example {@code table}, {@code partitionKey}, {@code id}. */
  public Map<String, Object> context() {
    return context;
  }

  /** Builds an exception with context given as alternating names and values. */
  public static ViewbaseException of(ErrorCode code, String message, Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("names and values must come in pairs");
    }
    Map<String, Object> context = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      if (namesAndValues[i + 1] != null) {
        context.put((String) namesAndValues[i], namesAndValues[i + 1]);
      }
    }
    return new ViewbaseException(code, message, context);
  }

  @Override
  public String toString() {
    return code + ": " + getMessage() + (context.isEmpty() ? "" : " " + context);
  }
}
