package io.viewbase.server.azure.sdk;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.AddDatePolicy;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.data.tables.TableAzureNamedKeyCredentialPolicy;

/**
 * Requests signed by the SDK's own SharedKeyLite policy but otherwise raw: for wire details the
 * SDK's clients hide (its last pipeline policy rewrites the ETag header before any other policy
 * sees it).
 */
final class SignedHttp {
  private final HttpPipeline pipeline;
  private final String endpoint;

  SignedHttp(AzureSdkServer azure) {
    this.endpoint = azure.endpoint();
    this.pipeline =
        new HttpPipelineBuilder()
            .httpClient(AzureSdkServer.HTTP)
            .policies(
                new AddDatePolicy(),
                new TableAzureNamedKeyCredentialPolicy(
                    new AzureNamedKeyCredential(AzureSdkServer.ACCOUNT, AzureSdkServer.KEY)))
            .build();
  }

  /** Sends a request to {@code <endpoint><pathAndQuery>}; {@code headers} are name, value pairs. */
  HttpResponse send(HttpMethod method, String pathAndQuery, String body, String... headers) {
    HttpRequest request =
        new HttpRequest(method, endpoint + pathAndQuery)
            .setHeader(HttpHeaderName.fromString("x-ms-version"), "2019-02-02")
            .setHeader(HttpHeaderName.ACCEPT, "application/json;odata=minimalmetadata");
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.setHeader(HttpHeaderName.fromString(headers[i]), headers[i + 1]);
    }
    if (body != null) {
      request
          .setHeader(HttpHeaderName.CONTENT_TYPE, "application/json")
          .setBody(BinaryData.fromString(body));
    }
    return pipeline.sendSync(request, Context.NONE).buffer();
  }

  static String body(HttpResponse response) {
    BinaryData data = response.getBodyAsBinaryData();
    return data == null ? "" : data.toString();
  }
}
