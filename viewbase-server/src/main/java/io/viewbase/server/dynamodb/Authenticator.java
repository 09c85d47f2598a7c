package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Checks a request's AWS Signature Version 4 ({@link SigV4}) against the configured keys, in the
 * order DynamoDB checks it, answering each failure as DynamoDB does:
 *
 * <pre>
 * the request                                            | answer
 * -------------------------------------------------------+---------------------------------------------
 * no Authorization, or one not starting AWS4-            | MissingAuthenticationTokenException
 * no Credential, SignedHeaders or Signature; no X-Amz-   | IncompleteSignatureException, naming what
 *   Date (or Date); a date not in ISO-8601 basic format; |   is missing or wrong
 *   another algorithm; a Credential without 5 parts      |
 * a date more than 15 minutes from the server's clock    | InvalidSignatureException: Signature expired
 *   (either way)                                         |   / not yet current
 * host not signed; a scope of another service, a bad     | InvalidSignatureException, naming the part
 *   region or terminator, a date other than X-Amz-Date's |
 * an access key id no key has                            | UnrecognizedClientException
 * x-amz-content-sha256 other than the body's hash        | InvalidSignatureException
 * a signature other than the one computed                | InvalidSignatureException ("The request
 *                                                        |   signature we calculated does not match…")
 * </pre>
 *
 * With {@code anyKey}, the checks up to the credential's five parts are made and the rest are not:
 * any key and any signature are accepted, as DynamoDB Local does. An {@code X-Amz-Security-Token}
 * is tolerated (signed like any header) and not checked. Signatures are compared in constant time;
 * no secret or signature is logged or put in an answer.
 *
 * <p>Every request pays for this check, so it is written without regular expressions or a {@link
 * DateTimeFormatter} parse (a point read's profile found them at ~10% of its CPU): the header is
 * split by hand at whitespace as {@code \s} defines it, and the date is read digit by digit.
 */
final class Authenticator {
  static final String SERVICE = "dynamodb";

  static final Duration SKEW = Duration.ofMinutes(15);

  /** X-Amz-Date's form: ISO-8601 basic, UTC. */
  static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final String UNSIGNED = "UNSIGNED-PAYLOAD";

  /** Who signed a request, and where they think they are. */
  record Caller(String accessKeyId, String region) {}

  private final Map<String, String> keys;
  private final boolean anyKey;
  private final Clock clock;

  Authenticator(Map<String, String> keys, boolean anyKey, Clock clock) {
    this.keys = keys;
    this.anyKey = anyKey;
    this.clock = clock;
  }

  /**
   * Verifies a request; answers its caller, or throws the error DynamoDB answers.
   *
   * @param headers a header's values by lower-case name, in the order sent (empty if absent)
   */
  Caller verify(
      String method,
      String rawPath,
      String rawQuery,
      Function<String, List<String>> headers,
      byte[] body) {
    String authorization = first(headers, "authorization");
    if (authorization == null || !authorization.strip().startsWith("AWS4-")) {
      throw ViewbaseException.of(
          ErrorCode.MissingAuthenticationToken, "Request is missing Authentication Token");
    }
    Map<String, String> parts = parts(authorization.strip());
    String amzDate = first(headers, "x-amz-date");
    if (amzDate == null) {
      amzDate = first(headers, "date");
    }
    StringBuilder missing = new StringBuilder();
    for (String part : List.of("Credential", "Signature", "SignedHeaders")) {
      if (parts.get(part) == null || parts.get(part).isEmpty()) {
        missing.append("Authorization header requires '").append(part).append("' parameter. ");
      }
    }
    if (amzDate == null) {
      missing.append(
          "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
    }
    if (!missing.isEmpty()) {
      throw incomplete(missing.toString().strip());
    }
    Instant signedAt = amzInstant(amzDate);
    if (signedAt == null) {
      throw incomplete(
          "Date must be in ISO-8601 'basic format'. Got '"
              + amzDate
              + "'. See http://en.wikipedia.org/wiki/ISO_8601");
    }
    String algorithm = splitAtWhitespace(authorization.strip())[0];
    if (!algorithm.equals(SigV4.ALGORITHM)) {
      throw incomplete(
          "Unsupported AWS 'algorithm': '"
              + algorithm
              + "' (only "
              + SigV4.ALGORITHM
              + " for now). ");
    }
    String credential = parts.get("Credential");
    int end = credential.length();
    while (end > 0 && credential.charAt(end - 1) == '/') {
      end--;
    }
    String[] scope = credential.substring(0, end).split("/", -1);
    if (scope.length != 5) {
      throw incomplete(
          "Credential must have exactly 5 slash-delimited elements, e.g. "
              + "keyid/date/region/service/term, got '"
              + credential
              + "'");
    }
    Caller caller = new Caller(scope[0], scope[2]);
    if (anyKey) {
      return caller;
    }
    checkTime(amzDate, signedAt);
    List<String> signed = List.of(parts.get("SignedHeaders").split(";", -1));
    if (!signed.contains("host")) {
      throw invalid("'Host' must be a 'SignedHeader' in the AWS Authorization.");
    }
    checkScope(scope, amzDate);
    String secret = keys.get(scope[0]);
    if (secret == null) {
      throw ViewbaseException.of(
          ErrorCode.UnrecognizedClient, "The security token included in the request is invalid.");
    }
    String bodyHash = SigV4.sha256Hex(body);
    String payloadHash = first(headers, "x-amz-content-sha256");
    if (payloadHash == null) {
      payloadHash = bodyHash;
    } else if (!payloadHash.equals(UNSIGNED) && !payloadHash.equals(bodyHash)) {
      throw invalid("The provided 'x-amz-content-sha256' header does not match what was computed.");
    }
    String canonical =
        SigV4.canonicalRequest(method, rawPath, rawQuery, headers, signed, payloadHash);
    String scopeText = scope[1] + "/" + scope[2] + "/" + scope[3] + "/" + scope[4];
    String expected =
        SigV4.signature(
            SigV4.signingKey(secret, scope[1], scope[2], scope[3]),
            SigV4.stringToSign(amzDate, scopeText, canonical));
    if (!SigV4.same(expected, parts.get("Signature").toLowerCase(Locale.ROOT))) {
      throw invalid(
          "The request signature we calculated does not match the signature you provided. "
              + "Check your AWS Secret Access Key and signing method. "
              + "Consult the service documentation for details.");
    }
    return caller;
  }

  private void checkTime(String amzDate, Instant signedAt) {
    Instant now = clock.instant();
    if (signedAt.isBefore(now.minus(SKEW))) {
      throw invalid(
          "Signature expired: "
              + amzDate
              + " is now earlier than "
              + AMZ_DATE.format(now.minus(SKEW))
              + " ("
              + AMZ_DATE.format(now)
              + " - 15 min.)");
    }
    if (signedAt.isAfter(now.plus(SKEW))) {
      throw invalid(
          "Signature not yet current: "
              + amzDate
              + " is still later than "
              + AMZ_DATE.format(now.plus(SKEW))
              + " ("
              + AMZ_DATE.format(now)
              + " + 15 min.)");
    }
  }

  private static void checkScope(String[] scope, String amzDate) {
    StringBuilder wrong = new StringBuilder();
    if (!validRegion(scope[2])) {
      wrong.append("Credential should be scoped to a valid region, not '").append(scope[2]);
      wrong.append("'. ");
    }
    if (!scope[3].equals(SERVICE)) {
      wrong.append("Credential should be scoped to correct service: '").append(SERVICE);
      wrong.append("'. ");
    }
    if (!scope[4].equals(SigV4.TERMINATOR)) {
      wrong.append("Credential should be scoped with a valid terminator: '");
      wrong.append(SigV4.TERMINATOR).append("', not '").append(scope[4]).append("'. ");
    }
    String day = amzDate.substring(0, 8);
    if (!scope[1].equals(day)) {
      wrong.append("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of ");
      wrong.append("date from HTTP: '").append(scope[1]).append("' != '").append(day);
      wrong.append("', from '").append(amzDate).append("'.");
    }
    if (!wrong.isEmpty()) {
      throw invalid(wrong.toString().strip());
    }
  }

  /**
   * The {@code name=value} parts of an Authorization header after its algorithm, by name: {@code
   * AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…}.
   */
  static Map<String, String> parts(String authorization) {
    Map<String, String> parts = new LinkedHashMap<>();
    String[] words = splitAtWhitespace(authorization);
    if (words.length < 2) {
      return parts;
    }
    for (String part : words[1].split(",")) {
      String p = part.strip();
      int eq = p.indexOf('=');
      if (eq > 0) {
        parts.put(p.substring(0, eq).strip(), p.substring(eq + 1).strip());
      }
    }
    return parts;
  }

  /**
   * An X-Amz-Date's instant, or null if it is not {@code yyyyMMdd'T'HHmmss'Z'} with a valid date
   * and time (exactly 16 characters, ASCII digits; no 24:00:00, no 30 February).
   */
  static Instant amzInstant(String text) {
    if (text.length() != 16 || text.charAt(8) != 'T' || text.charAt(15) != 'Z') {
      return null;
    }
    int year = digits(text, 0, 4);
    int month = digits(text, 4, 6);
    int day = digits(text, 6, 8);
    int hour = digits(text, 9, 11);
    int minute = digits(text, 11, 13);
    int second = digits(text, 13, 15);
    if ((year | month | day | hour | minute | second) < 0) {
      return null;
    }
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second).toInstant(ZoneOffset.UTC);
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** The decimal number in {@code text[from, to)}, or -1 if a character is not an ASCII digit. */
  private static int digits(String text, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      n = n * 10 + (c - '0');
    }
    return n;
  }

  /** Whether a scope's region is 1 to 64 of {@code a-z}, {@code 0-9} and {@code -}. */
  static boolean validRegion(String region) {
    if (region.isEmpty() || region.length() > 64) {
      return false;
    }
    for (int i = 0; i < region.length(); i++) {
      char c = region.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code text} split at its first run of whitespace into at most two words, as {@code
   * text.split("\\s+", 2)} splits it: one word if it has no whitespace, an empty first word if it
   * starts with some.
   */
  static String[] splitAtWhitespace(String text) {
    int i = 0;
    while (i < text.length() && !isSpace(text.charAt(i))) {
      i++;
    }
    if (i == text.length()) {
      return new String[] {text};
    }
    int j = i;
    while (j < text.length() && isSpace(text.charAt(j))) {
      j++;
    }
    return new String[] {text.substring(0, i), text.substring(j)};
  }

  /** Whitespace as a regular expression's {@code \s} means it: space, tab, LF, VT, FF, CR. */
  private static boolean isSpace(char c) {
    return c == ' ' || c >= '\t' && c <= '\r';
  }

  private static String first(Function<String, List<String>> headers, String name) {
    List<String> values = headers.apply(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static ViewbaseException incomplete(String message) {
    return new ViewbaseException(ErrorCode.IncompleteSignature, message);
  }

  private static ViewbaseException invalid(String message) {
    return new ViewbaseException(ErrorCode.InvalidSignature, message);
  }
}
