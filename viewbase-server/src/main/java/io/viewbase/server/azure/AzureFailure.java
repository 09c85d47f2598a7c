package io.viewbase.server.azure;

/**
 * A failure the Azure dialect answers with Azure's own status, error code and message: protocol
 * and authentication failures found here, and Viewbase errors translated by {@link AzureErrors}.
 */
final class AzureFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  AzureFailure(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }

  static AzureFailure invalidInput(String message) {
    return new AzureFailure(400, "InvalidInput", message);
  }

  static AzureFailure authenticationFailed(String why) {
    return new AzureFailure(403, "AuthenticationFailed", "Server failed to authenticate the request. " + why);
  }

  static AzureFailure permissionMismatch(String why) {
    return new AzureFailure(403, "AuthorizationPermissionMismatch",
        "This request is not authorized to perform this operation using this permission. " + why);
  }
}
