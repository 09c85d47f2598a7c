package io.viewbase.server.dynamodb;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4, the arithmetic: canonical request, string to sign, signing key and
 * signature, as AWS documents them and as the SDKs compute them for every service but S3 (whose
 * paths are encoded once, not twice). What a request must carry, and the errors when it does not,
 * are {@link Authenticator}'s.
 *
 * <pre>
 * canonical request = METHOD \n canonical URI \n canonical query \n
 *                     name:value \n (each signed header, lower-case, sorted) \n
 *                     signed;header;names \n payload hash (hex SHA-256)
 * string to sign    = AWS4-HMAC-SHA256 \n X-Amz-Date \n date/region/service/aws4_request \n
 *                     hex SHA-256 of the canonical request
 * signing key       = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request")
 * signature         = hex HMAC(signing key, string to sign)
 * </pre>
 *
 * The canonical URI is the request's path as sent, with {@code .}/{@code ..} segments and repeated
 * slashes removed, encoded once more (every byte but {@code A-Z a-z 0-9 - _ . ~} and {@code /} as
 * {@code %XX}); the canonical query is each parameter decoded and re-encoded that way ({@code =}
 * and {@code &} too), sorted by name and then value. A header's value is trimmed, its runs of
 * spaces made one, and a header sent several times is its values joined with commas.
 */
final class SigV4 {
  static final String ALGORITHM = "AWS4-HMAC-SHA256";
  static final String TERMINATOR = "aws4_request";
  private static final HexFormat HEX = HexFormat.of();

  private SigV4() {}

  /**
   * The canonical request.
   *
   * @param rawPath the path as sent (percent-encoded)
   * @param rawQuery the query as sent, without {@code ?}; empty for none
   * @param headerValues a header's values by lower-case name, in the order sent (empty if absent)
   * @param signedHeaders the lower-case names the request signed, sorted
   * @param payloadHash the hex SHA-256 of the body (or what {@code x-amz-content-sha256} says)
   */
  static String canonicalRequest(
      String method,
      String rawPath,
      String rawQuery,
      Function<String, List<String>> headerValues,
      List<String> signedHeaders,
      String payloadHash) {
    StringBuilder sb = new StringBuilder(256);
    sb.append(method).append('\n');
    sb.append(canonicalUri(rawPath)).append('\n');
    sb.append(canonicalQuery(rawQuery)).append('\n');
    for (String name : signedHeaders) {
      sb.append(name).append(':').append(canonicalValue(headerValues.apply(name))).append('\n');
    }
    sb.append('\n');
    sb.append(String.join(";", signedHeaders)).append('\n');
    sb.append(payloadHash);
    return sb.toString();
  }

  static String stringToSign(String amzDate, String scope, String canonicalRequest) {
    return ALGORITHM + "\n" + amzDate + "\n" + scope + "\n" + sha256Hex(canonicalRequest);
  }

