package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.PercentDecoding;

/**
 * What a request path addresses, and the pieces signing and responses need.
 *
 * <pre>
 * path after the account                   | kind
 * -----------------------------------------+---------
 * "" or "/"                                | SERVICE
 * /Tables, /Tables()                       | TABLES      (each form may end in one '/')
 * /Tables('t')                             | TABLE
 * /$batch                                  | BATCH
 * /t, /t()                                 | ENTITIES
 * /t(PartitionKey='p',RowKey='r')          | ENTITY
 * </pre>
 *
 * The account is the first path segment (path-style, the emulator's form) unless the host name is
 * production-style, {@code <account>.table.<anything>}. Keys are percent-decoded, then read between
 * single quotes with {@code ''} for a quote, tolerating spaces after the comma.
 *
 * @param account the account named by the host or path
 * @param kind what is addressed
 * @param table the table name (TABLE, ENTITIES, ENTITY), else null
 * @param partitionKey the entity's partition key (ENTITY), else null
 * @param rowKey the entity's row key (ENTITY), else null
 * @param signedPath {@code "/" + account + raw path}: the canonicalized resource without {@code
 *     ?comp}
 * @param baseUrl {@code http://host[/account]}, for {@code odata.metadata} and {@code odata.id}
 * @param pathStyle whether the account was the first path segment
 * @param secondary whether the request addresses the account's secondary endpoint ({@code
 *     <account>-secondary}), which serves reads only; {@code account} is then the account's own
 *     name, which signs
 */
