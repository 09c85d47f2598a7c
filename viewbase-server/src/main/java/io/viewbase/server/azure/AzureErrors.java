package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * Azure's error answers for Viewbase errors: the status, code and message come from the error's
 * {@link ErrorCode#azure()} row of the one error table, and this class writes them in Azure's
 * shapes.
 *
 * <pre>
 * the row's Azure message           | the answer's message
 * ----------------------------------+---------------------------------------------------------------
 * none                              | the error's message, its context after it: "m (table: T, id: 7)"
 * a fixed one                       | that one, exactly (clients match some of them)
 * one with %s                       | Azure's words, the error's message and context for the %s
 * </pre>
 *
 * Bodies are JSON ({@code odata.error}) but for the XML operations (table ACLs, service properties
 * and stats, CORS preflights), whose errors Azure sends as XML; in both, the message ends with the
 * request id and time, as Azure's does.
 */
final class AzureErrors {
  static final String JSON_ERROR_TYPE =
      "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
  static final String XML_TYPE = "application/xml";

  private AzureErrors() {}

  /**
   * Whether a request's errors are XML, as Azure sends them for its XML operations: table ACLs,
   * service properties and stats, and CORS preflights. Others are JSON.
   */
  static boolean answersInXml(AzureRequest request) {
    String query = request.rawQuery();
    return query.contains("comp=acl")
        || query.contains("restype=service")
        || request.method().equals("OPTIONS");
  }

  /**
   * The error's answer: status, body and {@code x-ms-error-code}; the caller adds what every answer
   * has.
   */
  static AzureResponse answer(ViewbaseException e, boolean xml, String requestId) {
    ErrorCode.AzureError azure = e.code().azure();
    String message = message(e);
    String time = AzureTimes.format(Instant.now());
    byte[] body =
        xml
            ? xml(azure.code(), message, requestId, time)
            : json(azure.code(), message, requestId, time);
    return AzureResponse.of(azure.status(), xml ? XML_TYPE : JSON_ERROR_TYPE, body)
        .with("x-ms-error-code", azure.code());
  }

  /** The message Azure's answer to the error carries (see the table above). */
  static String message(ViewbaseException e) {
    String template = e.code().azure().message();
    if (template == null) {
      return detail(e);
    }
    int at = template.indexOf("%s");
    return at < 0 ? template : template.substring(0, at) + detail(e) + template.substring(at + 2);
  }

  /** Viewbase's message with its context fields. */
  static String detail(ViewbaseException e) {
    if (e.context().isEmpty()) {
      return e.getMessage();
    }
    StringBuilder sb = new StringBuilder(e.getMessage()).append(" (");
    boolean first = true;
    for (Map.Entry<String, Object> c : e.context().entrySet()) {
      sb.append(first ? "" : ", ").append(c.getKey()).append(": ").append(c.getValue());
      first = false;
    }
    return sb.append(')').toString();
  }

  /** Azure's JSON error body; the message ends with the request id and time, as Azure's does. */
  static byte[] json(String code, String message, String requestId, String time) {
    String value = message + "\nRequestId:" + requestId + "\nTime:" + time;
    StringBuilder sb = new StringBuilder(96 + value.length());
    sb.append("{\"odata.error\":{\"code\":");
    JsonText.quote(sb, code);
    sb.append(",\"message\":{\"lang\":\"en-US\",\"value\":");
    JsonText.quote(sb, value);
    sb.append("}}}");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Azure's XML error body, for the XML operations. */
  static byte[] xml(String code, String message, String requestId, String time) {
    String text =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>"
            + XmlText.escape(code)
            + "</Code><Message>"
            + XmlText.escape(message + "\nRequestId:" + requestId + "\nTime:" + time)
            + "</Message></Error>";
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
