package io.viewbase.server.azure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One CORS rule of the service properties: which origins may call with which methods and request
 * headers, which response headers their scripts may read, and how long a browser may cache the
 * preflight's answer. Lists are the comma-separated values of Azure's XML, trimmed.
 *
 * <pre>
 * value            | matches                                                        | compared
 * -----------------+----------------------------------------------------------------+------------------
 * allowedOrigins   | "*" any origin; else an origin in the list                     | exactly (Azure: case-sensitive)
 * allowedMethods   | a method in the list                                           | exactly
 * allowedHeaders   | "*" any header; "x-ms-meta*" a prefix; else a name in the list | ignoring case
 * exposedHeaders   | the same forms, over the response's header names               | ignoring case
 * </pre>
 */
record CorsRule(
    List<String> allowedOrigins,
    List<String> allowedMethods,
    List<String> allowedHeaders,
    List<String> exposedHeaders,
    int maxAgeInSeconds) {

  CorsRule {
    allowedOrigins = List.copyOf(allowedOrigins);
    allowedMethods = List.copyOf(allowedMethods);
    allowedHeaders = List.copyOf(allowedHeaders);
    exposedHeaders = List.copyOf(exposedHeaders);
  }

  /** The trimmed, non-empty entries of a comma-separated value. */
  static List<String> split(String commaSeparated) {
    List<String> out = new ArrayList<>();
    for (String part : commaSeparated.split(",")) {
      String t = part.trim();
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  boolean allowsAllOrigins() {
    return allowedOrigins.contains("*");
  }

  boolean allowsOrigin(String origin) {
    return allowsAllOrigins() || (origin != null && allowedOrigins.contains(origin.trim()));
  }

  boolean allowsMethod(String method) {
    return method != null && allowedMethods.contains(method.trim());
  }

  /** Whether every header of a preflight's {@code Access-Control-Request-Headers} is allowed. */
  boolean allowsHeaders(String requestHeaders) {
    for (String header : split(requestHeaders)) {
      if (!matches(allowedHeaders, header)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The value of {@code Access-Control-Expose-Headers} for an answer with these header names: the
   * names a prefix (or {@code *}) matches, then each literal the rule names, once each.
   */
  String exposed(List<String> responseHeaders) {
    List<String> out = new ArrayList<>();
    for (String name : responseHeaders) {
      if (matchesPrefix(exposedHeaders, name) && !containsIgnoringCase(out, name)) {
        out.add(name);
      }
    }
    for (String literal : exposedHeaders) {
      if (!literal.endsWith("*") && !containsIgnoringCase(out, literal)) {
        out.add(literal);
      }
    }
    return String.join(",", out);
  }

  private static boolean matches(List<String> rules, String name) {
    return matchesPrefix(rules, name) || containsIgnoringCase(rules, name);
  }

  private static boolean matchesPrefix(List<String> rules, String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String rule : rules) {
      if (rule.endsWith("*")
          && lower.startsWith(rule.substring(0, rule.length() - 1).toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  private static boolean containsIgnoringCase(List<String> names, String name) {
    for (String n : names) {
      if (n.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }
}
