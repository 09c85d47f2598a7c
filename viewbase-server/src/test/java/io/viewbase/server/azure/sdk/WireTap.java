package io.viewbase.server.azure.sdk;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.util.BinaryData;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A pipeline policy that shows a test the wire under the SDK: it can set request headers the SDK
 * offers no option for (such as {@code Prefer: return-content}) or a body the SDK would never write
 * (such as explicit nulls), and keeps the last response's status, headers and body. SharedKeyLite
 * signs only the date and the path, so what it changes in headers or body leaves the signature
 * valid.
 */
final class WireTap extends HttpPipelineSyncPolicy {
  private final Map<String, String> requestHeaders = new LinkedHashMap<>();
  private String requestBody;
  private volatile int status;

  /**
   * The response headers as they came off the wire (the SDK's own policies edit some, such as
   * ETag).
   */
  private volatile Map<String, String> headers = Map.of();

  private volatile String body;

  WireTap withRequestHeader(String name, String value) {
    requestHeaders.put(name, value);
    return this;
  }

  /**
   * Sends this JSON instead of the body the SDK serialized (SharedKeyLite does not sign bodies).
   */
  WireTap withRequestBody(String json) {
    requestBody = json;
    return this;
  }

  @Override
  protected void beforeSendingRequest(HttpPipelineCallContext context) {
    requestHeaders.forEach(
        (name, value) ->
            context.getHttpRequest().setHeader(HttpHeaderName.fromString(name), value));
    if (requestBody != null) {
      context.getHttpRequest().setBody(BinaryData.fromString(requestBody));
    }
  }

  @Override
  protected HttpResponse afterReceivedResponse(
      HttpPipelineCallContext context, HttpResponse response) {
    HttpResponse buffered = response.buffer();
    status = buffered.getStatusCode();
    Map<String, String> copy = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    buffered.getHeaders().forEach(h -> copy.put(h.getName(), h.getValue()));
    headers = copy;
    body = buffered.getBodyAsBinaryData() == null ? "" : buffered.getBodyAsBinaryData().toString();
    return buffered;
  }

  int status() {
    return status;
  }

  String header(String name) {
    return headers.get(name);
  }

  String body() {
    return body;
  }
}
