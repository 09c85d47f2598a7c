package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A small XML document from a client, read into a tree of elements: safely (no DTD, no external
 * entity is ever resolved) and bounded (bytes, depth and element count), so a hostile body costs at
 * most what its size allows. Enough for Azure's settings documents, which are a few levels of
 * elements holding text; attributes, comments and namespaces are ignored.
 */
final class XmlTree {
  static final int MAX_DEPTH = 16;
  static final int MAX_ELEMENTS = 4096;

  /** The factory every XML reader of the dialect uses: DTDs and external entities are off. */
  static final XMLInputFactory FACTORY = newFactory();

  private XmlTree() {}

  /**
   * An element: its local name, its text (trimmed; empty when it has children), its child elements.
   */
  record Element(String name, String text, List<Element> children) {
    /** The first child of this name, or null. */
    Element child(String childName) {
      for (Element c : children) {
        if (c.name.equals(childName)) {
          return c;
        }
      }
      return null;
    }

    List<Element> children(String childName) {
      return children.stream().filter(c -> c.name.equals(childName)).toList();
    }
  }

  private static XMLInputFactory newFactory() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return f;
  }

  /**
   * The document's root element.
   *
   * @throws ViewbaseException {@link ErrorCode#RequestTooLarge} over {@code maxBytes}; {@link
   *     ErrorCode#InvalidXmlDocument} for XML that is not well-formed, has no root, or goes deeper
   *     or wider than the bounds
   */
  static Element parse(byte[] xml, int maxBytes) {
    if (xml.length > maxBytes) {
      throw ViewbaseException.of(
          ErrorCode.RequestTooLarge,
          "The document is larger than the operation accepts",
          "maxBytes",
          maxBytes);
    }
    try {
      XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(xml));
      try {
        return read(r);
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      throw invalid("The XML is not well-formed", "reason", e.getMessage());
    }
  }

  private static Element read(XMLStreamReader r) throws XMLStreamException {
    Deque<List<Element>> children = new ArrayDeque<>();
    Deque<StringBuilder> texts = new ArrayDeque<>();
    Deque<String> names = new ArrayDeque<>();
    Element root = null;
    int elements = 0;
    while (r.hasNext()) {
      switch (r.next()) {
        case XMLStreamConstants.START_ELEMENT -> {
          if (root != null) {
            throw invalid("The document has more than one root element");
          }
          if (++elements > MAX_ELEMENTS || names.size() >= MAX_DEPTH) {
            throw invalid(
                "The document has too many elements or levels",
                "maxElements",
                MAX_ELEMENTS,
                "maxDepth",
                MAX_DEPTH);
          }
          names.push(r.getLocalName());
          children.push(new ArrayList<>());
          texts.push(new StringBuilder());
        }
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
          if (!texts.isEmpty()) {
            texts.peek().append(r.getText());
          }
        }
        case XMLStreamConstants.ENTITY_REFERENCE ->
            throw invalid(
                "The document refers to an entity it does not " + "define",
                "entity",
                r.getLocalName());
        case XMLStreamConstants.END_ELEMENT -> {
          List<Element> mine = children.pop();
          String text = mine.isEmpty() ? texts.pop().toString().trim() : discard(texts);
          Element e = new Element(names.pop(), text, List.copyOf(mine));
          if (children.isEmpty()) {
            root = e;
          } else {
            children.peek().add(e);
          }
        }
        default -> {}
      }
    }
    if (root == null) {
      throw invalid("The document has no root element");
    }
    return root;
  }

  private static String discard(Deque<StringBuilder> texts) {
    texts.pop();
    return "";
  }

  /**
   * An {@link ErrorCode#InvalidXmlDocument} error, with context as alternating names and values.
   */
  static ViewbaseException invalid(String why, Object... context) {
    return ViewbaseException.of(ErrorCode.InvalidXmlDocument, why, context);
  }
}
