package io.viewbase.server.azure;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.viewbase.api.Item;
import io.viewbase.api.Value;
import io.viewbase.filter.FilterDialect;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
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
 * Null, objects and arrays (native API only) are not written: Azure has no such values.
 * </pre>
 *
 * Property names are written in Azure's form ({@link PropertyNames#azure}: a stored {@code $id} is
 * {@code id}). With {@code $select}, the selected properties are written in the order asked, and one the
 * entity lacks is written as {@code null}, as Azure does; without it, every property in stored order.
 */
final class EntityWriter {
  private static final JsonFactory FACTORY = new JsonFactory();

  /** Where and how entities are written. {@code select} null means every property. */
  record Shape(String table, String account, String baseUrl, MetadataLevel level, Set<String> select) {
  }

  private EntityWriter() {
  }

  /** One entity: the answer of Get Entity and of Insert Entity with content. */
  static byte[] single(Item item, Shape shape) {
    return write(g -> {
      g.writeStartObject();
      if (shape.level != MetadataLevel.NONE) {
        g.writeStringField("odata.metadata", shape.baseUrl + "/$metadata#" + shape.table + "/@Element");
      }
      writeMembers(g, item, shape);
      g.writeEndObject();
    });
  }

  /** A page of entities: the answer of Query Entities. Azure's clients refuse any other top-level member. */
  static byte[] page(List<Item> items, Shape shape) {
    return write(g -> {
      g.writeStartObject();
      if (shape.level != MetadataLevel.NONE) {
        g.writeStringField("odata.metadata", shape.baseUrl + "/$metadata#" + shape.table);
      }
      g.writeArrayFieldStart("value");
      for (Item item : items) {
        g.writeStartObject();
        writeMembers(g, item, shape);
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    });
  }

  private static void writeMembers(JsonGenerator g, Item item, Shape shape) throws IOException {
    MetadataLevel level = shape.level;
    Set<String> select = shape.select;
    if (level == MetadataLevel.FULL) {
      String address = shape.table + "(PartitionKey='" + item.partitionKey().replace("'", "''")
          + "',RowKey='" + item.id().replace("'", "''") + "')";
      g.writeStringField("odata.type", shape.account + "." + shape.table);
      g.writeStringField("odata.id", shape.baseUrl + "/" + address);
      if (item.etag() != null) {
        g.writeStringField("odata.etag", item.etag());
      }
      g.writeStringField("odata.editLink", address);
    } else if (level == MetadataLevel.MINIMAL && item.etag() != null) {
      g.writeStringField("odata.etag", item.etag());
    }
    if (select == null || select.contains("PartitionKey")) {
      g.writeStringField("PartitionKey", item.partitionKey());
    }
    if (select == null || select.contains("RowKey")) {
      g.writeStringField("RowKey", item.id());
    }
    if (item.timestamp() != null && (select == null || select.contains("Timestamp"))) {
      if (level == MetadataLevel.FULL) {
        g.writeStringField("Timestamp" + EntityReader.ANNOTATION, "Edm.DateTime");
      }
      g.writeStringField("Timestamp", AzureTimes.format(item.timestamp()));
    }
    if (select == null) {
      for (Map.Entry<String, Value> e : item.properties().entrySet()) {
        writeProperty(g, PropertyNames.azure(e.getKey()), e.getValue(), level != MetadataLevel.NONE);
      }
      return;
    }
    // With $select, Azure answers every selected property, as null where the entity lacks it.
    for (String name : select) {
      Value value = name.startsWith(FilterDialect.ESCAPE) ? null : item.properties().get(PropertyNames.stored(name));
      if (value != null) {
        writeProperty(g, name, value, level != MetadataLevel.NONE);
      } else if (!name.equals("PartitionKey") && !name.equals("RowKey") && !name.equals("Timestamp")) {
        g.writeNullField(name);
      }
    }
  }

  static void writeProperty(JsonGenerator g, String name, Value value, boolean annotate) throws IOException {
    switch (value.type()) {
      case STRING -> g.writeStringField(name, ((Value.Str) value).value());
      case BOOLEAN -> g.writeBooleanField(name, ((Value.Bool) value).value());
      case INT32 -> g.writeNumberField(name, ((Value.Int32) value).value());
      case INT64 -> {
        annotation(g, name, "Edm.Int64", annotate);
        g.writeStringField(name, Long.toString(((Value.Int64) value).value()));
      }
      case DOUBLE -> {
        double d = ((Value.Double) value).value();
        if (Double.isFinite(d)) {
          g.writeFieldName(name);
          // Double.toString always holds '.' or an exponent, so clients read a double, never an int.
          g.writeNumber(Double.toString(d));
        } else {
          annotation(g, name, "Edm.Double", annotate);
          g.writeStringField(name, Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        }
      }
      case DATETIME -> {
        annotation(g, name, "Edm.DateTime", annotate);
        g.writeStringField(name, AzureTimes.formatTicks(((Value.DateTime) value).ticks()));
      }
      case GUID -> {
        annotation(g, name, "Edm.Guid", annotate);
        g.writeStringField(name, ((Value.Guid) value).value().toString());
      }
      case BINARY -> {
        annotation(g, name, "Edm.Binary", annotate);
        g.writeStringField(name, Base64.getEncoder().encodeToString(((Value.Binary) value).value()));
      }
      default -> {
        // Null, objects and arrays exist only in the native API; Azure has no way to say them.
      }
    }
  }

  private static void annotation(JsonGenerator g, String name, String edm, boolean annotate) throws IOException {
    if (annotate) {
      g.writeStringField(name + EntityReader.ANNOTATION, edm);
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
