package io.viewbase.server.azure;

/**
 * How much OData metadata a JSON answer carries, chosen by {@code $format} or else {@code Accept}.
 *
 * <pre>
 * level    | odata.metadata | odata.etag | odata.type/id/editLink | type annotations
 * ---------+----------------+------------+------------------------+--------------------------------------
 * none     | no             | no         | no                     | none
 * minimal  | yes            | yes        | no                     | Int64, DateTime, Guid, Binary, NaN/±Inf
 * full     | yes            | yes        | yes                    | those, and Timestamp's Edm.DateTime
 * </pre>
 *
 * Plain {@code application/json}, an absent Accept, or anything else means minimal: more lenient
 * than Azure, which refuses Atom with 415, and every client asks for JSON anyway.
 */
enum MetadataLevel {
  NONE("application/json;odata=nometadata;streaming=true;charset=utf-8"),
  MINIMAL("application/json;odata=minimalmetadata;streaming=true;charset=utf-8"),
  FULL("application/json;odata=fullmetadata;streaming=true;charset=utf-8");

  private final String contentType;

  MetadataLevel(String contentType) {
    this.contentType = contentType;
  }

  String contentType() {
    return contentType;
  }

  static MetadataLevel choose(String format, String accept) {
    String text = format != null ? format : accept;
    if (text == null) {
      return MINIMAL;
    }
    if (text.contains("nometadata")) {
      return NONE;
    }
    if (text.contains("fullmetadata")) {
      return FULL;
    }
    return MINIMAL;
  }
}
