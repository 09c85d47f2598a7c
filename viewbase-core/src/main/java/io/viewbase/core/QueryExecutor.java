package io.viewbase.core;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import io.viewbase.filter.PreparedFilter;
import io.viewbase.storage.spi.Bytes;
import io.viewbase.storage.spi.Cursor;
import io.viewbase.storage.spi.KeyRange;
import io.viewbase.storage.spi.Store;
import io.viewbase.storage.spi.Versioned;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a query's plan (see {@link QueryPlanner}) one bounded page at a time. A page ends at the
 * query's limit, at {@link #PAGE_BYTE_BUDGET} bytes of stored items, or after {@link #MAX_EXAMINED}
 * entries read (a selective filter over a scan), whichever comes first: so the memory and the time
 * a request holds are bounded whatever the data. A continuation token is issued while more entries
 * remain; it names the last entry read, so a page that a filter left empty still moves the query
 * on.
 */
final class QueryExecutor {
  /** Stored bytes one page may hold; at least one item is always returned. */
  static final int PAGE_BYTE_BUDGET = 4 << 20;

  /** Entries one page may read before it returns what it found. */
  static final int MAX_EXAMINED = 100_000;

  private final Store store;
  private final ContinuationCodec tokens;
  private final Limits limits;
  private final ItemRules rules;
  private final Expiry expiry;
  private final QueryPlanner planner = new QueryPlanner();

  QueryExecutor(
      Store store, ContinuationCodec tokens, Limits limits, ItemRules rules, Expiry expiry) {
    this.store = store;
    this.tokens = tokens;
    this.limits = limits;
    this.rules = rules;
    this.expiry = expiry;
  }

  QueryPlan explain(TableEntry table, Query query) {
    return planner.plan(table, query, validate(query), true).describe();
  }

  Page run(TableEntry table, Query query) {
    Filter filter = validate(query);
    int fingerprint = fingerprint(query);
    ContinuationCodec.Position after =
        query.continuation() == null
            ? null
            : tokens.decode(query.continuation(), table.id(), fingerprint);
    // A query that began without a view goes on without one, so that its positions stay comparable.
    Plan plan = planner.plan(table, query, filter, after == null || after.viewId() != 0);
    if (after != null
        && after.viewId() != 0
        && !(plan instanceof Plan.ViewRead v && v.view().table().id() == after.viewId())) {
      throw new ViewbaseException(
          ErrorCode.InvalidContinuation,
          "The view this query was reading is no longer ready; start the query again");
    }
    PageBuilder page = new PageBuilder(table, query, filter, fingerprint);
    if (plan instanceof Plan.Keys keys) {
      runKeys(table, keys, after, page);
    } else if (plan instanceof Plan.ViewRead view) {
      runView(table, view, after, page);
    }
    return page.build();
  }

  private Filter validate(Query query) {
    if (query.limit() < 1 || query.limit() > limits.maxPageSize()) {
      throw ViewbaseException.of(
          ErrorCode.InvalidQuery,
          "limit must be between 1 and " + limits.maxPageSize(),
          "limit",
          query.limit());
    }
    if (query.partitionKey() == null
        && (query.from() != null
            || query.to() != null
            || query.prefix() != null
            || query.descending())) {
      throw new ViewbaseException(
          ErrorCode.InvalidQuery,
          "from, to, prefix and desc apply to a partition query; give a partition key");
    }
    if (query.partitionKey() != null) {
      rules.checkKey("partitionKey", query.partitionKey());
    }
    return query.filter() == null || query.filter().isBlank()
        ? null
        : Filters.parse(query.filter());
  }

  private void runKeys(
      TableEntry table, Plan.Keys plan, ContinuationCodec.Position after, PageBuilder page) {
    List<Plan.Segment> segments = new ArrayList<>(plan.segments());
    boolean desc = plan.descending();
    if (desc) {
      Collections.reverse(segments);
    }
    for (int i = 0; i < segments.size(); i++) {
      Plan.Segment segment = segments.get(i);
      boolean last = i == segments.size() - 1;
      boolean stopped =
          segment.partitionKey() != null
              ? scanPartition(segment, desc, after, page, last)
              : scanPartitions(table, segment, after, page);
      if (stopped) {
        return;
      }
    }
  }

