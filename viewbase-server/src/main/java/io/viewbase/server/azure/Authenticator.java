package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides who a request is and what it may do: a {@link Grant}, or a 403 ({@link
 * io.viewbase.api.ErrorCode#AuthenticationFailed} and its kin).
 *
 * <pre>
 * request carries              | check                                              | grant
 * -----------------------------+----------------------------------------------------+------------------
 * Authorization: SharedKey[Lite]| signature by the account's key; date within 15 min| everything
 * sig=… (account SAS: ss/srt)  | signature; ss has t; st ≤ now ≤ se; sip; spr      | srt and sp
 * sig=… (table SAS)            | signature; stored policy si; times; sip; spr      | table (tn, else the
 *                              |                                                    |   URL's), sp, key range
 * nothing                      | allowed only with anonymous access                | everything
 * </pre>
 *
 * The date a SharedKey request signed may be its {@code x-ms-date} or its {@code Date} (clients
 * differ, and Java signs an empty date when x-ms-date is present), so each candidate is tried.
 * Every failure says which part did not match, never the expected signature.
 */
final class Authenticator {
  static final long MAX_CLOCK_SKEW_SECONDS = 15 * 60;

  private final Map<String, AccountKey> accounts = new HashMap<>();
  private final boolean anonymous;
  private final StoredPolicies acls;

  /**
   * Which date a SharedKeyLite signature covers: the x-ms-date (most clients), the Date header, or
   * an empty line when x-ms-date is present (the Java SDK). Each candidate costs an HMAC, so the
   * one that matched last is tried first: a server's clients are usually one SDK.
   */
  private volatile int liteDateFirst;

  Authenticator(Map<String, String> accountKeys, boolean anonymous, StoredPolicies acls) {
    accountKeys.forEach((name, key) -> accounts.put(name, new AccountKey(name, key)));
    this.anonymous = anonymous;
    this.acls = acls;
  }

  Grant authenticate(AzureRequest request, ResourcePath path, QueryString query) {
    if (anonymous) {
      return Grant.FULL;
    }
    String authorization = request.header("authorization");
    if (authorization != null) {
      sharedKey(request, path, query, authorization);
      return Grant.FULL;
    }
    if (query.has("sig")) {
      return sas(request, path, query, Instant.now());
    }
    throw new ViewbaseException(
        ErrorCode.AuthenticationFailed,
        "The request carries neither an Authorization header nor a shared access signature");
  }

  private void sharedKey(
      AzureRequest request, ResourcePath path, QueryString query, String authorization) {
    boolean lite;
    String credentials;
    if (authorization.startsWith("SharedKeyLite ")) {
      lite = true;
      credentials = authorization.substring("SharedKeyLite ".length()).trim();
    } else if (authorization.startsWith("SharedKey ")) {
      lite = false;
      credentials = authorization.substring("SharedKey ".length()).trim();
    } else {
      throw new ViewbaseException(
          ErrorCode.AuthenticationFailed,
          "Only the SharedKey and SharedKeyLite schemes are " + "supported");
    }
    int colon = credentials.indexOf(':');
    String accountName = colon < 0 ? credentials : credentials.substring(0, colon);
    if (!accountName.equals(path.account())) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "The Authorization header names another account " + "than the request addresses",
          "signedAccount",
          accountName,
          "account",
          path.account());
    }
    AccountKey key = key(accountName);
    byte[] signature = signature(colon < 0 ? "" : credentials.substring(colon + 1));
    String xmsDate = request.header("x-ms-date");
    String date = request.header("date");
    checkDate(xmsDate != null ? xmsDate : date);
    String resource =
        SharedKeySignature.canonicalizedResource(path.signedPath(), query.get("comp"));
    boolean ok;
    if (lite) {
      ok = verifiesLite(key, signature, resource, xmsDate, date);
    } else {
      String md5 = request.header("content-md5");
      String type = request.header("content-type");
      ok =
          (xmsDate != null
                  && key.verifies(
                      SharedKeySignature.sharedKey(request.method(), md5, type, xmsDate, resource),
                      signature))
              || (date != null
                  && key.verifies(
                      SharedKeySignature.sharedKey(request.method(), md5, type, date, resource),
                      signature));
    }
    if (!ok) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "Make sure the value of Authorization header is "
              + "formed correctly including the signature: it does not match the account key",
          "resource",
          resource);
    }
  }

  /**
   * Whether the signature is the key's SharedKeyLite signature of the resource with one of the
   * candidate dates.
   */
  private boolean verifiesLite(
      AccountKey key, byte[] signature, String resource, String xmsDate, String date) {
    String[] candidates = {xmsDate, date, xmsDate == null ? null : ""};
    int first = liteDateFirst;
    for (int i = 0; i < candidates.length; i++) {
      int which = (first + i) % candidates.length;
      String signedDate = candidates[which];
      if (signedDate != null
          && key.verifies(SharedKeySignature.sharedKeyLite(signedDate, resource), signature)) {
        if (which != first) {
          liteDateFirst = which;
        }
        return true;
      }
    }
    return false;
  }

  private static void checkDate(String date) {
    if (date == null) {
      throw new ViewbaseException(
          ErrorCode.AuthenticationFailed, "A signed request needs an x-ms-date or Date header");
    }
    long signed = AzureTimes.parseHttpDate(date);
    if (signed == Long.MIN_VALUE) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed, "The date header is not an RFC 1123 date", "date", date);
    }
    long now = System.currentTimeMillis() / 1000;
    if (Math.abs(now - signed) > MAX_CLOCK_SKEW_SECONDS) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "Request date header too old or too far in the "
              + "future: at most 15 minutes from the server's time are accepted",
          "date",
          date);
    }
  }

  private Grant sas(AzureRequest request, ResourcePath path, QueryString q, Instant now) {
    AccountKey key = key(path.account());
    byte[] signature = signature(q.get("sig"));
    if (q.get("sv") == null) {
      throw new ViewbaseException(
          ErrorCode.AuthenticationFailed,
          "The shared access signature has no signed " + "version (sv)");
    }
    boolean account = q.has("ss") || q.has("srt");
    String permissions = q.get("sp");
    Instant start = time(q, "st");
    Instant expiry = time(q, "se");
    // Without tn, a table SAS is for the table the URL names, and signs that name.
    String table = account ? null : q.get("tn") != null ? q.get("tn") : path.table();
    if (account) {
      if (!key.verifies(SasSignature.account(path.account(), q), signature)) {
        throw new ViewbaseException(
            ErrorCode.AuthenticationFailed,
            "Signature did not match the account SAS's " + "fields");
      }
      if (q.get("ss") == null || q.get("ss").indexOf('t') < 0) {
        throw ViewbaseException.of(
            ErrorCode.AuthorizationServiceMismatch,
            "The account SAS's signed services (ss) must include t",
            "ss",
            q.get("ss"));
      }
      if (q.get("srt") == null) {
        throw new ViewbaseException(
            ErrorCode.AuthenticationFailed,
            "The account SAS has no signed resource types " + "(srt)");
      }
    } else {
      if (table == null) {
        throw new ViewbaseException(
            ErrorCode.AuthenticationFailed,
            "The table SAS names no table (tn), and " + "neither does the URL");
      }
      if (!key.verifies(SasSignature.service(path.account(), table, q), signature)) {
        throw new ViewbaseException(
            ErrorCode.AuthenticationFailed, "Signature did not match the table SAS's " + "fields");
      }
      String si = q.get("si");
      if (si != null) {
        AccessPolicy policy =
            acls.find(table, si)
                .orElseThrow(
                    () ->
                        ViewbaseException.of(
                            ErrorCode.AuthenticationFailed,
                            "The signed identifier is not a stored access policy of the table",
                            "si",
                            si,
                            "table",
                            table));
        permissions = permissions != null ? permissions : policy.permissions();
        start = start != null ? start : policy.start();
        expiry = expiry != null ? expiry : policy.expiry();
      }
    }
    if (permissions == null || expiry == null) {
      throw new ViewbaseException(
          ErrorCode.AuthenticationFailed,
          "The SAS (with its stored policy) must give " + "permissions and an expiry");
    }
    if (start != null && now.isBefore(start)) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "The SAS is not valid before its signed start",
          "st",
          start.toString());
    }
    if (now.isAfter(expiry)) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "Signed expiry time must be after the current " + "time",
          "se",
          expiry.toString());
    }
    checkIp(q.get("sip"), request.clientIp());
    String protocols = q.get("spr");
    if (protocols != null
        && !protocols.contains("http,")
        && !protocols.endsWith(",http")
        && !protocols.equals("http")) {
      throw ViewbaseException.of(
          ErrorCode.AuthorizationProtocolMismatch,
          "The SAS does not allow http, which this server speaks",
          "spr",
          protocols);
    }
    return new Grant.Sas(
        permissions,
        account ? q.get("srt") : null,
        account ? null : table,
        account
            ? KeyRange.ALL
            : new KeyRange(q.get("spk"), q.get("srk"), q.get("epk"), q.get("erk")));
  }

  /** The SAS's time field {@code name} ({@code st} or {@code se}), or null if it has none. */
  private static Instant time(QueryString q, String name) {
    String text = q.get(name);
    if (text == null) {
      return null;
    }
    Instant t = AzureTimes.parseInstant(text);
    if (t == null) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "A signed time of the SAS is not an ISO-8601 UTC " + "time",
          name,
          text);
    }
    return t;
  }

  private static void checkIp(String sip, String clientIp) {
    if (sip == null) {
      return;
    }
    int dash = sip.indexOf('-');
    String from = dash < 0 ? sip : sip.substring(0, dash);
    String to = dash < 0 ? sip : sip.substring(dash + 1);
    long ip = ipv4(clientIp);
    long lo = ipv4(from);
    long hi = ipv4(to);
    boolean inside = ip >= 0 && lo >= 0 && hi >= 0 ? ip >= lo && ip <= hi : sip.equals(clientIp);
    if (!inside) {
      throw ViewbaseException.of(
          ErrorCode.AuthorizationSourceIPMismatch,
          "The client's address is outside the addresses the SAS allows",
          "clientIp",
          clientIp,
          "sip",
          sip);
    }
  }

  /** An IPv4 address as a number, or -1 if the text is not one. */
  static long ipv4(String text) {
    if (text == null) {
      return -1;
    }
    String[] parts = text.split("\\.");
    if (parts.length != 4) {
      return -1;
    }
    long v = 0;
    for (String part : parts) {
      try {
        int octet = Integer.parseInt(part);
        if (octet < 0 || octet > 255) {
          return -1;
        }
        v = v << 8 | octet;
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return v;
  }

  private AccountKey key(String account) {
    AccountKey key = accounts.get(account);
    if (key == null) {
      throw ViewbaseException.of(
          ErrorCode.AuthenticationFailed,
          "The account is not known to this server",
          "account",
          account);
    }
    return key;
  }

  private static byte[] signature(String base64) {
    try {
      return Base64.getDecoder().decode(base64);
    } catch (IllegalArgumentException e) {
      throw new ViewbaseException(ErrorCode.AuthenticationFailed, "The signature is not base64");
    }
  }
}
