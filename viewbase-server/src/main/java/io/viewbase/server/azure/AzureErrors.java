package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Translates Viewbase errors into Azure's codes and messages, and writes Azure's error bodies.
 *
 * <pre>
 * Viewbase code        | where                     | Azure status, code
 * ---------------------+---------------------------+----------------------------------------
 * TableNotFound        | entity operation, batch   | 404 TableNotFound
 * TableNotFound        | Delete Table              | 404 ResourceNotFound
 * ItemNotFound         | any                       | 404 ResourceNotFound
 * ItemAlreadyExists    | insert                    | 409 EntityAlreadyExists
 * TableAlreadyExists   | Create Table              | 409 TableAlreadyExists
 * PreconditionFailed   | conditional write         | 412 UpdateConditionNotSatisfied
 * ViewIsReadOnly       | any write to a view       | 409 OperationNotAllowedOnView
 * InvalidTableName     | Create Table              | 400 InvalidResourceName (OutOfRangeInput for length)
 * others               | any                       | the code's status and {@link ErrorCode#azureCode()}
 * </pre>
 *
 * Where Azure has a fixed message (clients match some of them) it is used; otherwise Viewbase's
 * message and its context say what was wrong.
 */
final class AzureErrors {
  static final String JSON_ERROR_TYPE = "application/json;odata=minimalmetadata;streaming=true;charset=utf-8";
  static final String XML_TYPE = "application/xml";

  private AzureErrors() {
  }

  /**
   * Whether a request's errors are XML, as Azure sends them for its XML operations: table ACLs,
   * service properties and stats, and CORS preflights. Others are JSON.
   */
  static boolean answersInXml(AzureRequest request) {
    String query = request.rawQuery();
    return query.contains("comp=acl") || query.contains("restype=service") || request.method().equals("OPTIONS");
  }

  /** The Azure failure for a Viewbase error raised by an entity or table operation. */
  static AzureFailure translate(ViewbaseException e) {
    ErrorCode code = e.code();
    return switch (code) {
      case TableNotFound -> new AzureFailure(404, "TableNotFound", "The table specified does not exist.");
      case ItemNotFound -> new AzureFailure(404, "ResourceNotFound", "The specified resource does not exist.");
      case ItemAlreadyExists -> new AzureFailure(409, "EntityAlreadyExists", "The specified entity already exists.");
      case TableAlreadyExists -> new AzureFailure(409, "TableAlreadyExists", "The table specified already exists.");
      case PreconditionFailed -> new AzureFailure(412, "UpdateConditionNotSatisfied",
          "The update condition specified in the request was not satisfied.");
      case ViewIsReadOnly -> new AzureFailure(409, code.azureCode(),
          "The table is a Viewbase view, which is read-only: write to its source table instead. " + detail(e));
      case InvalidTableName -> new AzureFailure(400, "InvalidResourceName",
          "The specifed resource name contains invalid characters. " + detail(e));
      default -> new AzureFailure(code.httpStatus(), code.azureCode(), detail(e));
    };
  }

  /** Viewbase's message with its context fields, for codes Azure has no fixed message for. */
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

  /** Azure's XML error body, for the XML operations (table ACLs). */
  static byte[] xml(String code, String message, String requestId, String time) {
    String text = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + XmlText.escape(code)
        + "</Code><Message>" + XmlText.escape(message + "\nRequestId:" + requestId + "\nTime:" + time)
        + "</Message></Error>";
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
