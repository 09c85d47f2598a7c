package io.viewbase.server.dynamodb;

import io.viewbase.api.Stability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Signs a DynamoDB request as the AWS SDKs do, with the same {@link SigV4} arithmetic the dialect
 * verifies with: for programs that talk to the dialect without an SDK (the class-archive training
 * run of viewbase-cli).
 */
@Stability(Stability.Level.INTERNAL)
public final class RequestSigner {
  private RequestSigner() {}

  /** {@code X-Amz-Date}'s value for an instant: ISO-8601 basic, UTC ({@code 20260301T100000Z}). */
  public static String amzDate(Instant at) {
    return Authenticator.AMZ_DATE.format(at);
  }

  /**
   * The headers of a POST of {@code body} to a DynamoDB operation as the SDKs send them, signed
   * with the local key ({@link DynamoDbOptions#LOCAL_KEY_ID}) now: {@code host}, {@code
   * x-amz-date}, {@code x-amz-target}, {@code content-type} and the {@code Authorization} that
   * signs them, in that order.
   *
   * @param host the {@code host} header's value, as the client sends it ({@code 127.0.0.1:8000})
   * @param operation the operation's name ({@code PutItem})
   */
  public static Map<String, String> localHeaders(
      String host, String operation, String region, byte[] body) {
    String amzDate = amzDate(Instant.now());
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("host", host);
    headers.put("x-amz-date", amzDate);
    headers.put("x-amz-target", "DynamoDB_20120810." + operation);
    headers.put("content-type", "application/x-amz-json-1.0");
    headers.put(
        "Authorization",
        authorization(
            DynamoDbOptions.LOCAL_KEY_ID,
            DynamoDbOptions.LOCAL_SECRET,
            region,
            amzDate,
            "POST",
            "/",
            "",
            headers,
            body));
    return headers;
  }

  /**
   * The {@code Authorization} header of a request, every header given signed.
   *
   * @param amzDate the request's {@code X-Amz-Date} (see {@link #amzDate}), also in {@code headers}
   * @param headers the headers to sign, {@code host} and {@code x-amz-date} among them, as sent
   * @param body the request's body
   */
  public static String authorization(
      String accessKeyId,
      String secret,
      String region,
      String amzDate,
      String method,
      String rawPath,
      String rawQuery,
      Map<String, String> headers,
      byte[] body) {
    Map<String, String> lower = new TreeMap<>();
    headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));
    List<String> signed = new ArrayList<>(lower.keySet());
    String canonical =
        SigV4.canonicalRequest(
            method,
            rawPath,
            rawQuery,
            name -> List.of(lower.get(name)),
            signed,
            SigV4.sha256Hex(body));
    String date = amzDate.substring(0, 8);
    String scope = date + "/" + region + "/" + Authenticator.SERVICE + "/" + SigV4.TERMINATOR;
    String signature =
        SigV4.signature(
            SigV4.signingKey(secret, date, region, Authenticator.SERVICE),
            SigV4.stringToSign(amzDate, scope, canonical));
    return SigV4.ALGORITHM
        + " Credential="
        + accessKeyId
        + "/"
        + scope
        + ", SignedHeaders="
        + String.join(";", signed)
        + ", Signature="
        + signature;
  }
}
