package io.viewbase.core;

import io.viewbase.api.KeyText;
import io.viewbase.api.Query;
import io.viewbase.api.QueryPlan;
import io.viewbase.api.Value;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Chooses how to answer a query. Every plan reads a superset of the matching items and the executor
 * evaluates the whole filter on each item read, so a plan can only be faster or slower, never
 * wrong.
 *
 * <pre>
 * the filter (with the query's partition, range and prefix)   | plan
 * ------------------------------------------------------------+-------------------------------
 * can never be true (e.g. PartitionKey eq 'a' and ... eq 'b') | empty
 * fixes partition keys and ids exactly                        | pointRead: one lookup each
 * fixes partition keys, ranges ids                            | keyRange: id ranges per partition
 * ranges partition keys                                       | keyRange: a range of partitions
 * fixes by equality every property of a ready view's key      | viewLookup: lookup (or id prefix)
 *   (string, boolean, guid or datetime literals)              |   in the view, then the source item
 * anything else                                               | scan, filtered
 * </pre>
 *
 * A view is only used when it is a copy view (a history or partitions view holds other things),
 * when it has no {@code where} (otherwise it may lack matching items), and only equality on
 * literals whose type renders exactly as the stored value does: a number may match int32, int64 and
 * double values that render differently.
 */
final class QueryPlanner {
  /** Plans with more point lookups than this read ranges instead. */
  static final int MAX_SEGMENTS = 256;

  Plan plan(TableEntry table, Query query, Filter filter, boolean allowViews) {
    KeySpace.Range ids = idRange(query);
    KeySpace.Range partitions =
        query.partitionKey() == null
            ? KeySpace.Range.ALL
            : KeySpace.Range.point(query.partitionKey());
    KeySpace.Box asked = new KeySpace.Box(partitions, ids);
    List<KeySpace.Box> boxes = filter == null ? null : KeySpace.boxes(filter);
    List<KeySpace.Box> within = new ArrayList<>();
    for (KeySpace.Box box : boxes == null ? List.of(KeySpace.Box.ALL) : boxes) {
      KeySpace.Box both = box.intersect(asked);
      if (!both.isEmpty()) {
        within.add(both);
      }
    }
    String source = table.name();
    if (within.isEmpty() || (filter instanceof Filter.Constant c && !c.value())) {
      return new Plan.Empty(
          new QueryPlan(
              QueryPlan.EMPTY,
              source,
              "nothing",
              "the filter and the query's partition, range and prefix can never all hold"));
    }
    boolean allPoints = within.stream().allMatch(b -> b.partitionKeys().isPoint());
    if (allPoints) {
      List<Plan.Segment> segments = pointSegments(within);
      if (segments.size() <= MAX_SEGMENTS) {
        boolean lookups = segments.stream().allMatch(s -> s.ids().isPoint());
        String kind = lookups && filter != null ? QueryPlan.POINT_READ : QueryPlan.KEY_RANGE;
        String reason =
            query.partitionKey() != null && boxes == null
                ? "a partition query"
                : lookups
                    ? "the filter names partition keys and ids exactly"
                    : "the filter names partition keys"
                        + (within.stream().anyMatch(b -> !b.ids().isAll()) ? " and id ranges" : "");
        return new Plan.Keys(
            segments, query.descending(), new QueryPlan(kind, source, describe(segments), reason));
      }
    }
    if (allowViews && filter != null && query.partitionKey() == null) {
      Plan view = viewPlan(table, query, filter);
      if (view != null) {
        return view;
      }
    }
    KeySpace.Box hull = within.get(0);
    for (KeySpace.Box b : within) {
      hull =
          new KeySpace.Box(hull.partitionKeys().hull(b.partitionKeys()), hull.ids().hull(b.ids()));
    }
    Plan.Segment all = new Plan.Segment(null, hull.partitionKeys(), hull.ids());
    if (!hull.partitionKeys().isAll()) {
      return new Plan.Keys(
          List.of(all),
          false,
          new QueryPlan(
              QueryPlan.KEY_RANGE,
              source,
              "partitions "
                  + hull.partitionKeys()
                  + (hull.ids().isAll() ? "" : ", ids " + hull.ids())
                  + ", filtered",
              "the filter ranges partition keys"));
    }
    return new Plan.Keys(
        List.of(all),
        false,
        new QueryPlan(
            QueryPlan.SCAN,
            source,
            "every partition" + (filter == null ? "" : ", filtered"),
            filter == null
                ? "a table query without a filter"
                : "no condition on PartitionKey, and no ready view whose key the filter fixes by equality"));
  }

  /** The query's own id constraints: from (inclusive), to (exclusive), prefix. */
  static KeySpace.Range idRange(Query query) {
    KeySpace.Range range = new KeySpace.Range(query.from(), true, query.to(), false);
    if (query.prefix() != null && !query.prefix().isEmpty()) {
      range =
          range.intersect(
              new KeySpace.Range(query.prefix(), true, KeyText.prefixEnd(query.prefix()), false));
    }
    return range;
  }

  /** One segment per partition, with that partition's id ranges merged; sorted by partition key. */
  private static List<Plan.Segment> pointSegments(List<KeySpace.Box> boxes) {
    Map<String, List<KeySpace.Range>> byPartition = new TreeMap<>(KeySpace::compare);
    for (KeySpace.Box b : boxes) {
      byPartition.computeIfAbsent(b.partitionKeys().low(), k -> new ArrayList<>()).add(b.ids());
    }
    List<Plan.Segment> segments = new ArrayList<>();
    byPartition.forEach(
        (pk, ranges) -> {
          for (KeySpace.Range r : merge(ranges)) {
            segments.add(new Plan.Segment(pk, KeySpace.Range.point(pk), r));
          }
        });
    return segments;
  }

  /** Disjoint ranges covering the same strings, sorted. */
  private static List<KeySpace.Range> merge(List<KeySpace.Range> ranges) {
    List<KeySpace.Range> sorted = new ArrayList<>(ranges);
    sorted.sort(
        Comparator.comparing(KeySpace.Range::low, Comparator.nullsFirst(KeySpace::compare)));
    List<KeySpace.Range> out = new ArrayList<>();
    for (KeySpace.Range r : sorted) {
      if (!out.isEmpty() && out.get(out.size() - 1).meets(r)) {
        out.set(out.size() - 1, out.get(out.size() - 1).hull(r));
      } else {
        out.add(r);
      }
    }
    return out;
  }

  private static String describe(List<Plan.Segment> segments) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < segments.size() && i < 5; i++) {
      Plan.Segment s = segments.get(i);
      sb.append(i == 0 ? "" : "; ")
          .append("partition '")
          .append(s.partitionKey())
          .append("', ")
          .append(
              s.ids().isAll() ? "all ids" : s.ids().isPoint() ? "id " + s.ids() : "ids " + s.ids());
    }
    if (segments.size() > 5) {
      sb.append("; and ").append(segments.size() - 5).append(" more");
    }
    return sb.toString();
  }

  /** A lookup or prefix range in a ready view whose key the filter's equalities render. */
  private Plan viewPlan(TableEntry table, Query query, Filter filter) {
    Map<String, Value> known = new HashMap<>();
    String pk = null;
    String id = null;
    for (Filter term : conjuncts(filter, new ArrayList<>())) {
      // every equality: each view's templates take only the literals they render exactly
      // (KeyTemplate#renderPrefix)
      if (term instanceof Filter.Compare c && c.op() == Filter.Op.EQ) {
        var system = Filters.system(c.property());
        if (system.isEmpty()) {
          known.put(c.property(), c.literal());
        } else if (c.literal() instanceof Value.Str s) {
          switch (system.get()) {
            case PARTITION_KEY -> pk = s.value();
            case ID -> id = s.value();
            default -> {}
          }
        }
      }
    }
    if (known.isEmpty()) {
      return null;
    }
    Plan.ViewRead best = null;
    for (ViewHandle view : table.views()) {
      if (!view.isReady() || !view.spec().isCopy()) {
        continue; // a history or partitions view is not a copy of its source: it cannot answer
      }
      KeyTemplate.Prefix[] key = view.spec().lookup(pk, id, known);
      if (key == null) {
        continue;
      }
      boolean covering =
          view.spec().copiesAll()
              || (!query.select().isEmpty()
                  && query.select().stream().allMatch(view.spec()::copies)
                  && Filters.properties(filter).stream()
                      .allMatch(p -> Filters.system(p).isPresent() || view.spec().copies(p)));
      String description =
          (key[1].complete()
                  ? "lookup of id '" + key[1].text() + "'"
                  : key[1].text().isEmpty()
                      ? "all ids"
                      : "ids starting with '" + key[1].text() + "'")
              + " in partition '"
              + key[0].text()
              + "' of view "
              + view.name()
              + (covering ? ", answered from the view's copy" : ", then each source item");
      Plan.ViewRead candidate =
          new Plan.ViewRead(
              view,
              new Plan.ViewKey(key[0].text(), key[1].text(), key[1].complete()),
              covering,
              new QueryPlan(
                  QueryPlan.VIEW_LOOKUP,
                  view.name(),
                  description,
                  "the filter fixes the key of ready view " + view.name() + " by equality"));
      Plan.ViewKey k = candidate.key();
      if (best == null
          || (k.exact() && !best.key().exact())
          || (k.exact() == best.key().exact()
              && k.idPrefix().length() > best.key().idPrefix().length())) {
        best = candidate;
      }
    }
    return best;
  }

  private static List<Filter> conjuncts(Filter f, List<Filter> out) {
    if (f instanceof Filter.And and) {
      conjuncts(and.left(), out);
      conjuncts(and.right(), out);
    } else {
      out.add(f);
    }
    return out;
  }
}
