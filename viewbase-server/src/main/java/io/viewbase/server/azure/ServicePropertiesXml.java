package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.azure.StorageServiceProperties.Logging;
import io.viewbase.server.azure.StorageServiceProperties.Metrics;
import io.viewbase.server.azure.StorageServiceProperties.RetentionPolicy;
import io.viewbase.server.azure.XmlTree.Element;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code StorageServiceProperties} XML of Get/Set Table Service Properties, read and checked as
 * Azure checks it, and written as Azure writes it.
 *
 * <pre>
 * element                      | must hold                                        | else
 * -----------------------------+--------------------------------------------------+----------------------
 * root                         | StorageServiceProperties; each part optional     | InvalidXmlDocument
 * Logging                      | Version 1.0, Delete, Read, Write, RetentionPolicy| InvalidXmlDocument (missing),
 * HourMetrics, MinuteMetrics   | Version 1.0, Enabled, IncludeAPIs if enabled,    |   InvalidXmlNodeValue (bad value)
 *                              |   RetentionPolicy                                |
 * RetentionPolicy              | Enabled; Days 1..365 if enabled                  |
 * Cors                         | at most 5 CorsRule (none: CORS off)              | InvalidXmlDocument
 * CorsRule                     | AllowedOrigins, AllowedMethods, MaxAgeInSeconds; | InvalidXmlDocument (missing)
 *                              |   AllowedHeaders, ExposedHeaders (missing: empty)|
 * AllowedMethods               | DELETE GET HEAD MERGE POST OPTIONS PUT PATCH     | InvalidXmlNodeValue
 * origins, headers             | 256 characters each; per list 64 literal headers | InvalidXmlNodeValue
 *                              |   and 2 prefixed (x-ms-meta*); 2 KiB of values   |
 *                              |   over all rules                                 |
 * </pre>
 *
 * Booleans are {@code true} or {@code false} (any case). Elements Azure's table service does not
 * know (a blob service's {@code DefaultServiceVersion}, say) are ignored.
 */
final class ServicePropertiesXml {
  /** A Set request's largest body; the document Azure accepts is far smaller. */
  static final int MAX_BYTES = 64 * 1024;

  static final int MAX_RULES = 5;
  static final int MAX_VALUE_LENGTH = 256;
  static final int MAX_LITERAL_HEADERS = 64;
  static final int MAX_PREFIXED_HEADERS = 2;
  static final int MAX_CORS_CHARACTERS = 2048;
  static final Set<String> METHODS =
      Set.of("DELETE", "GET", "HEAD", "MERGE", "POST", "OPTIONS", "PUT", "PATCH");

  private ServicePropertiesXml() {}

  /** The parts a document gives (null for each it leaves out), checked. */
  static StorageServiceProperties read(byte[] xml) {
    Element root = XmlTree.parse(xml, MAX_BYTES);
    if (!root.name().equals("StorageServiceProperties")) {
      throw XmlTree.invalid(
          "The root element must be StorageServiceProperties", "root", root.name());
    }
    Element logging = root.child("Logging");
    Element hour = root.child("HourMetrics");
    Element minute = root.child("MinuteMetrics");
    Element cors = root.child("Cors");
    return new StorageServiceProperties(
        logging == null ? null : logging(logging),
        hour == null ? null : metrics(hour),
        minute == null ? null : metrics(minute),
        cors == null ? null : cors(cors));
  }

  private static Logging logging(Element e) {
    return new Logging(
        version(e), bool(e, "Delete"), bool(e, "Read"), bool(e, "Write"), retention(e));
  }

  private static Metrics metrics(Element e) {
    boolean enabled = bool(e, "Enabled");
    Boolean includeApis = enabled ? bool(e, "IncludeAPIs") : null;
    return new Metrics(version(e), enabled, includeApis, retention(e));
  }

  private static String version(Element parent) {
    String version = required(parent, "Version").text();
    if (!version.equals("1.0")) {
      throw invalidValue(
          "Version must be 1.0", "element", parent.name() + "/Version", "value", version);
    }
    return version;
  }

  private static RetentionPolicy retention(Element parent) {
    Element policy = required(parent, "RetentionPolicy");
    if (!bool(policy, "Enabled")) {
      return RetentionPolicy.OFF;
    }
    String days = required(policy, "Days").text();
    try {
      int d = Integer.parseInt(days);
      if (d >= 1 && d <= 365) {
        return new RetentionPolicy(true, d);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalidValue(
        "RetentionPolicy/Days must be a whole number from 1 to 365",
        "element",
        parent.name() + "/RetentionPolicy/Days",
        "value",
        days);
  }

  private static List<CorsRule> cors(Element cors) {
    List<Element> rules = cors.children("CorsRule");
    if (rules.size() > MAX_RULES) {
      throw XmlTree.invalid(
          "The document has too many CorsRule elements", "rules", rules.size(), "max", MAX_RULES);
    }
    List<CorsRule> out = new ArrayList<>();
    int characters = 0;
    for (Element rule : rules) {
      Element origins = required(rule, "AllowedOrigins");
      Element methods = required(rule, "AllowedMethods");
      Element maxAge = required(rule, "MaxAgeInSeconds");
      Element allowed = optional(rule, "AllowedHeaders");
      Element exposed = optional(rule, "ExposedHeaders");
      characters +=
          origins.text().length()
              + methods.text().length()
              + allowed.text().length()
              + exposed.text().length()
              + maxAge.text().length();
      out.add(
          new CorsRule(
              origins(origins),
              methods(methods),
              headers(allowed),
              headers(exposed),
              maxAge(maxAge)));
    }
    if (characters > MAX_CORS_CHARACTERS) {
      throw invalidValue(
          "The CORS rules hold too many characters of values",
          "characters",
          characters,
          "max",
          MAX_CORS_CHARACTERS);
    }
    return out;
  }

  private static List<String> origins(Element e) {
    List<String> origins = CorsRule.split(e.text());
    if (origins.isEmpty()) {
      throw invalidValue("AllowedOrigins must name at least one origin, or *");
    }
    for (String origin : origins) {
      checkLength("AllowedOrigins", origin);
    }
    return origins;
  }

  private static List<String> methods(Element e) {
    List<String> methods = CorsRule.split(e.text());
    if (methods.isEmpty()) {
      throw invalidValue("AllowedMethods must name at least one method");
    }
    for (String method : methods) {
      if (!METHODS.contains(method)) {
        throw invalidValue(
            "AllowedMethods may name only DELETE, GET, HEAD, MERGE, POST, OPTIONS, PUT, PATCH",
            "method",
            method);
      }
    }
    return methods;
  }

  private static List<String> headers(Element e) {
    List<String> headers = CorsRule.split(e.text());
    int prefixed = 0;
    for (String header : headers) {
      checkLength(e.name(), header);
      if (header.endsWith("*") && !header.equals("*")) {
        prefixed++;
      }
    }
    if (prefixed > MAX_PREFIXED_HEADERS || headers.size() - prefixed > MAX_LITERAL_HEADERS) {
      throw invalidValue(
          "A header list names too many headers or prefixes (such as x-ms-meta*)",
          "element",
          e.name(),
          "maxHeaders",
          MAX_LITERAL_HEADERS,
          "maxPrefixes",
          MAX_PREFIXED_HEADERS);
    }
    return headers;
  }

  private static int maxAge(Element e) {
    try {
      int seconds = Integer.parseInt(e.text());
      if (seconds >= 0) {
        return seconds;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw invalidValue("MaxAgeInSeconds must be a whole number of seconds", "value", e.text());
  }

  private static void checkLength(String element, String value) {
    if (value.length() > MAX_VALUE_LENGTH) {
      throw invalidValue("A value is too long", "element", element, "max", MAX_VALUE_LENGTH);
    }
  }

  private static boolean bool(Element parent, String name) {
    String text = required(parent, name).text().toLowerCase(Locale.ROOT);
    return switch (text) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw invalidValue(
              "The value must be true or false",
              "element",
              parent.name() + "/" + name,
              "value",
              text);
    };
  }

  private static Element required(Element parent, String name) {
    Element e = parent.child(name);
    if (e == null) {
      throw XmlTree.invalid("An element is missing", "element", parent.name() + "/" + name);
    }
    return e;
  }

  /**
   * An element that may be left out, read as empty. Azure's reference calls a rule's AllowedHeaders
   * and ExposedHeaders required, but the Java SDK leaves out those it was not given; Azurite reads
   * them as empty, and so does Viewbase.
   */
  private static Element optional(Element parent, String name) {
    Element e = parent.child(name);
    return e != null ? e : new Element(name, "", List.of());
  }

  /**
   * An {@link ErrorCode#InvalidXmlNodeValue} error, with context as alternating names and values.
   */
  private static ViewbaseException invalidValue(String why, Object... context) {
    return ViewbaseException.of(ErrorCode.InvalidXmlNodeValue, why, context);
  }

  /** The whole document, every part given, as Get Table Service Properties answers it. */
  static byte[] write(StorageServiceProperties p) {
    StringBuilder sb =
        new StringBuilder(512)
            .append("<?xml version=\"1.0\" encoding=\"utf-8\"?>")
            .append("<StorageServiceProperties>");
    Logging l = p.logging();
    sb.append("<Logging>")
        .append(element("Version", l.version()))
        .append(element("Delete", l.delete()))
        .append(element("Read", l.read()))
        .append(element("Write", l.write()));
    retention(sb, l.retentionPolicy()).append("</Logging>");
    metrics(sb, "HourMetrics", p.hourMetrics());
    metrics(sb, "MinuteMetrics", p.minuteMetrics());
    if (p.cors().isEmpty()) {
      sb.append("<Cors />");
    } else {
      sb.append("<Cors>");
      for (CorsRule r : p.cors()) {
        sb.append("<CorsRule>")
            .append(element("AllowedOrigins", String.join(",", r.allowedOrigins())))
            .append(element("AllowedMethods", String.join(",", r.allowedMethods())))
            .append(element("MaxAgeInSeconds", r.maxAgeInSeconds()))
            .append(element("ExposedHeaders", String.join(",", r.exposedHeaders())))
            .append(element("AllowedHeaders", String.join(",", r.allowedHeaders())))
            .append("</CorsRule>");
      }
      sb.append("</Cors>");
    }
    return sb.append("</StorageServiceProperties>").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void metrics(StringBuilder sb, String name, Metrics m) {
    sb.append('<')
        .append(name)
        .append('>')
        .append(element("Version", m.version()))
        .append(element("Enabled", m.enabled()));
    if (m.includeApis() != null) {
      sb.append(element("IncludeAPIs", m.includeApis()));
    }
    retention(sb, m.retentionPolicy()).append("</").append(name).append('>');
  }

  private static StringBuilder retention(StringBuilder sb, RetentionPolicy r) {
    sb.append("<RetentionPolicy>").append(element("Enabled", r.enabled()));
    if (r.days() != null) {
      sb.append(element("Days", r.days()));
    }
    return sb.append("</RetentionPolicy>");
  }

  private static String element(String name, Object value) {
    return "<" + name + ">" + XmlText.escape(String.valueOf(value)) + "</" + name + ">";
  }
}
