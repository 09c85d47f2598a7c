package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each check of {@link Authenticator}, in DynamoDB's order, with requests signed here by {@link
 * SigV4} (the SDK suites sign with the AWS SDK's own signer).
 */
class AuthenticatorTest {
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final String KEY = "AKIDTEST";
  private static final String SECRET = "secret/Key+1";
  private static final byte[] BODY = "{\"TableName\":\"t\"}".getBytes(StandardCharsets.UTF_8);

  private final Authenticator strict = new Authenticator(Map.of(KEY, SECRET), false, CLOCK);

  /** A request's headers, signed with {@code secret} at {@code at}. */
  private static Map<String, List<String>> signed(String key, String secret, Instant at) {
    return signed(key, secret, at, "dynamodb", BODY);
  }

  private static Map<String, List<String>> signed(
      String key, String secret, Instant at, String service, byte[] body) {
    String amzDate = Authenticator.AMZ_DATE.format(at);
    Map<String, List<String>> h = new LinkedHashMap<>();
    h.put("content-type", List.of("application/x-amz-json-1.0"));
    h.put("host", List.of("127.0.0.1:8000"));
    h.put("x-amz-date", List.of(amzDate));
    h.put("x-amz-target", List.of("DynamoDB_20120810.DescribeTable"));
    List<String> names = List.copyOf(h.keySet());
    String scope = amzDate.substring(0, 8) + "/us-west-2/" + service + "/aws4_request";
    String canonical =
        SigV4.canonicalRequest(
            "POST", "/", "", n -> h.getOrDefault(n, List.of()), names, SigV4.sha256Hex(body));
    String signature =
        SigV4.signature(
            SigV4.signingKey(secret, amzDate.substring(0, 8), "us-west-2", service),
            SigV4.stringToSign(amzDate, scope, canonical));
    h.put(
        "authorization",
        List.of(
            "AWS4-HMAC-SHA256 Credential="
                + key
                + "/"
                + scope
                + ", SignedHeaders="
                + String.join(";", names)
                + ", Signature="
                + signature));
    return h;
  }

  private static Authenticator.Caller verify(Authenticator a, Map<String, List<String>> h) {
    return verify(a, h, BODY);
  }

  private static Authenticator.Caller verify(
      Authenticator a, Map<String, List<String>> h, byte[] body) {
    return a.verify("POST", "/", "", n -> h.getOrDefault(n, List.of()), body);
  }

  private static void assertRefused(Runnable r, ErrorCode code, String message) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.getMessage()).startsWith(message);
            });
  }

  @Test
  void aRequestSignedWithAKnownKeyNamesItsCallerAndRegion() {
    Authenticator.Caller caller = verify(strict, signed(KEY, SECRET, NOW));

    assertThat(caller).isEqualTo(new Authenticator.Caller(KEY, "us-west-2"));
  }

  @Test
  void aSignatureFromAFewMinutesAgoOrAheadStillVerifies() {
    verify(strict, signed(KEY, SECRET, NOW.minus(Duration.ofMinutes(14))));
    verify(strict, signed(KEY, SECRET, NOW.plus(Duration.ofMinutes(14))));
  }

  @Test
  void aRequestWithoutAuthorizationIsMissingItsToken() {
    Map<String, List<String>> h = signed(KEY, SECRET, NOW);
    h.remove("authorization");

    assertRefused(
        () -> verify(strict, h),
        ErrorCode.MissingAuthenticationToken,
        "Request is missing Authentication Token");
  }

  @Test
  void anAuthorizationWithoutItsSignatureIsIncomplete() {
    Map<String, List<String>> h = signed(KEY, SECRET, NOW);
    String auth = h.get("authorization").get(0);
    h.put("authorization", List.of(auth.substring(0, auth.indexOf(", Signature="))));

    assertRefused(
        () -> verify(strict, h),
        ErrorCode.IncompleteSignature,
        "Authorization header requires 'Signature' parameter.");
  }

  @Test
  void aDateOutsideFifteenMinutesHasExpiredOrIsNotYetCurrent() {
    assertRefused(
        () -> verify(strict, signed(KEY, SECRET, NOW.minus(Duration.ofMinutes(16)))),
        ErrorCode.InvalidSignature,
        "Signature expired: ");
    assertRefused(
        () -> verify(strict, signed(KEY, SECRET, NOW.plus(Duration.ofMinutes(16)))),
        ErrorCode.InvalidSignature,
        "Signature not yet current: ");
  }

  @Test
  void anUnknownKeyIsAnUnrecognizedClient() {
    assertRefused(
        () -> verify(strict, signed("AKIDOTHER", SECRET, NOW)),
        ErrorCode.UnrecognizedClient,
        "The security token included in the request is invalid.");
  }

  @Test
  void aWrongSecretOrAChangedBodyDoesNotVerify() {
    String mismatch =
        "The request signature we calculated does not match the signature you provided.";
    assertRefused(
        () -> verify(strict, signed(KEY, "another secret", NOW)),
        ErrorCode.InvalidSignature,
        mismatch);
    assertRefused(
        () -> verify(strict, signed(KEY, SECRET, NOW), "{}".getBytes(StandardCharsets.UTF_8)),
        ErrorCode.InvalidSignature,
        mismatch);
  }

  @Test
  void aScopeForAnotherServiceIsRefused() {
    assertRefused(
        () -> verify(strict, signed(KEY, SECRET, NOW, "s3", BODY)),
        ErrorCode.InvalidSignature,
        "Credential should be scoped to correct service: 'dynamodb'.");
  }

  @Test
  void theErrorsNeverCarryTheSignatureOrTheSecret() {
    Map<String, List<String>> h = signed(KEY, "another secret", NOW);
    String auth = h.get("authorization").get(0);
    String signature = auth.substring(auth.indexOf("Signature=") + 10);

    assertThatThrownBy(() -> verify(strict, h))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e ->
                assertThat(e.toString())
                    .doesNotContain(signature)
                    .doesNotContain(SECRET)
                    .doesNotContain("another secret"));
  }

  @Test
  void withAnyKeyAWellFormedRequestPassesWhateverItsKeyAndSignature() {
    Authenticator any = new Authenticator(Map.of(), true, CLOCK);

    assertThat(verify(any, signed("whoever", "whatever", NOW.minus(Duration.ofDays(3)))))
        .isEqualTo(new Authenticator.Caller("whoever", "us-west-2"));
    Map<String, List<String>> h = signed(KEY, SECRET, NOW);
    h.remove("authorization");
    assertRefused(
        () -> verify(any, h),
        ErrorCode.MissingAuthenticationToken,
        "Request is missing Authentication Token");
  }

  @Test
  void anXAmzDateIsReadAsTheIsoBasicFormatReadsItAndAnythingElseIsIncomplete() {
    for (String good :
        List.of("20260301T100000Z", "20240229T235959Z", "00010101T000000Z", "99991231T235959Z")) {
      assertThat(Authenticator.amzInstant(good))
          .as(good)
          .isEqualTo(Instant.from(Authenticator.AMZ_DATE.parse(good)));
    }
    for (String bad :
        List.of(
            "",
            "2026-03-01T10:00:00Z",
            "20260301T100000",
            "20260301 100000Z",
            "20260301T100000z",
            "20261301T100000Z",
            "20260230T100000Z",
            "20250229T100000Z",
            "20260301T240000Z",
            "20260301T106000Z",
            "20260301T100060Z",
            "2026030lT100000Z",
            "20260301T10000\u0660Z",
            "+2026031T100000Z",
            "20260301T100000Z ")) {
      assertThat(Authenticator.amzInstant(bad)).as(bad).isNull();
    }

    Map<String, List<String>> h = signed(KEY, SECRET, NOW);
    h.put("x-amz-date", List.of("20260301T100000"));
    assertRefused(
        () -> verify(strict, h),
        ErrorCode.IncompleteSignature,
        "Date must be in ISO-8601 'basic format'. Got '20260301T100000'.");
  }

  @Test
  void theAuthorizationIsSplitAtWhitespaceAsTheRegularExpressionSplitsIt() {
    for (String text :
        List.of(
            "AWS4-HMAC-SHA256 Credential=a",
            "AWS4-HMAC-SHA256\tCredential=a, Signature=b",
            "AWS4-HMAC-SHA256 \r\n\u000b\f Credential=a  b",
            "AWS4-HMAC-SHA256",
            " leading",
            "trailing ",
            "a\u00a0b",
            "")) {
      assertThat(Authenticator.splitAtWhitespace(text))
          .as(text)
          .containsExactly(text.split("\\s+", 2));
    }
    assertThat(Authenticator.parts("AWS4-HMAC-SHA256\tCredential=a/b , SignedHeaders=host,x=y"))
        .containsExactly(
            Map.entry("Credential", "a/b"),
            Map.entry("SignedHeaders", "host"),
            Map.entry("x", "y"));
  }

  @Test
  void aRegionIsOneToSixtyFourLowerCaseLettersDigitsOrDashes() {
    assertThat(Authenticator.validRegion("us-west-2")).isTrue();
    assertThat(Authenticator.validRegion("a".repeat(64))).isTrue();
    for (String bad : List.of("", "a".repeat(65), "US-WEST-2", "us_west_2", "us west", "é")) {
      assertThat(Authenticator.validRegion(bad)).as(bad).isFalse();
    }
    Map<String, List<String>> h = signed(KEY, SECRET, NOW);
    String auth = h.get("authorization").get(0).replace("/us-west-2/", "/US-WEST-2/");
    h.put("authorization", List.of(auth));
    assertRefused(
        () -> verify(strict, h),
        ErrorCode.InvalidSignature,
        "Credential should be scoped to a valid region, not 'US-WEST-2'.");
  }

  @Test
  void trailingSlashesOfACredentialAreIgnoredAndOtherwiseItNeedsFiveParts() {
    Map<String, List<String>> h = signed(KEY, SECRET, NOW);
    String auth = h.get("authorization").get(0);
    h.put("authorization", List.of(auth.replace("/aws4_request,", "/aws4_request//,")));
    assertThat(verify(strict, h)).isEqualTo(new Authenticator.Caller(KEY, "us-west-2"));
    h.put("authorization", List.of(auth.replace("/aws4_request,", "/aws4_request/x,")));
    assertRefused(
        () -> verify(strict, h),
        ErrorCode.IncompleteSignature,
        "Credential must have exactly 5 slash-delimited elements");
  }
}
