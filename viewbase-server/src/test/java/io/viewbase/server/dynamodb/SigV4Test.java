package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SigV4} against AWS's published Signature Version 4 test suite (aws-sig-v4-test-suite):
 * each case's canonical request, string to sign and signature, for the example credentials {@code
 * AKIDEXAMPLE} / {@code wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY}, 2015-08-30T12:36:00Z, {@code
 * us-east-1}, service {@code service}. The suite's paths are given decoded, as it states them (the
 * SDKs of services other than S3 encode the wire path once more, which is the same encoding step).
 */
class SigV4Test {
  private static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  private static final String DATE = "20150830T123600Z";
  private static final String SCOPE = "20150830/us-east-1/service/aws4_request";
  private static final String EMPTY_HASH =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final String TOKEN =
      "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==";

  /** One case: the request, and what the suite says each step yields. */
  record Case(
      String name,
      String method,
      String path,
      String query,
      Map<String, List<String>> headers,
      String body,
      String canonicalRequest,
      String signature) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Map<String, List<String>> headers(String... namesAndValues) {
    Map<String, List<String>> h = new LinkedHashMap<>();
    h.put("host", List.of("example.amazonaws.com"));
    h.put("x-amz-date", List.of(DATE));
    for (int i = 0; i < namesAndValues.length; i += 2) {
      h.computeIfAbsent(namesAndValues[i].toLowerCase(Locale.ROOT), k -> new ArrayList<>())
          .add(namesAndValues[i + 1]);
    }
    return h;
  }

  private static String plain(String method, String path, String query, String... extra) {
    StringBuilder sb = new StringBuilder(method + "\n" + path + "\n" + query + "\n");
    sb.append("host:example.amazonaws.com\n");
    for (String line : extra) {
      sb.append(line).append('\n');
    }
    sb.append("x-amz-date:").append(DATE).append("\n\n");
    return sb.toString();
  }

  static Stream<Case> cases() {
    String hx = "host;x-amz-date\n" + EMPTY_HASH;
    return Stream.of(
        new Case(
            "get-vanilla",
            "GET",
            "/",
            "",
            headers(),
            "",
            plain("GET", "/", "") + hx,
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        new Case(
            "post-vanilla",
            "POST",
            "/",
            "",
            headers(),
            "",
            plain("POST", "/", "") + hx,
            "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        new Case(
            "get-vanilla-query-order-key",
            "GET",
            "/",
            "Param1=value2&Param1=Value1",
            headers(),
            "",
            plain("GET", "/", "Param1=Value1&Param1=value2") + hx,
            "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"),
        new Case(
            "get-vanilla-query-order-key-case",
            "GET",
            "/",
            "Param2=value2&Param1=value1",
            headers(),
            "",
            plain("GET", "/", "Param1=value1&Param2=value2") + hx,
            "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        new Case(
            "get-vanilla-utf8-query",
            "GET",
            "/",
            "\u1234=bar",
            headers(),
            "",
            plain("GET", "/", "%E1%88%B4=bar") + hx,
            "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
        new Case(
            "get-utf8",
            "GET",
            "/\u1234",
            "",
            headers(),
            "",
            plain("GET", "/%E1%88%B4", "") + hx,
            "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
        new Case(
            "get-space",
            "GET",
            "/example space/",
            "",
            headers(),
            "",
            plain("GET", "/example%20space/", "") + hx,
            "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
        new Case(
            "get-slashes",
            "GET",
            "//example//",
            "",
            headers(),
            "",
            plain("GET", "/example/", "") + hx,
            "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84"),
        new Case(
            "get-relative-relative",
            "GET",
            "/example1/example2/../..",
            "",
            headers(),
            "",
            plain("GET", "/", "") + hx,
            "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        new Case(
            "get-slash-pointless-dot",
            "GET",
            "/./example",
            "",
            headers(),
            "",
            plain("GET", "/example", "") + hx,
            "ef75d96142cf21edca26f06005da7988e4f8dc83a165a80865db7089db637ec5"),
        new Case(
            "get-header-value-trim",
            "GET",
            "/",
            "",
            headers("My-Header1", " value1", "My-Header2", "\"a   b   c\""),
            "",
            "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
                + "x-amz-date:"
                + DATE
                + "\n\nhost;my-header1;my-header2;x-amz-date\n"
                + EMPTY_HASH,
            "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
        new Case(
            "get-header-key-duplicate",
            "GET",
            "/",
            "",
            headers("My-Header1", "value2", "My-Header1", "value2", "My-Header1", "value1"),
            "",
            "GET\n/\n\nhost:example.amazonaws.com\nmy-header1:value2,value2,value1\n"
                + "x-amz-date:"
                + DATE
                + "\n\nhost;my-header1;x-amz-date\n"
                + EMPTY_HASH,
            "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
        new Case(
            "post-header-value-case",
            "POST",
            "/",
            "",
            headers("My-Header1", "VALUE1"),
            "",
            "POST\n/\n\nhost:example.amazonaws.com\nmy-header1:VALUE1\nx-amz-date:"
                + DATE
                + "\n\nhost;my-header1;x-amz-date\n"
                + EMPTY_HASH,
            "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
        new Case(
            "post-sts-header-before",
            "POST",
            "/",
            "",
            headers("X-Amz-Security-Token", TOKEN),
            "",
            "POST\n/\n\nhost:example.amazonaws.com\nx-amz-date:"
                + DATE
                + "\nx-amz-security-token:"
                + TOKEN
                + "\n\nhost;x-amz-date;x-amz-security-token\n"
                + EMPTY_HASH,
            "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"),
        new Case(
            "post-vanilla-query",
            "POST",
            "/",
            "Param1=value1",
            headers(),
            "",
            plain("POST", "/", "Param1=value1") + hx,
            "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theCanonicalRequestStringToSignAndSignatureAreTheSuites(Case c) {
    List<String> signed = new ArrayList<>(c.headers().keySet());
    signed.sort(null);
    String canonical =
        SigV4.canonicalRequest(
            c.method(),
            c.path(),
            c.query(),
            name -> c.headers().getOrDefault(name, List.of()),
            signed,
            SigV4.sha256Hex(c.body().getBytes(StandardCharsets.UTF_8)));

    assertThat(canonical).isEqualTo(c.canonicalRequest());
    String toSign = SigV4.stringToSign(DATE, SCOPE, canonical);
    assertThat(toSign).startsWith("AWS4-HMAC-SHA256\n" + DATE + "\n" + SCOPE + "\n");
    assertThat(
            SigV4.signature(SigV4.signingKey(SECRET, "20150830", "us-east-1", "service"), toSign))
        .isEqualTo(c.signature());
  }
}