  /** Reads one partition's id range of the page's table; true when the page is complete. */
  private boolean scanPartition(
      Plan.Segment segment,
      boolean desc,
      ContinuationCodec.Position after,
      PageBuilder page,
      boolean lastSegment) {
    byte[] partition = KeyLayout.partition(page.table.id(), segment.partitionKey());
    KeyRange range = keyRange(segment.ids());
    if (after != null) {
      int c = Arrays.compareUnsigned(partition, after.partition());
      if (desc ? c > 0 : c < 0) {
        return false;
      }
      if (c == 0) {
        range = desc ? range.before(after.key()) : range.after(after.key());
      }
    }
    if (range.isEmpty()) {
      return false;
    }
    try (Cursor cursor = store.scan(partition, range, desc)) {
      boolean inPlace = page.testsValuesOnly();
      while (cursor.next()) {
        if (page.isFull()) {
          return page.stop(true);
        }
        // the partition is the one scanned: no need to decode it from the cursor
        if (inPlace) {
          page.read(partition, cursor);
        } else {
          byte[] key = cursor.key();
          page.examine(partition, key);
          page.offer(partition, key, cursor);
        }
        if (page.examinedEnough()) {
          return page.stop(true);
        }
      }
    }
    if (page.isFull()) {
      return page.stop(!lastSegment);
    }
    return false;
  }

  /** Reads a range of partitions (every partition for a scan); true when the page is complete. */
  private boolean scanPartitions(
      TableEntry table, Plan.Segment segment, ContinuationCodec.Position after, PageBuilder page) {
    KeySpace.Range partitions = segment.partitionKeys();
    byte[] afterPartition = null;
    byte[] afterKey = null;
    boolean fromLowPartition = false;
    if (partitions.low() != null) {
      afterPartition = KeyLayout.partition(table.id(), partitions.low());
      afterKey = partitions.lowInclusive() ? Bytes.EMPTY : null;
      fromLowPartition = partitions.lowInclusive();
    }
    if (after != null
        && (afterPartition == null
            || Arrays.compareUnsigned(after.partition(), afterPartition) >= 0)) {
      afterPartition = after.partition();
      afterKey = after.key();
      fromLowPartition = false;
    }
    boolean ordered = store.capabilities().orderedPartitions();
    KeyRange ids = keyRange(segment.ids());
    if (fromLowPartition && ids.contains(Bytes.EMPTY)) {
      // The walk resumes strictly after (low, ""), and "" is an id (Azure's
      // one-record-per-partition
      // idiom): that item, the first of the low partition, is read on its own.
      Optional<Versioned> first = store.get(afterPartition, Bytes.EMPTY);
      page.examine(afterPartition, Bytes.EMPTY);
      if (first.isPresent()) {
        page.offer(afterPartition, Bytes.EMPTY, first.get().version(), first.get().value());
      }
    }
    // Without bounds on the partitions or ids, an entry's keys matter only if it is kept or the
    // page ends on it: a filter that reads values only is tested before they are copied.
    boolean inPlace =
        page.testsValuesOnly()
            && partitions.high() == null
            && ids.lower() == null
            && ids.upper() == null;
    try (Cursor cursor = store.scanAll(table.prefix(), afterPartition, afterKey)) {
      while (cursor.next()) {
        if (page.isFull()) {
          return page.stop(true);
        }
        if (inPlace) {
          page.read(null, cursor);
        } else {
          byte[] partition = cursor.partition();
          byte[] key = cursor.key();
          page.examine(partition, key);
          if (partitions.high() != null && !partitionBelowHigh(partition, partitions)) {
            if (ordered) {
              return page.stop(false);
            }
          } else if (ids.contains(key)) {
            page.offer(partition, key, cursor);
          }
        }
        if (page.examinedEnough()) {
          return page.stop(true);
        }
      }
    }
    return page.stop(false);
  }

  private static boolean partitionBelowHigh(byte[] partition, KeySpace.Range partitions) {
    String pk = KeyLayout.partitionKeyOf(partition);
    int c = KeySpace.compare(pk, partitions.high());
    return c < 0 || (c == 0 && partitions.highInclusive());
  }

