package io.viewbase.server.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.filter.FilterDialect;
import io.viewbase.json.JsonBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Writes entities as Azure's JSON at a {@link MetadataLevel}: keys as {@code PartitionKey} and
 * {@code RowKey}, {@code _timestamp} as {@code Timestamp} and {@code _etag} as {@code odata.etag}.
 *
 * <pre>
 * type      | JSON                                         | annotated (minimal and full)
 * ----------+----------------------------------------------+-----------------------------
 * Str       | string                                       | no
 * Bool      | true / false                                 | no
 * Int32     | number                                       | no
 * Int64     | decimal string                               | Edm.Int64
 * Double    | number with '.' or exponent ("1.0", "1.0E20")| no
 *           | "NaN", "Infinity", "-Infinity"               | Edm.Double
 * DateTime  | "2026-11-30T12:00:00.1234567Z"               | Edm.DateTime
 * Guid      | canonical lower case                         | Edm.Guid
 * Binary    | base64                                       | Edm.Binary
 * Decimal   | a double, as Double, when one is exactly the | no
 *           |   decimal (12.5, 3, 0.25); else its plain    |
 *           |   text as a string ("0.1", "1E+400" as       | no
 *           |   "1000...0")                                |
 * Null, objects and arrays (native API only) are not written: Azure has no such values.
 * </pre>
 *
 * Azure Tables has no decimal type. A decimal that a double holds exactly reads as that double, and
 * a filter with that double matches it (filters compare numbers exactly); any other decimal reads
 * as its text, which a double would change ({@code 0.1}, 38 digits), and a filter matches it
 * numerically still ({@code Price eq 0.1} does not match the decimal 0.1: the double 0.1 is a
 * little more), never with a string literal.
 *
 * <p>Property names are written in Azure's form ({@link PropertyNames#azure}: a stored {@code $id}
 * is {@code id}). With {@code $select}, the selected properties are written in the order asked, and
 * one the entity lacks is written as {@code null}, as Azure does; without it, every property in
 * stored order.
 */
final class EntityWriter {
  private static final JsonFactory FACTORY = new JsonFactory();
  // The members every entity has, encoded once: a page writes each of them a hundred times.
  private static final byte[] ETAG = JsonBytes.encodedName("odata.etag");
  private static final byte[] PARTITION_KEY = JsonBytes.encodedName("PartitionKey");
  private static final byte[] ROW_KEY = JsonBytes.encodedName("RowKey");
  private static final byte[] TIMESTAMP = JsonBytes.encodedName("Timestamp");

