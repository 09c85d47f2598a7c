package io.viewbase.server.dynamodb;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which Viewbase names a DynamoDB table and its indexes get. DynamoDB table and index names are
 * {@code [a-zA-Z0-9_.-]{3,255}}, case-sensitive; Viewbase's tables and views share one namespace of
 * {@code [A-Za-z][A-Za-z0-9]{2,62}}, compared case-insensitively. So each DynamoDB name has two
 * candidates, tried in order when the table (or index) is created; the first that no table or view
 * holds is taken, and recorded in the table's description, which is what every later lookup reads:
 *
 * <pre>
 * candidate | table                                   | index (view)
 * ----------+-----------------------------------------+---------------------------------------------
 * readable  | the name itself, when it is a Viewbase  | the table's Viewbase name and the index's
 *           |   name: Orders -&gt; Orders               |   stem, its first letter upper-cased, when
 *           |                                         |   they fit: Orders + byCustomer -&gt;
 *           |                                         |   OrdersByCustomer, gsi1-index -&gt; OrdersGsi1index
 * hashed    | the name's stem (its letters and        | the table's stem (at most 27 characters), the
 *           |   digits, at most 55 of them, after a   |   index's (at most 28), then 8 characters of
 *           |   't' if it would start with a digit)    |   the hash of the table's DynamoDB name, '/'
 *           |   and 8 characters of its hash:         |   and the index name
 *           |   my-table.v2 -&gt; mytablev2 + 8 chars    |
 * </pre>
 *
 * The hash is SHA-256 of the UTF-8 name, its first 40 bits in base32 (lower-case letters and {@code
 * 2..7}), so the hashed candidate of one name is always the same. Two DynamoDB tables whose names
 * differ in case only ({@code Users}, {@code users}) are two tables: the first created takes the
 * readable candidate, the second its hashed one. When both candidates are taken (by a native table
 * or view, or another DynamoDB table), the create is refused with ResourceInUseException naming
 * them.
 */
final class TableNames {
  /** A name the Viewbase catalog accepts. */
  static final Pattern VIEWBASE = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

  /** A table or index name DynamoDB accepts. */
  static final Pattern DYNAMODB = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");

  private static final int MAX = 63;
  private static final int HASH_LENGTH = 8;
  private static final int TABLE_STEM = MAX - HASH_LENGTH;
  private static final int VIEW_TABLE_STEM = 27;
  private static final int VIEW_INDEX_STEM = 28;
  private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

  private TableNames() {}

  /** The Viewbase names a DynamoDB table may get, in the order they are tried. */
  static List<String> tableCandidates(String dynamoDbName) {
    List<String> names = new ArrayList<>(2);
    if (VIEWBASE.matcher(dynamoDbName).matches()) {
      names.add(dynamoDbName);
    }
    names.add(leadingLetter(stem(dynamoDbName), TABLE_STEM) + hash(dynamoDbName));
    return names;
  }

  /**
   * The view names an index of a table may get, in the order they are tried.
   *
   * @param table the table's DynamoDB name
   * @param viewbaseTable the table's Viewbase name
   * @param index the index's name
   */
  static List<String> viewCandidates(String table, String viewbaseTable, String index) {
    List<String> names = new ArrayList<>(2);
    String indexStem = stem(index);
    if (!indexStem.isEmpty()) {
      String readable = viewbaseTable + capitalized(indexStem);
      if (readable.length() <= MAX) {
        names.add(readable);
      }
    }
    String tablePart = leadingLetter(stem(viewbaseTable), VIEW_TABLE_STEM);
    String indexPart = capitalized(cut(indexStem, VIEW_INDEX_STEM));
    names.add(tablePart + indexPart + hash(table + "/" + index));
    return names;
  }

  /** The name's letters and digits (ASCII), in order. */
  private static String stem(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** A stem cut to {@code max} characters, after a 't' if it is empty or starts with a digit. */
  private static String leadingLetter(String stem, int max) {
    String s = stem.isEmpty() || Character.isDigit(stem.charAt(0)) ? "t" + stem : stem;
    return cut(s, max);
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max);
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }

  /** The first 40 bits of the name's SHA-256, in 8 base32 characters. */
  static String hash(String name) {
    byte[] digest;
    try {
      digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java platform has SHA-256", e);
    }
    long bits = 0;
    for (int i = 0; i < 5; i++) {
      bits = bits << 8 | (digest[i] & 0xff);
    }
    char[] out = new char[HASH_LENGTH];
    for (int i = HASH_LENGTH - 1; i >= 0; i--) {
      out[i] = BASE32[(int) (bits & 31)];
      bits >>>= 5;
    }
    return new String(out);
  }
}