  /**
   * The key that signs a day's requests for one region and service: four HMACs, the same for every
   * request of that day, so the last {@link #SIGNING_KEYS} are kept (a request's cost is then its
   * canonical request's hash and one HMAC). The secrets stay in memory as they are in the options.
   */
  static byte[] signingKey(String secret, String date, String region, String service) {
    Scope scope = new Scope(secret, date, region, service);
    byte[] cached = SIGNING_KEY_CACHE.get(scope);
    if (cached != null) {
      return cached;
    }
    byte[] key = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), date);
    key = hmac(key, region);
    key = hmac(key, service);
    key = hmac(key, TERMINATOR);
    if (SIGNING_KEY_CACHE.size() >= SIGNING_KEYS) {
      SIGNING_KEY_CACHE.clear(); // a day's keys are few; this only bounds a flood of scopes
    }
    SIGNING_KEY_CACHE.put(scope, key);
    return key;
  }

  /** How many signing keys are kept. */
  static final int SIGNING_KEYS = 256;

  private record Scope(String secret, String date, String region, String service) {}

  private static final ConcurrentHashMap<Scope, byte[]> SIGNING_KEY_CACHE =
      new ConcurrentHashMap<>();

  /** Mac and MessageDigest instances cost a provider lookup each: one of each per thread. */
  private static final ThreadLocal<Mac> MAC =
      ThreadLocal.withInitial(
          () -> {
            try {
              return Mac.getInstance("HmacSHA256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("Every Java platform has HmacSHA256", e);
            }
          });

  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("Every Java platform has SHA-256", e);
            }
          });

  static String signature(byte[] signingKey, String stringToSign) {
    return HEX.formatHex(hmac(signingKey, stringToSign));
  }

  static String sha256Hex(String text) {
    return sha256Hex(text.getBytes(StandardCharsets.UTF_8));
  }

  static String sha256Hex(byte[] bytes) {
    return HEX.formatHex(SHA256.get().digest(bytes));
  }

  /** Whether two signatures are the same, in time that does not depend on where they differ. */
  static boolean same(String expected, String given) {
    return MessageDigest.isEqual(
        expected.getBytes(StandardCharsets.US_ASCII), given.getBytes(StandardCharsets.US_ASCII));
  }

  static String canonicalUri(String rawPath) {
    String path = rawPath.isEmpty() ? "/" : rawPath;
    Deque<String> segments = new ArrayDeque<>();
    for (String segment : path.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        segments.pollLast();
      } else {
        segments.addLast(segment);
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String segment : segments) {
      sb.append('/');
      encode(sb, segment.getBytes(StandardCharsets.UTF_8));
    }
    boolean trailing = path.endsWith("/") && !segments.isEmpty();
    return sb.isEmpty() ? "/" : trailing ? sb.append('/').toString() : sb.toString();
  }

  static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    List<String[]> parameters = new ArrayList<>();
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      parameters.add(new String[] {reencode(name), reencode(value)});
    }
    parameters.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
    StringBuilder sb = new StringBuilder();
    for (String[] p : parameters) {
      sb.append(sb.isEmpty() ? "" : "&").append(p[0]).append('=').append(p[1]);
    }
    return sb.toString();
  }

  private static String canonicalValue(List<String> values) {
    List<String> trimmed = new ArrayList<>(values.size());
    for (String v : values) {
      trimmed.add(collapseSpaces(v.strip()));
    }
    return String.join(",", trimmed);
  }

  /** Runs of spaces as one space, as SigV4's canonical header values have them. */
  private static String collapseSpaces(String v) {
    if (v.indexOf("  ") < 0) {
      return v;
    }
    StringBuilder sb = new StringBuilder(v.length());
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c != ' ' || sb.length() == 0 || sb.charAt(sb.length() - 1) != ' ') {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** Decodes {@code %XX} (a '+' stays itself) and encodes the bytes as SigV4 does. */
  private static String reencode(String raw) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '%'
          && i + 2 < raw.length()
          && hex(raw.charAt(i + 1)) >= 0
          && hex(raw.charAt(i + 2)) >= 0) {
        bytes.write(hex(raw.charAt(i + 1)) << 4 | hex(raw.charAt(i + 2)));
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < raw.length()) {
          b = raw.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.writeBytes(b);
      }
    }
    StringBuilder sb = new StringBuilder();
    encode(sb, bytes.toByteArray());
    return sb.toString();
  }

  private static void encode(StringBuilder sb, byte[] bytes) {
    for (byte b : bytes) {
      int c = b & 0xff;
      if (c >= 'A' && c <= 'Z'
          || c >= 'a' && c <= 'z'
          || c >= '0' && c <= '9'
          || c == '-'
          || c == '_'
          || c == '.'
          || c == '~') {
        sb.append((char) c);
      } else {
        sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        sb.append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
      }
    }
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = MAC.get();
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (InvalidKeyException e) {
      throw new IllegalStateException("An HMAC key of any length is valid", e);
    }
  }
}