  private void runView(
      TableEntry table, Plan.ViewRead plan, ContinuationCodec.Position after, PageBuilder page) {
    TableEntry view = plan.view().table();
    byte[] partition = KeyLayout.partition(view.id(), plan.key().partitionKey());
    byte[] id = KeyLayout.sortKey(plan.key().idPrefix());
    KeyRange range = plan.key().exact() ? new KeyRange(id, true, id, true) : KeyRange.prefix(id);
    if (after != null) {
      range = range.after(after.key());
    }
    page.inView(view.id());
    if (range.isEmpty()) {
      return;
    }
    try (Cursor cursor = store.scan(partition, range, false)) {
      while (cursor.next()) {
        if (page.isFull()) {
          page.stop(true);
          return;
        }
        page.examine(cursor.partition(), cursor.key());
        ItemCodec.ViewValue entry = ItemCodec.decodeView(cursor.value());
        if (plan.covering()) {
          page.offerDecoded(
              entry.sourcePartitionKey(), entry.sourceId(), cursor.version(), entry.properties());
        } else {
          byte[] sourcePartition = KeyLayout.partition(table.id(), entry.sourcePartitionKey());
          byte[] sourceKey = KeyLayout.sortKey(entry.sourceId());
          Optional<Versioned> source = store.get(sourcePartition, sourceKey);
          source.ifPresent(v -> page.offer(sourcePartition, sourceKey, v.version(), v.value()));
        }
        if (page.examinedEnough()) {
          page.stop(true);
          return;
        }
      }
    }
    page.stop(false);
  }

  private static KeyRange keyRange(KeySpace.Range ids) {
    return new KeyRange(
        KeySpace.utf8(ids.low()),
        ids.lowInclusive(),
        KeySpace.utf8(ids.high()),
        ids.highInclusive());
  }

  /** Binds a token to the query that issued it (the parts that decide which items follow). */
  private static int fingerprint(Query query) {
    return Objects.hash(
        query.partitionKey(),
        query.from(),
        query.to(),
        query.prefix(),
        query.descending(),
        query.filter() == null || query.filter().isBlank() ? null : query.filter());
  }

  /** The items of one page, and where the reading stopped. */
  private final class PageBuilder {
    private final TableEntry table;
    private final Query query;

    /** The query's filter, prepared once for the page; null when it has none. */
    private final PreparedFilter filter;

    /**
     * The stored entry under test, as the filter reads it: only the properties it names are looked
     * at (the keys and timestamp only if it reads one, {@link PreparedFilter#readsSystem()}).
     */
    private final ItemCodec.FilterRow row;

    private final int fingerprint;
    private final List<Item> items;
    private long bytes;
    private int examined;
    private int viewId;
    private byte[] lastPartition;
    private byte[] lastKey;
    private boolean more;
    private byte[] lastDecodedPartition;
    private String lastDecodedPartitionKey;

    /** The filter's test of a value in a cursor's buffer, made once for the page. */
    private final Cursor.ValueReader<Boolean> filterTest = this::testInPlace;

    /** The system values the entry under test has for the filter (null unless it reads them). */
    private String testPk;

    private String testId;
    private Instant testTimestamp;

    /** The length of the value last tested in place. */
    private int testedLength;

    PageBuilder(TableEntry table, Query query, Filter filter, int fingerprint) {
      this.table = table;
      this.query = query;
      this.filter = filter == null ? null : PreparedFilter.of(filter);
      this.row = filter == null ? null : new ItemCodec.FilterRow(this.filter.properties());
      this.fingerprint = fingerprint;
      this.items = new ArrayList<>(Math.min(query.limit(), 64));
    }

    void inView(int id) {
      viewId = id;
    }

    boolean isFull() {
      return items.size() >= query.limit() || bytes >= PAGE_BYTE_BUDGET;
    }

    boolean examinedEnough() {
      return examined >= MAX_EXAMINED;
    }

    void examine(byte[] partition, byte[] key) {
      examined++;
      lastPartition = partition;
      lastKey = key;
    }

    /**
     * Adds a stored source entry if it matches the filter. The filter is tested on only the
     * properties it names (and the keys and timestamp only if it reads one); an entry is decoded in
     * full only when it matches, since a selective filter over a scan rejects nearly every entry.
     */
    void offer(byte[] partition, byte[] key, long version, byte[] value) {
      bytes += value.length + key.length;
      String pk = null;
      String id = null;
      if (filter != null) {
        Instant timestamp = null;
        if (filter.readsSystem()) {
          pk = partitionKeyOf(partition);
          id = KeyLayout.idOf(key);
          timestamp = new Value.DateTime(version).toInstant();
        }
        // Names the filter does not read are never looked at, so leaving them out (and the keys
        // when it reads none) cannot change the answer.
        if (!filter.matches(row.of(value, 0, value.length, pk, id, timestamp))) {
          return;
        }
      }
      add(partition, key, pk, id, version, value);
    }

