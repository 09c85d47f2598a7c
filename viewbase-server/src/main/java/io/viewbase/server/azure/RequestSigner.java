package io.viewbase.server.azure;

import io.viewbase.api.Stability;

/**
 * Signs an Azure Tables request with SharedKey as Azure's clients do, with the same string to sign
 * ({@link SharedKeySignature}) and HMAC ({@link AccountKey}) the dialect verifies with: for
 * programs that talk to the dialect without an SDK (the class-archive training run of
 * viewbase-cli).
 */
@Stability(Stability.Level.INTERNAL)
public final class RequestSigner {
  private final AccountKey key;

  /** A signer for one account and its base64 key. */
  public RequestSigner(String account, String base64Key) {
    this.key = new AccountKey(account, base64Key);
  }

  /**
   * The {@code Authorization} header of a path-style request ({@code /account/Table...}).
   *
   * @param rawPath the path as sent, the account's name first, without the query
   * @param comp the query's {@code comp} parameter, or null
   * @param contentType the request's {@code Content-Type}, or null
   * @param date the request's {@code x-ms-date}
   */
  public String sharedKey(
      String verb, String rawPath, String comp, String contentType, String date) {
    String resource = SharedKeySignature.canonicalizedResource("/" + key.name() + rawPath, comp);
    return "SharedKey "
        + key.name()
        + ":"
        + key.sign(SharedKeySignature.sharedKey(verb, null, contentType, date, resource));
  }
}
