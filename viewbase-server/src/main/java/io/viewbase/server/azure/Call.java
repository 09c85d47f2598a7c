package io.viewbase.server.azure;

/**
 * One request on its way through the dialect: what it addresses, its parameters, what it may do and
 * how its answer is formatted.
 *
 * @param request the request
 * @param path what the path addresses
 * @param query the decoded query parameters
 * @param grant what the request may do
 * @param level the metadata level of JSON answers
 */
record Call(
    AzureRequest request, ResourcePath path, QueryString query, Grant grant, MetadataLevel level) {

  String header(String lowerCaseName) {
    return request.header(lowerCaseName);
  }

  /**
   * Whether the client asked not to get the written entity or table back: {@code Prefer:
   * return-no-content}. Null when it did not say (then the content is returned, as on Azure).
   */
  Boolean prefersNoContent() {
    String prefer = header("prefer");
    if (prefer == null) {
      return null;
    }
    if (prefer.contains("return-no-content")) {
      return Boolean.TRUE;
    }
    return prefer.contains("return-content") ? Boolean.FALSE : null;
  }
}
