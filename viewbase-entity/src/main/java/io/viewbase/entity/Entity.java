package io.viewbase.entity;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.PropertyName;
import io.viewbase.api.Stability;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * An entity type: a kind of item of a service (an organization, a user), with its attributes and
 * its access patterns (indexes). A definition only: {@link Service#bind} puts it on a table of a
 * database, and {@link ServiceTable#entity} gives its operations.
 *
 * <p>Every stored item carries three fields that identify its entity, so that the views of one
 * entity's indexes take only its items: {@code vb_service}, {@code vb_entity} and {@code
 * vb_version}.
 *
 * @param <T> the Java type of an item: a record or class mapped by Jackson, or {@code Map<String,
 *     Object>}
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class Entity<T> {
  /** The stored field naming the item's service. */
  public static final String SERVICE_FIELD = "vb_service";

  /** The stored field naming the item's entity. */
  public static final String ENTITY_FIELD = "vb_entity";

  /** The stored field naming the entity version the item was written with. */
  public static final String VERSION_FIELD = "vb_version";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final Pattern FIELD = Pattern.compile("[\\p{L}][\\p{L}\\p{N}_]*");

  private final String service;
  private final String name;
  private final String version;
  private final Class<T> type;
  private final Map<String, Attribute> attributes;
  private final Map<String, IndexLayout> indexes;
  private final IndexLayout primary;
  private final ItemMapper<T> mapper;

  private Entity(Builder<T> b) {
    this.service = checkName("service", b.service, b.name);
    this.name = checkName("entity", b.name, b.name);
    this.version = checkName("version", b.version, b.name);
    this.type = b.type;
    this.attributes = Map.copyOf(checkAttributes(b.attributes));
    Map<String, IndexLayout> layouts = new LinkedHashMap<>();
    IndexLayout primaryLayout = null;
    for (Index index : b.indexes) {
      if (layouts.containsKey(index.name())) {
        throw invalid(
            "The entity '" + name + "' has two indexes named '" + index.name() + "'",
            "index",
            index.name());
      }
      IndexLayout layout = compile(index, b.attributes);
      layouts.put(index.name(), layout);
      if (index.primary()) {
        if (primaryLayout != null) {
          throw invalid("The entity '" + name + "' has two primary indexes", "index", index.name());
        }
        primaryLayout = layout;
      }
    }
    if (primaryLayout == null) {
      throw invalid(
          "The entity '" + name + "' has no primary index (Index.primary)", "entity", name);
    }
    this.indexes = java.util.Collections.unmodifiableMap(layouts);
    this.primary = primaryLayout;
    this.mapper = new ItemMapper<>(this, b.attributes);
  }

  /**
   * Starts a typed entity: items are instances of {@code type} (a record or bean), mapped by
   * Jackson.
   */
  public static <T> Builder<T> define(String name, Class<T> type) {
    return new Builder<>(name, Objects.requireNonNull(type, "type"));
  }

  /** Starts a schema-less entity: items are maps; undeclared attributes are stored as they are. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Builder<Map<String, Object>> define(String name) {
    return new Builder<>(name, (Class) Map.class);
  }

  public String service() {
    return service;
  }

  public String name() {
    return name;
  }

  public String version() {
    return version;
  }

  public Class<T> type() {
    return type;
  }

  public Collection<Attribute> attributes() {
    return mapper.declared();
  }

  public List<Index> indexes() {
    return indexes.values().stream().map(IndexLayout::index).toList();
  }

  IndexLayout primary() {
    return primary;
  }

  IndexLayout layout(String indexName) {
    IndexLayout layout = indexes.get(indexName);
    if (layout == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The entity '" + name + "' has no index '" + indexName + "'",
          "entity",
          name,
          "index",
          indexName,
          "indexes",
          String.join(", ", indexes.keySet()));
    }
    return layout;
  }

  Collection<IndexLayout> layouts() {
    return indexes.values();
  }

  ItemMapper<T> mapper() {
    return mapper;
  }

  /** The filter that takes this entity's items and no others. */
  Filter identity() {
    return new Filter.And(
        new Filter.Compare(SERVICE_FIELD, Filter.Op.EQ, Value.of(service)),
        new Filter.Compare(ENTITY_FIELD, Filter.Op.EQ, Value.of(name)));
  }

  /** {@link #identity()} as native filter text. */
  String identityFilter() {
    return Filters.print(identity());
  }

  /**
   * The filters that must all hold, as native text: the parsed trees joined by AND (nulls left
   * out), never their text, so that an application's condition such as {@code x eq 1) or (true}
   * cannot escape the entity's identity; null when there are none. A condition that does not parse
   * fails with InvalidFilter.
   */
  static String allOf(Filter required, String... conditions) {
    Filter all = required;
    for (String condition : conditions) {
      if (condition != null) {
        all = Filters.and(all, Filters.parse(condition));
      }
    }
    return all == null ? null : Filters.print(all);
  }

  private IndexLayout compile(Index index, Map<String, Attribute> attrs) {
    String where = "index '" + index.name() + "' of entity '" + name + "'";
    if (index.primary() && (index.isUnique() || index.condition() != null)) {
      throw invalid(
          "The primary index of '"
              + name
              + "' is unique by nature and holds every item: it takes "
              + "neither unique nor condition",
          "index",
          index.name());
    }
    if (index.pk().template() != null && !index.namespace().isEmpty()) {
      throw invalid(
          "The "
              + where
              + " has both a pk template and a namespace; a template is the whole key, "
              + "so write the namespace into it",
          "index",
          index.name());
    }
    for (String part : index.namespace()) {
      checkName("namespace", part, name);
    }
    KeyFormat pk = KeyFormat.partitionKey(service, index.namespace(), index.pk(), attrs, where);
    KeyFormat sk = KeyFormat.sortKey(name, version, index.sk(), attrs, where);
    if (index.isUnique() && pk.composites().isEmpty() && sk.composites().isEmpty()) {
      throw invalid(
          "The unique "
              + where
              + " has no composite attributes: every item would have the same key",
          "index",
          index.name());
    }
    String filter = allOf(identity(), index.condition());
    return new IndexLayout(index, pk, sk, index.primary() ? null : filter);
  }

  private Map<String, Attribute> checkAttributes(Map<String, Attribute> attrs) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (Attribute a : attrs.values()) {
      if (!FIELD.matcher(a.field()).matches()
          || a.field().startsWith("vb_")
          || PropertyName.isReserved(a.field())) {
        throw invalid(
            "The attribute '"
                + a.name()
                + "' of '"
                + name
                + "' has the stored name '"
                + a.field()
                + "': stored names are a letter then letters, digits or '_', and not partitionKey, id or vb_...",
            "attribute",
            a.name());
      }
      String other = fields.put(a.field(), a.name());
      if (other != null) {
        throw invalid(
            "The attributes '"
                + other
                + "' and '"
                + a.name()
                + "' of '"
                + name
                + "' are both stored as '"
                + a.field()
                + "'",
            "attribute",
            a.name());
      }
      if (a.padding() < 0 || a.padding() > 99) {
        throw invalid(
            "The padding of attribute '" + a.name() + "' must be 0..99", "attribute", a.name());
      }
      if (a.type() == AttributeType.ENUM && a.enumValues().isEmpty()) {
        throw invalid(
            "The enum attribute '" + a.name() + "' of '" + name + "' lists no values",
            "attribute",
            a.name());
      }
    }
    return attrs;
  }

  private static String checkName(String what, String value, String entity) {
    if (value == null || !NAME.matcher(value).matches()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "The "
              + what
              + " name '"
              + value
              + "' must be letters, digits, '.', '_' or '-' (no '#' or '$', which "
              + "structure keys)",
          "entity",
          entity,
          what,
          value);
    }
    return value;
  }

  private ViewbaseException invalid(String message, String field, String value) {
    return ViewbaseException.of(ErrorCode.InvalidInput, message, "entity", name, field, value);
  }

  @Override
  public String toString() {
    return "Entity[" + service + "/" + name + " v" + version + "]";
  }

  /** Collects an entity's model, attributes and indexes. */
  public static final class Builder<T> {
    private final String name;
    private final Class<T> type;
    private String service;
    private String version = "1";
    private final Map<String, Attribute> attributes = new LinkedHashMap<>();
    private final List<Index> indexes = new ArrayList<>();

    private Builder(String name, Class<T> type) {
      this.name = name;
      this.type = type;
    }

    public Builder<T> service(String serviceName) {
      this.service = serviceName;
      return this;
    }

    public Builder<T> version(String entityVersion) {
      this.version = entityVersion;
      return this;
    }

    public Builder<T> attribute(Attribute attribute) {
      if (attributes.put(attribute.name(), attribute) != null) {
        throw ViewbaseException.of(
            ErrorCode.InvalidInput,
            "The entity '" + name + "' declares the attribute '" + attribute.name() + "' twice",
            "entity",
            name,
            "attribute",
            attribute.name());
      }
      return this;
    }

    public Builder<T> attributes(Attribute... all) {
      for (Attribute a : all) {
        attribute(a);
      }
      return this;
    }

    public Builder<T> index(Index index) {
      indexes.add(index);
      return this;
    }

    /** Checks the definition: a bad one fails here with InvalidInput, not at its first write. */
    public Entity<T> build() {
      return new Entity<>(this);
    }
  }
}
