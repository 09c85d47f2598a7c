package io.viewbase.server.azure;

/** Escapes text for XML element content. */
final class XmlText {
  private XmlText() {}

  static String escape(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String rep =
          switch (c) {
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '&' -> "&amp;";
            case '"' -> "&quot;";
            case '\'' -> "&apos;";
            default -> null;
          };
      if (rep != null && sb == null) {
        sb = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (sb != null) {
        if (rep != null) {
          sb.append(rep);
        } else {
          sb.append(c);
        }
      }
    }
    return sb == null ? s : sb.toString();
  }
}