    /**
     * {@link #offer(byte[], byte[], long, byte[])} of the cursor's current entry, the filter tested
     * on the value in the cursor's buffer: an entry the filter rejects is neither copied out nor
     * has its version read (unless the filter reads the timestamp).
     */
    void offer(byte[] partition, byte[] key, Cursor cursor) {
      if (filter == null) {
        offer(partition, key, cursor.version(), cursor.value());
        return;
      }
      String pk = null;
      String id = null;
      Instant timestamp = null;
      if (filter.readsSystem()) {
        pk = partitionKeyOf(partition);
        id = KeyLayout.idOf(key);
        timestamp = new Value.DateTime(cursor.version()).toInstant();
      }
      if (test(cursor, pk, id, timestamp, key.length)) {
        add(partition, key, pk, id, cursor.version(), cursor.value());
      }
    }

    /** Whether an entry can be tested without its keys: the filter reads no key or timestamp. */
    boolean testsValuesOnly() {
      return filter != null && !filter.readsSystem();
    }

    /**
     * {@link #examine} and {@link #offer(byte[], byte[], Cursor)} of the cursor's current entry
     * when {@link #testsValuesOnly()}, with its keys copied out of the cursor only when they are
     * needed: when the entry matches, or when the page ends on it (they are the continuation's
     * position). A selective filter over a scan rejects nearly every entry, and copies of its keys
     * were most of what a rejected entry cost besides the test itself.
     *
     * @param partition the entry's stored partition when the caller knows it (a one-partition
     *     scan), else null to take it from the cursor
     */
    void read(byte[] partition, Cursor cursor) {
      examined++;
      boolean match = test(cursor, null, null, null, cursor.keyLength());
      if (match || isFull() || examinedEnough()) {
        lastPartition = partition != null ? partition : cursor.partition();
        lastKey = cursor.key();
        if (match) {
          add(lastPartition, lastKey, null, null, cursor.version(), cursor.value());
        }
      }
    }

    /**
     * Tests the filter on the cursor's current value in place, the entry's system values being
     * {@code pk}, {@code id} and {@code timestamp} (null unless the filter reads them), and counts
     * the entry's bytes (its value and a key of {@code keyLength}) against the page's budget.
     */
    private boolean test(Cursor cursor, String pk, String id, Instant timestamp, int keyLength) {
      testPk = pk;
      testId = id;
      testTimestamp = timestamp;
      boolean match = cursor.readValue(filterTest);
      bytes += testedLength + keyLength;
      return match;
    }

    /** The filter's test of a value in place, for {@link #filterTest}; notes the value's length. */
    private Boolean testInPlace(byte[] buf, int offset, int length) {
      testedLength = length;
      return filter.matches(row.of(buf, offset, length, testPk, testId, testTimestamp));
    }

    /** Adds a stored entry that matched the filter, unless it expired. */
    private void add(
        byte[] partition, byte[] key, String pk, String id, long version, byte[] value) {
      if (pk == null) {
        pk = partitionKeyOf(partition);
        id = KeyLayout.idOf(key);
      }
      Item item = StoredItems.toItem(pk, id, version, value);
      if (!expiry.isExpired(table, version, item.properties())) {
        items.add(project(item)); // an expired item is absent to every read, swept or not
      }
    }

    /**
     * The partition key of a stored partition; decoded once for a run of entries of one partition.
     */
    private String partitionKeyOf(byte[] partition) {
      if (partition != lastDecodedPartition && !Arrays.equals(partition, lastDecodedPartition)) {
        lastDecodedPartitionKey = KeyLayout.partitionKeyOf(partition);
        lastDecodedPartition = partition;
      }
      return lastDecodedPartitionKey;
    }

    /** Adds a source item known from a view's copy, if it matches the filter. */
    void offerDecoded(String pk, String id, long version, Map<String, Value> properties) {
      Instant timestamp = new Value.DateTime(version).toInstant();
      if (expiry.isExpired(table, version, properties)) {
        return; // the entry copies its source at the source's version, with its _ttl
      }
      if (filter == null || filter.matches(pk, id, timestamp, properties)) {
        items.add(project(Item.stored(pk, id, properties, Etags.of(version), timestamp)));
      }
    }

    private Item project(Item item) {
      if (query.select().isEmpty()) {
        return item;
      }
      Map<String, Value> kept = new LinkedHashMap<>();
      for (String name : query.select()) {
        Value v = item.properties().get(name);
        if (v != null) {
          kept.put(name, v);
        }
      }
      return item.withProperties(kept);
    }

    /** Ends the page; {@code hasMore} says whether entries may remain after the last one read. */
    boolean stop(boolean hasMore) {
      more = hasMore && lastKey != null;
      return true;
    }

    Page build() {
      String token =
          more
              ? tokens.encode(
                  table.id(),
                  fingerprint,
                  new ContinuationCodec.Position(viewId, lastPartition, lastKey))
              : null;
      return new Page(items, token);
    }
  }
}