record ResourcePath(
    String account,
    Kind kind,
    String table,
    String partitionKey,
    String rowKey,
    String signedPath,
    String baseUrl,
    boolean pathStyle,
    boolean secondary) {

  /**
   * The suffix of an account's read-only secondary endpoint ({@code devstoreaccount1-secondary}).
   */
  static final String SECONDARY = "-secondary";

  enum Kind {
    SERVICE,
    TABLES,
    TABLE,
    BATCH,
    ENTITIES,
    ENTITY
  }

  /** Reads a request's raw path; {@code host} is the Host header (null if absent). */
  static ResourcePath parse(String rawPath, String host) {
    String account = productionAccount(host);
    String hostPart = host == null || host.isEmpty() ? "127.0.0.1" : host;
    if (account != null) {
      return resource(account, rawPath, "/" + account + rawPath, "http://" + hostPart, false);
    }
    if (rawPath.length() < 2 || rawPath.charAt(0) != '/') {
      throw ViewbaseException.of(
          ErrorCode.InvalidUri,
          "The path must name the account first, as in " + "/devstoreaccount1/Tables",
          "path",
          rawPath);
    }
    int slash = rawPath.indexOf('/', 1);
    String accountSegment = slash < 0 ? rawPath.substring(1) : rawPath.substring(1, slash);
    String rest = slash < 0 ? "" : rawPath.substring(slash);
    return resource(
        accountSegment,
        rest,
        "/" + accountSegment + rawPath,
        "http://" + hostPart + "/" + accountSegment,
        true);
  }

  /**
   * A sub-request path inside a batch, read in the style of the batch that carries it: path-style
   * batches carry the account segment in each sub-request, production-style ones do not.
   */
  static ResourcePath parseInBatch(String rawPath, String host, boolean pathStyle) {
    if (pathStyle) {
      return parse(rawPath, null).withBase(host);
    }
    String account = productionAccount(host);
    return resource(
        account == null ? "" : account, rawPath, "/" + account + rawPath, "http://" + host, false);
  }

  private ResourcePath withBase(String host) {
    String base = "http://" + (host == null ? "127.0.0.1" : host) + "/" + account;
    return new ResourcePath(
        account, kind, table, partitionKey, rowKey, signedPath, base, pathStyle, secondary);
  }

  /**
   * The account of a production-style host ({@code acct.table.example}), or null for path-style
   * hosts.
   */
  static String productionAccount(String host) {
    if (host == null) {
      return null;
    }
    String name = host;
    int colon = name.lastIndexOf(':');
    if (colon >= 0 && name.indexOf(']') < colon) {
      name = name.substring(0, colon);
    }
    int dot = name.indexOf('.');
    if (dot <= 0 || !name.regionMatches(true, dot, ".table.", 0, 7)) {
      return null;
    }
    return name.substring(0, dot).toLowerCase(java.util.Locale.ROOT);
  }

  private static ResourcePath resource(
      String accountName, String rest, String signedPath, String base, boolean pathStyle) {
    boolean secondary =
        accountName.length() > SECONDARY.length() && accountName.endsWith(SECONDARY);
    String account =
        secondary
            ? accountName.substring(0, accountName.length() - SECONDARY.length())
            : accountName;
    if (secondary) { // signed with the account's own name, as the SDKs sign it:
      // /account/account-secondary/...
      signedPath = "/" + account + signedPath.substring(1 + accountName.length());
    }
    if (rest.isEmpty() || rest.equals("/")) {
      return new ResourcePath(
          account, Kind.SERVICE, null, null, null, signedPath, base, pathStyle, secondary);
    }
    // One trailing '/' names the same resource (/Tables/, /t/): clients that join a base URL and a
    // path may send it. The signature still covers the path as sent (signedPath).
    String raw = rest.endsWith("/") ? rest.substring(1, rest.length() - 1) : rest.substring(1);
    if (raw.indexOf('/') >= 0) {
      throw ViewbaseException.of(
          ErrorCode.InvalidUri,
          "The request path has more segments than a table resource",
          "path",
          rest);
    }
    String segment = PercentDecoding.segment(raw);
    if (segment.equals("$batch")) {
      return new ResourcePath(
          account, Kind.BATCH, null, null, null, signedPath, base, pathStyle, secondary);
    }
    int paren = segment.indexOf('(');
    String name = paren < 0 ? segment : segment.substring(0, paren);
    String args = paren < 0 ? null : segment.substring(paren);
    if (name.equalsIgnoreCase("Tables")) {
      if (args == null || args.equals("()")) {
        return new ResourcePath(
            account, Kind.TABLES, null, null, null, signedPath, base, pathStyle, secondary);
      }
      KeyReader r = new KeyReader(args);
      r.expect('(');
      String table = r.quoted();
      r.expect(')');
      r.end();
      return new ResourcePath(
          account, Kind.TABLE, table, null, null, signedPath, base, pathStyle, secondary);
    }
    if (args == null || args.equals("()")) {
      return new ResourcePath(
          account, Kind.ENTITIES, name, null, null, signedPath, base, pathStyle, secondary);
    }
    KeyReader r = new KeyReader(args);
    r.expect('(');
    r.word("PartitionKey");
    r.expect('=');
    String pk = r.quoted();
    r.expect(',');
    r.word("RowKey");
    r.expect('=');
    String rk = r.quoted();
    r.expect(')');
    r.end();
    return new ResourcePath(
        account, Kind.ENTITY, name, pk, rk, signedPath, base, pathStyle, secondary);
  }

  /** Reads the parenthesised key list of an entity address. */
  private static final class KeyReader {
    private final String s;
    private int pos;

    KeyReader(String s) {
      this.s = s;
    }

    private void spaces() {
      while (pos < s.length() && s.charAt(pos) == ' ') {
        pos++;
      }
    }

    void expect(char c) {
      spaces();
      if (pos >= s.length() || s.charAt(pos) != c) {
        throw malformed();
      }
      pos++;
    }

    void word(String w) {
      spaces();
      if (!s.startsWith(w, pos)) {
        throw malformed();
      }
      pos += w.length();
    }

    String quoted() {
      expect('\'');
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (pos >= s.length()) {
          throw malformed();
        }
        char c = s.charAt(pos++);
        if (c == '\'') {
          if (pos < s.length() && s.charAt(pos) == '\'') {
            sb.append('\'');
            pos++;
          } else {
            return sb.toString();
          }
        } else {
          sb.append(c);
        }
      }
    }

    void end() {
      spaces();
      if (pos != s.length()) {
        throw malformed();
      }
    }

    private ViewbaseException malformed() {
      return ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The resource address is malformed; expected "
              + "(PartitionKey='…',RowKey='…') or ('table')",
          "position",
          pos,
          "address",
          s);
    }
  }
}