  /**
   * Where and how entities are written. {@code select} null means every property. Two shapes are
   * equal when they write every entity alike: the selections must also be in the same order, since
   * the selected properties are written in the order asked. Written out, cheapest comparison first:
   * a cached rendering's shape is compared on every hit (a record's generated equals measured about
   * 1 us there).
   */
  record Shape(
      String table, String account, String baseUrl, MetadataLevel level, Set<String> select) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Shape s
          && level == s.level
          && sameInOrder(select, s.select)
          && table.equals(s.table)
          && baseUrl.equals(s.baseUrl)
          && account.equals(s.account);
    }

    @Override
    public int hashCode() {
      return Objects.hash(
          table, account, baseUrl, level, select == null ? null : List.copyOf(select));
    }

    private static boolean sameInOrder(Set<String> a, Set<String> b) {
      if (a == null || b == null) {
        return a == b;
      }
      return a.size() == b.size() && List.copyOf(a).equals(List.copyOf(b));
    }
  }

  private EntityWriter() {}

  /** One entity: the answer of Get Entity and of Insert Entity with content. */
  static byte[] single(Item item, Shape shape) {
    JsonBytes out = JsonBytes.scratch().startObject();
    boolean first = true;
    if (shape.level != MetadataLevel.NONE) {
      out.name("odata.metadata").string(shape.baseUrl + "/$metadata#" + shape.table + "/@Element");
      first = false;
    }
    writeMembers(out, first, item, shape);
    return out.endObject().toByteArray();
  }

  /**
   * A page of entities: the answer of Query Entities. Azure's clients refuse any other top-level
   * member.
   */
  static byte[] page(List<Item> items, Shape shape) {
    JsonBytes out = JsonBytes.scratch().startObject();
    if (shape.level != MetadataLevel.NONE) {
      out.name("odata.metadata").string(shape.baseUrl + "/$metadata#" + shape.table).comma();
    }
    out.name("value").startArray();
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        out.comma();
      }
      writeMembers(out.startObject(), true, items.get(i), shape);
      out.endObject();
    }
    return out.endArray().endObject().toByteArray();
  }

  /**
   * Writes an entity's members into the object {@code out} has open; {@code first} says whether the
   * object has no member yet (the commas are ours to write).
   */
  private static void writeMembers(JsonBytes out, boolean first, Item item, Shape shape) {
    Members m = new Members(out, first);
    MetadataLevel level = shape.level;
    Set<String> select = shape.select;
    if (level == MetadataLevel.FULL) {
      String address =
          shape.table
              + "(PartitionKey='"
              + item.partitionKey().replace("'", "''")
              + "',RowKey='"
              + item.id().replace("'", "''")
              + "')";
      m.name("odata.type").string(shape.account + "." + shape.table);
      m.name("odata.id").string(shape.baseUrl + "/" + address);
      if (item.etag() != null) {
        m.name(ETAG).string(item.etag());
      }
      m.name("odata.editLink").string(address);
    } else if (level == MetadataLevel.MINIMAL && item.etag() != null) {
      m.name(ETAG).string(item.etag());
    }
    if (select == null || select.contains("PartitionKey")) {
      m.name(PARTITION_KEY).string(item.partitionKey());
    }
    if (select == null || select.contains("RowKey")) {
      m.name(ROW_KEY).string(item.id());
    }
    if (item.timestamp() != null && (select == null || select.contains("Timestamp"))) {
      if (level == MetadataLevel.FULL) {
        m.annotated("Timestamp").string("Edm.DateTime");
      }
      // A stored item's timestamp is its version, in 100 ns ticks: isoTime writes Azure's seven
      // digits.
      m.name(TIMESTAMP).isoTime(item.timestamp());
    }
    boolean annotate = level != MetadataLevel.NONE;
    if (select == null) {
      for (Map.Entry<String, Value> e : item.properties().entrySet()) {
        writeProperty(m, PropertyNames.azure(e.getKey()), e.getValue(), annotate);
      }
      return;
    }
    // With $select, Azure answers every selected property, as null where the entity lacks it.
    for (String name : select) {
      Value value =
          name.startsWith(FilterDialect.ESCAPE)
              ? null
              : item.properties().get(PropertyNames.stored(name));
      if (value != null) {
        writeProperty(m, name, value, annotate);
      } else if (!name.equals("PartitionKey")
          && !name.equals("RowKey")
          && !name.equals("Timestamp")) {
        m.name(name).nullValue();
      }
    }
  }

  private static void writeProperty(Members m, String name, Value value, boolean annotate) {
    switch (value.type()) {
      case STRING -> m.name(name).string(((Value.Str) value).value());
      case BOOLEAN -> m.name(name).bool(((Value.Bool) value).value());
      case INT32 -> m.name(name).number(((Value.Int32) value).value());
      case INT64 ->
          m.annotation(name, "Edm.Int64", annotate)
              .name(name)
              .string(Long.toString(((Value.Int64) value).value()));
      case DOUBLE -> {
        double d = ((Value.Double) value).value();
        if (Double.isFinite(d)) {
          // Double.toString always holds '.' or an exponent, so clients read a double, never an
          // int.
          m.name(name).raw(Double.toString(d));
        } else {
          m.annotation(name, "Edm.Double", annotate)
              .name(name)
              .string(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        }
      }
      case DECIMAL -> {
        Value.Decimal decimal = (Value.Decimal) value;
        if (isExactDouble(decimal)) {
          // the decimal exactly, and a double to clients
          m.name(name).raw(Double.toString(decimal.value().doubleValue()));
        } else {
          m.name(name).string(decimal.text());
        }
      }
      case DATETIME ->
          m.annotation(name, "Edm.DateTime", annotate).name(name).isoTime((Value.DateTime) value);
      case GUID ->
          m.annotation(name, "Edm.Guid", annotate)
              .name(name)
              .string(((Value.Guid) value).value().toString());
      case BINARY ->
          m.annotation(name, "Edm.Binary", annotate)
              .name(name)
              .string(Base64.getEncoder().encodeToString(((Value.Binary) value).value()));
      default -> {
        // Null, objects and arrays exist only in the native API; Azure has no way to say them.
      }
    }
  }

  /** Whether a decimal is written as a double: whether one holds it exactly. */
  static boolean isExactDouble(Value.Decimal decimal) {
    double d = decimal.value().doubleValue();
    return Double.isFinite(d) && new BigDecimal(d).compareTo(decimal.value()) == 0;
  }

  /** The members of one JSON object being written: the commas between them. */
  private static final class Members {
    private final JsonBytes out;
    private boolean first;

    Members(JsonBytes out, boolean first) {
      this.out = out;
      this.first = first;
    }

    /** {@code "name":} after a comma if a member came before. */
    JsonBytes name(String name) {
      return separate().name(name);
    }

    /** A name encoded by {@link JsonBytes#encodedName}, after a comma if a member came before. */
    JsonBytes name(byte[] encodedName) {
      return separate().encoded(encodedName);
    }

    /** {@code "name@odata.type":}. */
    JsonBytes annotated(String name) {
      return separate().name(name, EntityReader.ANNOTATION);
    }

    /** The type annotation of {@code name}, when annotating. */
    Members annotation(String name, String edm, boolean annotate) {
      if (annotate) {
        annotated(name).string(edm);
      }
      return this;
    }

    private JsonBytes separate() {
      if (!first) {
        out.comma();
      }
      first = false;
      return out;
    }
  }

  /** Writes what a generator should write. */
  @FunctionalInterface
  interface Work {
    void writeTo(JsonGenerator g) throws IOException;
  }

  static byte[] write(Work work) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      work.writeTo(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
