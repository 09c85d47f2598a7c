package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;

/**
 * Azure's rules for what a written PartitionKey or RowKey may hold, on top of Viewbase's own: none
 * of {@code / \ # ?} and no control characters (U+0000..U+001F, U+007F..U+009F), as the real
 * service enforces. Reads are not checked: they simply find nothing.
 */
final class AzureKeys {
  private AzureKeys() {}

  static void checkWritable(String what, String key) {
    if (key == null) {
      throw ViewbaseException.of(
          ErrorCode.PropertiesNeedValue, "A key is required and has no value", "property", what);
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == '/' || c == '\\' || c == '#' || c == '?' || c <= 0x1F || (c >= 0x7F && c <= 0x9F)) {
        throw ViewbaseException.of(
            ErrorCode.InvalidKey,
            "The key holds a character Azure does not allow in keys: "
                + "/ \\ # ? and control characters",
            "property",
            what,
            "character",
            String.format("U+%04X", (int) c),
            "position",
            i);
      }
    }
  }

  /**
   * An If-Match value as Azure reads it: {@code *}, or a weak ETag {@code W/"…"} ({@code W} in
   * either case), which then names a version or matches nothing (412); anything else, a strong ETag
   * included, is 400 InvalidInput. Viewbase issues only weak ETags, so a strong one was never ours.
   */
  static String checkIfMatch(String ifMatch) {
    if (ifMatch == null) {
      return null;
    }
    String v = ifMatch.trim();
    if (v.equals("*")
        || (v.regionMatches(true, 0, "W/\"", 0, 3) && v.endsWith("\"") && v.length() > 4)) {
      return v;
    }
    // Azure answers InvalidInput here, not InvalidHeaderValue
    throw ViewbaseException.of(
        ErrorCode.InvalidInput,
        "The If-Match header must be * or a weak ETag such as " + "W/\"datetime'…'\"",
        "header",
        "If-Match",
        "value",
        ifMatch);
  }
}
