package io.viewbase.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A view: a named, read-only table that the database keeps in step with a source table, in the
 * source write's own atomic commit. Its {@link Kind} says what it holds:
 *
 * <pre>
 * kind       | one entry per                       | key (partition / id)                  | holds
 * -----------+-------------------------------------+---------------------------------------+------------------
 * copy       | source item (matching where)        | partitionBy / idBy                    | the item (select)
 * history    | write to a source item              | partitionBy (default                  | the item as
 *            |   (tombstone for a delete)          |   {partitionKey}#{id}) / version#item | written, or none
 * partitions | source partition with at least one  | partitionBy (default "all") / the     | count
 *            |   item (matching where)             |   source partition key                |
 * </pre>
 *
 * <p>Key templates are literal text with placeholders: {@code {property}}; {@code {partitionKey}}
 * and {@code {id}} (the source item's identity); {@code {age:08}} zero-pads an integer to 8 digits
 * so that numeric order is key order; {@code {email|lower}} lower-cases (never implicit); {@code
 * {price|key}} renders {@link KeyText#sortable}, in value order and self-delimiting, so that {@code
 * {price|key}{id|key}} sorts by price, then id; {@code {{} and {@code }}} are literal braces. An
 * item lacking a template's property, or failing {@code where}, is not in the view (views are
 * sparse). A copy's key is unique, so a copy view is also a uniqueness constraint.
 *
 * @param name the view's name; it shares the namespace of tables
 * @param source the source table
 * @param partitionBy template of the view partition key (null: the kind's default)
 * @param idBy template of the view id (copy views only; null: the source's {@code {id}})
 * @param where an OData filter an item must match to be in the view (null: every item)
 * @param select the properties copied into the view (empty: all; not for partitions views)
 * @param kind what the view holds (null: {@link Kind#COPY})
 * @param retention how long a history view keeps entries (null: for ever; history views only)
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ViewDefinition(
    String name,
    String source,
    String partitionBy,
    String idBy,
    String where,
    List<String> select,
    Kind kind,
    Retention retention) {

  /** What a view holds; its {@link #text()} is how JSON, the CLI and the catalog name it. */
  public enum Kind {
    /** An exact copy of each source item, under a key of its own: today's views. */
    COPY("copy"),
    /** An entry per write: the item as written, or a tombstone, in commit order. */
    HISTORY("history"),
    /** An entry per non-empty source partition, holding its item count. */
    PARTITIONS("partitions");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }

    /** The kind named {@code text} (case-insensitive), or null if none is. */
    public static Kind of(String text) {
      for (Kind k : values()) {
        if (k.text.equals(text.toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      return null;
    }
  }

  /**
   * How long a history view keeps its entries. An entry goes once either limit says so; a limit of
   * 0 (or null) is none. Old entries are removed by a background pass over the view, so a read may
   * still see an entry past its limit until that pass has run ({@code docs/views.md}).
   *
   * @param maxVersions keep the newest this many entries of each view partition (0: no limit)
   * @param maxAge keep entries whose version is younger than this (null: no limit)
   */
  public record Retention(long maxVersions, Duration maxAge) {
    public static Retention versions(long maxVersions) {
      return new Retention(maxVersions, null);
    }

    public static Retention age(Duration maxAge) {
      return new Retention(0, maxAge);
    }

    /** Whether neither limit is set. */
    public boolean isNone() {
      return maxVersions <= 0 && (maxAge == null || maxAge.isZero());
    }
  }

  /** Width of the version at the start of every history id: a 63-bit count in decimal. */
  public static final int HISTORY_VERSION_DIGITS = 19;

  public ViewDefinition {
    select = select == null ? List.of() : List.copyOf(select);
    kind = kind == null ? Kind.COPY : kind;
  }

  /** A copy view: the definition every release before view kinds had. */
  public ViewDefinition(
      String name,
      String source,
      String partitionBy,
      String idBy,
      String where,
      List<String> select) {
    this(name, source, partitionBy, idBy, where, select, Kind.COPY, null);
  }

  public static ViewDefinition of(String name, String source, String partitionBy, String idBy) {
    return new ViewDefinition(name, source, partitionBy, idBy, null, List.of());
  }

  /** A history view of {@code source}, partitioned by source item ({@code {partitionKey}#{id}}). */
  public static ViewDefinition history(String name, String source) {
    return new ViewDefinition(name, source, null, null, null, List.of(), Kind.HISTORY, null);
  }

  /** A partitions view of {@code source}: its non-empty partitions and their item counts. */
  public static ViewDefinition partitions(String name, String source) {
    return new ViewDefinition(name, source, null, null, null, List.of(), Kind.PARTITIONS, null);
  }

  public ViewDefinition withWhere(String filter) {
    return new ViewDefinition(name, source, partitionBy, idBy, filter, select, kind, retention);
  }

  public ViewDefinition withSelect(List<String> properties) {
    return new ViewDefinition(name, source, partitionBy, idBy, where, properties, kind, retention);
  }

  public ViewDefinition withPartitionBy(String template) {
    return new ViewDefinition(name, source, template, idBy, where, select, kind, retention);
  }

  public ViewDefinition withKind(Kind next) {
    return new ViewDefinition(name, source, partitionBy, idBy, where, select, next, retention);
  }

  public ViewDefinition withRetention(Retention next) {
    return new ViewDefinition(name, source, partitionBy, idBy, where, select, kind, next);
  }

  /**
   * The history id bound of a time: the version (100 ns ticks since the epoch) of {@code time},
   * zero-padded to {@value #HISTORY_VERSION_DIGITS} digits. Every entry written at or after {@code
   * time} has an id at or above it, every earlier one an id below it, so a time range is the id
   * range {@code [historyId(from), historyId(to))}.
   */
  public static String historyId(Instant time) {
    return historyId(Value.DateTime.of(time).ticks());
  }

  /** The history id bound of a version: {@code version} zero-padded to 19 digits. */
  public static String historyId(long version) {
    String digits = Long.toString(version);
    return "0".repeat(Math.max(0, HISTORY_VERSION_DIGITS - digits.length())) + digits;
  }
}
