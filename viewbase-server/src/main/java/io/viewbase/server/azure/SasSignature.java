package io.viewbase.server.azure;

import java.util.Locale;

/**
 * The strings a shared access signature signs, from the token's own (decoded) parameters.
 *
 * <pre>
 * kind               | string to sign
 * -------------------+-----------------------------------------------------------------------
 * table (service)    | sp \n st \n se \n /table/account/tablename \n si \n sip \n spr \n sv \n spk \n srk \n epk \n erk
 * account, sv older  | account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n
 *  than 2020-12-06   |
 * account, newer     | account \n sp \n ss \n srt \n st \n se \n sip \n spr \n sv \n ses \n
 * </pre>
 *
 * The canonical table name ({@code /table/account/name}) is lower-cased whole, as the clients do.
 */
final class SasSignature {
  private SasSignature() {}

  /**
   * A table SAS's string to sign; {@code table} is its {@code tn}, or the URL's table when it has
   * none.
   */
  static String service(String account, String table, QueryString q) {
    return String.join(
        "\n",
        v(q, "sp"),
        v(q, "st"),
        v(q, "se"),
        ("/table/" + account + "/" + table).toLowerCase(Locale.ROOT),
        v(q, "si"),
        v(q, "sip"),
        v(q, "spr"),
        v(q, "sv"),
        v(q, "spk"),
        v(q, "srk"),
        v(q, "epk"),
        v(q, "erk"));
  }

  static String account(String account, QueryString q) {
    String head =
        String.join(
            "\n",
            account,
            v(q, "sp"),
            v(q, "ss"),
            v(q, "srt"),
            v(q, "st"),
            v(q, "se"),
            v(q, "sip"),
            v(q, "spr"),
            v(q, "sv"));
    return v(q, "sv").compareTo("2020-12-06") >= 0 ? head + "\n" + v(q, "ses") + "\n" : head + "\n";
  }

  private static String v(QueryString q, String name) {
    String value = q.get(name);
    return value == null ? "" : value;
  }
}
