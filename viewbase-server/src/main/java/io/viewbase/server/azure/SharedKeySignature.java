package io.viewbase.server.azure;

/**
 * The strings Azure's Table clients sign with the account key (Authorize with Shared Key, the Table
 * service format). There are no canonicalized headers, unlike Blob and Queue.
 *
 * <pre>
 * scheme        | string to sign
 * --------------+-------------------------------------------------------------------------
 * SharedKey     | VERB \n Content-MD5 \n Content-Type \n Date \n CanonicalizedResource
 * SharedKeyLite | Date \n CanonicalizedResource
 * </pre>
 *
 * CanonicalizedResource is {@code "/" + account + raw path} (so path-style URLs name the account
 * twice), plus {@code "?comp=" + value} when the query has {@code comp}.
 */
final class SharedKeySignature {
  private SharedKeySignature() {}

  static String canonicalizedResource(String signedPath, String comp) {
    return comp == null ? signedPath : signedPath + "?comp=" + comp;
  }

  static String sharedKey(
      String verb, String contentMd5, String contentType, String date, String resource) {
    return verb
        + '\n'
        + nullToEmpty(contentMd5)
        + '\n'
        + nullToEmpty(contentType)
        + '\n'
        + nullToEmpty(date)
        + '\n'
        + resource;
  }

  static String sharedKeyLite(String date, String resource) {
    return nullToEmpty(date) + '\n' + resource;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
