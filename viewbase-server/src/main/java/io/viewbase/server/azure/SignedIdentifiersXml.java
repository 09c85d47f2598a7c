package io.viewbase.server.azure;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A table's access policies as Azure's XML, {@code <SignedIdentifiers><SignedIdentifier><Id>…</Id>
 * <AccessPolicy><Start>…</Start><Expiry>…</Expiry><Permission>…</Permission></AccessPolicy>
 * </SignedIdentifier>…</SignedIdentifiers>}. Read with a streaming parser that resolves no DTDs or
 * external entities; at most five identifiers, as on Azure ({@code InvalidXmlDocument} otherwise).
 */
final class SignedIdentifiersXml {
  static final int MAX_IDENTIFIERS = 5;

  private static final XMLInputFactory FACTORY = XmlTree.FACTORY;

  private SignedIdentifiersXml() {}

  static List<AccessPolicy> read(byte[] xml) {
    List<AccessPolicy> policies = new ArrayList<>();
    if (new String(xml, StandardCharsets.UTF_8).isBlank()) {
      return policies;
    }
    try {
      XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(xml));
      String id = null;
      Instant start = null;
      Instant expiry = null;
      String permissions = null;
      StringBuilder text = new StringBuilder();
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          text.setLength(0);
          if (r.getLocalName().equals("SignedIdentifier")) {
            id = null;
            start = null;
            expiry = null;
            permissions = null;
          }
        } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
          text.append(r.getText());
        } else if (event == XMLStreamConstants.END_ELEMENT) {
          String value = text.toString().trim();
          switch (r.getLocalName()) {
            case "Id" -> id = value;
            case "Start" -> start = time(value, "Start");
            case "Expiry" -> expiry = time(value, "Expiry");
            case "Permission" -> permissions = value.isEmpty() ? null : value;
            case "SignedIdentifier" -> {
              if (id == null || id.isEmpty() || id.length() > 64) {
                throw XmlTree.invalid("Each SignedIdentifier needs an Id of 1 to 64 characters");
              }
              policies.add(new AccessPolicy(id, start, expiry, permissions));
              if (policies.size() > MAX_IDENTIFIERS) {
                throw XmlTree.invalid(
                    "The table would have too many stored access policies", "max", MAX_IDENTIFIERS);
              }
            }
            default -> {}
          }
          text.setLength(0);
        }
      }
      return policies;
    } catch (XMLStreamException e) {
      throw XmlTree.invalid("The XML is not well-formed", "reason", e.getMessage());
    }
  }

  private static Instant time(String value, String element) {
    if (value.isEmpty()) {
      return null;
    }
    Instant t = AzureTimes.parseInstant(value);
    if (t == null) {
      throw XmlTree.invalid(
          "A time is not an ISO-8601 UTC time", "element", element, "value", value);
    }
    return t;
  }

  static byte[] write(List<AccessPolicy> policies) {
    StringBuilder sb =
        new StringBuilder("<?xml version=\"1.0\" encoding=\"utf-8\"?><SignedIdentifiers>");
    for (AccessPolicy p : policies) {
      sb.append("<SignedIdentifier><Id>")
          .append(XmlText.escape(p.id()))
          .append("</Id><AccessPolicy>");
      if (p.start() != null) {
        sb.append("<Start>").append(AzureTimes.format(p.start())).append("</Start>");
      }
      if (p.expiry() != null) {
        sb.append("<Expiry>").append(AzureTimes.format(p.expiry())).append("</Expiry>");
      }
      if (p.permissions() != null) {
        sb.append("<Permission>").append(XmlText.escape(p.permissions())).append("</Permission>");
      }
      sb.append("</AccessPolicy></SignedIdentifier>");
    }
    return sb.append("</SignedIdentifiers>").toString().getBytes(StandardCharsets.UTF_8);
  }
}
