package io.viewbase.server.dynamodb;

import io.viewbase.api.Stability;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A DynamoDB table as Viewbase keeps it: a Viewbase table ({@link #viewbaseName}) whose items are
 * the DynamoDB items, and this description, a catalog setting of that table ({@link
 * DynamoDbTables}). Each secondary index is a copy view of the table ({@link Index#viewName}).
 *
 * <p>What a DescribeTable answer computes (status, counts, ARNs, index states) is not here; what
 * DynamoDB takes as given and echoes (billing, throughput, SSE, the table class, tags) is kept as
 * the request gave it. The stream and time-to-live specifications are kept too, and act: a stream
 * is the table's change feed ({@link StreamFeeds}), a TTL attribute gives items their {@code _ttl}
 * ({@link TtlAttribute}).
 *
 * @param name the DynamoDB table name, case-sensitive
 * @param viewbaseName the Viewbase table holding the items ({@link TableNames})
 * @param key the table's key schema
 * @param attributes the attribute definitions: every key attribute of the table and its indexes,
 *     with its type, in the order the requests gave them
 * @param globalIndexes the global secondary indexes, in creation order
 * @param localIndexes the local secondary indexes, in creation order
 * @param billingMode {@code PROVISIONED} or {@code PAY_PER_REQUEST}
 * @param throughput the table's provisioned throughput, for {@code PROVISIONED}; else null
 * @param created when the table was created
 * @param stream the stream specification as given, or null for none
 * @param sse the server-side encryption specification as given, or null for none
 * @param tableClass {@code STANDARD} or {@code STANDARD_INFREQUENT_ACCESS}, or null as not given
 * @param deletionProtection whether DeleteTable is refused
 * @param tags the table's tags, key to value, in the order they were added
 * @param tableId the table's id (a UUID, as DynamoDB gives one)
 * @param ttl the time-to-live specification ({@link TtlOperations}), or null while TTL is disabled
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record DynamoDbTable(
    String name,
    String viewbaseName,
    KeySchema key,
    Map<String, AttributeType> attributes,
    List<Index> globalIndexes,
    List<Index> localIndexes,
    String billingMode,
    Throughput throughput,
    Instant created,
    Stream stream,
    Sse sse,
    String tableClass,
    boolean deletionProtection,
    Map<String, String> tags,
    String tableId,
    TimeToLive ttl) {

  /** {@code PROVISIONED}: the table has provisioned throughput. */
  public static final String PROVISIONED = "PROVISIONED";

  /** {@code PAY_PER_REQUEST}: on-demand capacity. */
  public static final String PAY_PER_REQUEST = "PAY_PER_REQUEST";

  public DynamoDbTable {
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    globalIndexes = List.copyOf(globalIndexes);
    localIndexes = List.copyOf(localIndexes);
    tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
  }

  /** The three types a key attribute may have. */
  public enum AttributeType {
    /** String. */
    S,
    /** Number. */
    N,
    /** Binary. */
    B
  }

  /**
   * One key attribute: its DynamoDB name and type.
   *
   * @param name the attribute's DynamoDB name (its property is {@link AttributeNames#property})
   * @param type S, N or B
   */
  public record KeyAttribute(String name, AttributeType type) {}

  /**
   * A key schema: its partition (HASH) attributes and its sort (RANGE) attributes, each in the
   * order of the request's KeySchema, which is the order of the key. A table's and a local index's
   * have one HASH attribute and at most one RANGE attribute; a global index's may have up to four
   * of each (DynamoDB's multi-attribute keys), its HASH elements first.
   *
   * @param hashKeys the partition key attributes, at least one
   * @param rangeKeys the sort key attributes, perhaps none
   */
  public record KeySchema(List<KeyAttribute> hashKeys, List<KeyAttribute> rangeKeys) {
    public KeySchema {
      hashKeys = List.copyOf(hashKeys);
      rangeKeys = List.copyOf(rangeKeys);
      if (hashKeys.isEmpty()) {
        throw new IllegalArgumentException("A key schema has a HASH attribute");
      }
    }

    /** A key of one partition key and at most one sort key ({@code range} null for none). */
    public KeySchema(KeyAttribute hash, KeyAttribute range) {
      this(List.of(hash), range == null ? List.of() : List.of(range));
    }

    /** The partition key: the first HASH attribute, a table's or local index's only one. */
    public KeyAttribute hash() {
      return hashKeys.get(0);
    }

    /**
     * The sort key of a key that has at most one (a table's, a local index's), or null; a
     * multi-attribute key has none, its callers read {@link #rangeKeys}.
     */
    public KeyAttribute range() {
      if (rangeKeys.size() > 1) {
        throw new IllegalStateException("A multi-attribute sort key is read as rangeKeys");
      }
      return rangeKeys.isEmpty() ? null : rangeKeys.get(0);
    }

    /** Whether the key has more than one HASH or more than one RANGE attribute. */
    public boolean isMultiAttribute() {
      return hashKeys.size() > 1 || rangeKeys.size() > 1;
    }

    /** Every key attribute, in the key's order: the HASH ones, then the RANGE ones. */
    public List<KeyAttribute> attributes() {
      List<KeyAttribute> all = new ArrayList<>(hashKeys);
      all.addAll(rangeKeys);
      return all;
    }

    /** The names of the key attributes, in the key's order (the partition key's first). */
    public List<String> names() {
      return attributes().stream().map(KeyAttribute::name).toList();
    }
  }

  /** What an index copies of each item. */
  public enum ProjectionType {
    /** Every attribute. */
    ALL,
    /** The table's and the index's keys only. */
    KEYS_ONLY,
    /** The keys and {@link Projection#nonKeyAttributes}. */
    INCLUDE
  }

  /**
   * An index's projection.
   *
   * @param type ALL, KEYS_ONLY or INCLUDE
   * @param nonKeyAttributes for INCLUDE, the other attributes copied; else empty
   */
  public record Projection(ProjectionType type, List<String> nonKeyAttributes) {
    public Projection {
      nonKeyAttributes = List.copyOf(nonKeyAttributes);
    }
  }

  /**
   * Provisioned throughput, as given: Viewbase enforces none.
   *
   * @param readCapacityUnits ReadCapacityUnits
   * @param writeCapacityUnits WriteCapacityUnits
   */
  public record Throughput(long readCapacityUnits, long writeCapacityUnits) {}

  /**
   * A stream specification, as given, and where the stream begins in the table's change feed
   * ({@link StreamFeeds}).
   *
   * @param enabled StreamEnabled
   * @param viewType StreamViewType ({@code KEYS_ONLY}, {@code NEW_IMAGE}, {@code OLD_IMAGE}, {@code
   *     NEW_AND_OLD_IMAGES}), or null when disabled
   * @param label the stream's label (a timestamp, as DynamoDB gives one) from when it was enabled
   * @param startAfter the last change-feed sequence number before the stream began: the stream's
   *     records are the feed's entries after it (entries of an earlier stream of the table are not
   *     this stream's); 0 for a stream enabled with the table
   */
  public record Stream(boolean enabled, String viewType, String label, long startAfter) {}

  /**
   * A server-side encryption specification, as given (Viewbase encrypts nothing itself).
   *
   * @param enabled Enabled
   * @param sseType SSEType ({@code KMS} or {@code AES256}), or null
   * @param kmsMasterKeyId KMSMasterKeyId, or null
   */
  public record Sse(boolean enabled, String sseType, String kmsMasterKeyId) {}

  /**
   * A table's time-to-live specification: the attribute holding each item's expiry, in epoch
   * seconds, and where enabling or disabling it stands ({@link TtlOperations}).
   *
   * <pre>
   * status    | DescribeTimeToLive | writes set _ttl | the pass ({@link TtlPasses})
   * ----------+--------------------+-----------------+-----------------------------------------
   * ENABLING  | ENABLING           | yes             | sets _ttl on the items written before
   * ENABLED   | ENABLED            | yes             | none
   * DISABLING | DISABLING          | no              | removes the _ttl it set from every item
   * (null)    | DISABLED           | no              | none
   * </pre>
   *
   * @param attribute the TTL attribute's name
   * @param status where the specification stands
   */
  public record TimeToLive(String attribute, TtlStatus status) {
    /** Whether writes through the dialect set items' {@code _ttl} from the attribute. */
    public boolean appliesToWrites() {
      return status != TtlStatus.DISABLING;
    }
  }

  /** Where a time-to-live specification stands (DISABLED is its absence). */
  public enum TtlStatus {
    /** Enabled; the items written before are being given their {@code _ttl}. */
    ENABLING,
    /** Enabled, every item given its {@code _ttl}. */
    ENABLED,
    /** Disabled; the {@code _ttl} set from the attribute is being removed from the items. */
    DISABLING
  }

  /**
   * A secondary index: global (its own partition key) or local (the table's partition key, another
   * sort key). Its items are a copy view of the table ({@link IndexViews}).
   *
   * @param name the index name, unique within its table
   * @param key the index's key schema
   * @param projection what the index copies
   * @param throughput a global index's provisioned throughput, for a {@code PROVISIONED} table;
   *     else null
   * @param viewName the Viewbase view holding the index ({@link TableNames#viewCandidates})
   * @param created when the index was created (the table's creation, for an index created with it)
   */
  public record Index(
      String name,
      KeySchema key,
      Projection projection,
      Throughput throughput,
      String viewName,
      Instant created) {}

  /** The index of this name, global or local. */
  public Optional<Index> index(String indexName) {
    for (Index i : globalIndexes) {
      if (i.name().equals(indexName)) {
        return Optional.of(i);
      }
    }
    for (Index i : localIndexes) {
      if (i.name().equals(indexName)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  /** Whether an index of this name is a global one. */
  public boolean isGlobal(String indexName) {
    return globalIndexes.stream().anyMatch(i -> i.name().equals(indexName));
  }

  /** Every index, the global ones first. */
  public List<Index> indexes() {
    List<Index> all = new ArrayList<>(globalIndexes);
    all.addAll(localIndexes);
    return all;
  }

  /** The type of a key attribute of the table or one of its indexes, or null for another name. */
  public AttributeType typeOf(String attribute) {
    return attributes.get(attribute);
  }

  /** The same table with other global indexes and attribute definitions. */
  public DynamoDbTable withGlobalIndexes(
      List<Index> indexes, Map<String, AttributeType> definitions) {
    return new DynamoDbTable(
        name,
        viewbaseName,
        key,
        definitions,
        indexes,
        localIndexes,
        billingMode,
        throughput,
        created,
        stream,
        sse,
        tableClass,
        deletionProtection,
        tags,
        tableId,
        ttl);
  }

  /** The same table billed another way, with another throughput (null for on-demand). */
  public DynamoDbTable withBilling(String mode, Throughput provisioned, List<Index> globals) {
    return new DynamoDbTable(
        name,
        viewbaseName,
        key,
        attributes,
        globals,
        localIndexes,
        mode,
        provisioned,
        created,
        stream,
        sse,
        tableClass,
        deletionProtection,
        tags,
        tableId,
        ttl);
  }

  /** The same table with another stream specification. */
  public DynamoDbTable withStream(Stream next) {
    return new DynamoDbTable(
        name,
        viewbaseName,
        key,
        attributes,
        globalIndexes,
        localIndexes,
        billingMode,
        throughput,
        created,
        next,
        sse,
        tableClass,
        deletionProtection,
        tags,
        tableId,
        ttl);
  }

  /** The same table with other encryption, class and deletion protection settings. */
  public DynamoDbTable withSettings(Sse nextSse, String nextClass, boolean protection) {
    return new DynamoDbTable(
        name,
        viewbaseName,
        key,
        attributes,
        globalIndexes,
        localIndexes,
        billingMode,
        throughput,
        created,
        stream,
        nextSse,
        nextClass,
        protection,
        tags,
        tableId,
        ttl);
  }

  /** The same table with other tags. */
  public DynamoDbTable withTags(Map<String, String> next) {
    return new DynamoDbTable(
        name,
        viewbaseName,
        key,
        attributes,
        globalIndexes,
        localIndexes,
        billingMode,
        throughput,
        created,
        stream,
        sse,
        tableClass,
        deletionProtection,
        next,
        tableId,
        ttl);
  }

  /** The same table with another time-to-live specification (null: disabled). */
  public DynamoDbTable withTtl(TimeToLive next) {
    return new DynamoDbTable(
        name,
        viewbaseName,
        key,
        attributes,
        globalIndexes,
        localIndexes,
        billingMode,
        throughput,
        created,
        stream,
        sse,
        tableClass,
        deletionProtection,
        tags,
        tableId,
        next);
  }
}
