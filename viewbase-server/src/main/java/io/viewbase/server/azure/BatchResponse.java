package io.viewbase.server.azure;

import io.viewbase.api.Batch;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Writes the multipart answer of a batch in the exact shape every Azure client parses: boundaries
 * named {@code batchresponse_…} and {@code changesetresponse_…}, CRLF line ends, the closing
 * delimiters, one part per operation on success, and on failure one part whose JSON error sits on a
 * single line.
 */
final class BatchResponse {
  private static final String CRLF = "\r\n";

  private final String batchBoundary;
  private final String changesetBoundary;
  private final String baseUrl;
  private final StringBuilder out = new StringBuilder(1024);

  BatchResponse(String baseUrl) {
    String id = UUID.randomUUID().toString();
    this.batchBoundary = "batchresponse_" + id;
    this.changesetBoundary = "changesetresponse_" + id;
    this.baseUrl = baseUrl;
    out.append("--")
        .append(batchBoundary)
        .append(CRLF)
        .append("Content-Type: multipart/mixed; boundary=")
        .append(changesetBoundary)
        .append(CRLF)
        .append(CRLF);
  }

  String contentType() {
    return "multipart/mixed; boundary=" + batchBoundary;
  }

  void success(int index, Batch.Operation op, Item stored, boolean noContent, Call call) {
    boolean insert = op.kind() == Batch.Kind.INSERT;
    boolean withBody = insert && !noContent;
    partStart(withBody ? 201 : 204, index);
    if (insert) {
      out.append("Preference-Applied: ")
          .append(noContent ? "return-no-content" : "return-content")
          .append(CRLF);
    }
    String address =
        baseUrl
            + "/"
            + op.table()
            + "(PartitionKey='"
            + op.partitionKey().replace("'", "''")
            + "',RowKey='"
            + op.id().replace("'", "''")
            + "')";
    if (insert) {
      out.append("Location: ").append(address).append(CRLF);
      out.append("DataServiceId: ").append(address).append(CRLF);
    }
    if (stored != null && stored.etag() != null) {
      out.append("ETag: ").append(stored.etag()).append(CRLF);
    }
    if (withBody) {
      out.append("Content-Type: ").append(call.level().contentType()).append(CRLF).append(CRLF);
      out.append(
              new String(
                  EntityWriter.single(stored, EntityEndpoints.shape(call, op.table(), null)),
                  StandardCharsets.UTF_8))
          .append(CRLF);
    } else {
      out.append(CRLF);
    }
  }

  /**
   * The failing operation's part: its error by the error table, the message led by the operation's
   * index.
   */
  void failure(int index, ViewbaseException failure, String requestId) {
    ErrorCode.AzureError azure = failure.code().azure();
    partStart(azure.status(), index);
    out.append("Content-Type: ").append(AzureErrors.JSON_ERROR_TYPE).append(CRLF).append(CRLF);
    out.append(
            new String(
                AzureErrors.json(
                    azure.code(),
                    index + ":" + AzureErrors.message(failure),
                    requestId,
                    AzureTimes.format(java.time.Instant.now())),
                StandardCharsets.UTF_8))
        .append(CRLF);
  }

  private void partStart(int status, int index) {
    out.append("--")
        .append(changesetBoundary)
        .append(CRLF)
        .append("Content-Type: application/http")
        .append(CRLF)
        .append("Content-Transfer-Encoding: binary")
        .append(CRLF)
        .append(CRLF)
        .append("HTTP/1.1 ")
        .append(status)
        .append(' ')
        .append(reason(status))
        .append(CRLF)
        .append("Content-ID: ")
        .append(index + 1)
        .append(CRLF)
        .append("X-Content-Type-Options: nosniff")
        .append(CRLF)
        .append("Cache-Control: no-cache")
        .append(CRLF)
        .append("DataServiceVersion: 3.0;")
        .append(CRLF);
  }

  byte[] finish() {
    out.append("--")
        .append(changesetBoundary)
        .append("--")
        .append(CRLF)
        .append("--")
        .append(batchBoundary)
        .append("--")
        .append(CRLF);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 201 -> "Created";
      case 202 -> "Accepted";
      case 204 -> "No Content";
      case 400 -> "Bad Request";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 412 -> "Precondition Failed";
      case 413 -> "Request Entity Too Large";
      case 415 -> "Unsupported Media Type";
      case 501 -> "Not Implemented";
      case 503 -> "Service Unavailable";
      default -> status >= 500 ? "Internal Server Error" : "Error";
    };
  }
}
