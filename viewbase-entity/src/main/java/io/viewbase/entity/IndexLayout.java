package io.viewbase.entity;

import io.viewbase.api.ViewDefinition;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * An index compiled against its entity: the key formats and, for a secondary index, the view that
 * keeps it.
 *
 * <pre>
 * index               | view partitionBy | view idBy                          | a second item with the same keys
 * --------------------+------------------+------------------------------------+---------------------------------
 * primary             | (no view: the item's own partition key and id)        | is the same item
 * secondary           | pk template      | sk template + "#{partitionKey}#{id}" | is another entry
 * secondary, unique   | pk template      | sk template                        | is refused, 409 ViewKeyConflict
 * </pre>
 */
record IndexLayout(Index index, KeyFormat pk, KeyFormat sk, String where) {

  /** The suffix that makes a non-unique index's view id unique: the source item's identity. */
  static final String IDENTITY_SUFFIX =
      KeyFormat.SEPARATOR + "{partitionKey}" + KeyFormat.SEPARATOR + "{id}";

  boolean unique() {
    return index.isUnique();
  }

  /** The view that keeps this secondary index over {@code table}. */
  ViewDefinition view(String table, String entity) {
    String partitionBy = pk.viewTemplate();
    String idBy = sk.viewTemplate() + (unique() ? "" : IDENTITY_SUFFIX);
    return new ViewDefinition(
        viewName(table, entity, partitionBy, idBy),
        table,
        partitionBy,
        idBy,
        where,
        java.util.List.of());
  }

  /**
   * {@code <Table><Entity><Index>x<hash>}: the hash covers everything the view is built from, so a
   * changed definition or version is a new view that can be backfilled beside the old one. View
   * names are letters and digits, at most 63.
   */
  private String viewName(String table, String entity, String partitionBy, String idBy) {
    String readable = alnum(table) + capitalized(alnum(entity)) + capitalized(alnum(index.name()));
    if (readable.length() > 54) {
      readable = readable.substring(0, 54);
    }
    return readable + "x" + hash(table + "\n" + partitionBy + "\n" + idBy + "\n" + where);
  }

  private static String alnum(String s) {
    return s.replaceAll("[^A-Za-z0-9]", "");
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
  }

  private static String hash(String text) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 4);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
