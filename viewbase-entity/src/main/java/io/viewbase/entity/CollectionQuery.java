package io.viewbase.entity;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A query of a collection: the items of every member entity under one partition key, read from each
 * member's index (the same partition in the table for primary indexes, one view per secondary
 * index) and grouped by entity. A page holds at most {@code limit} items of each member; its cursor
 * carries each member's own continuation.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class CollectionQuery {
  private static final TypeReference<LinkedHashMap<String, String>> CURSOR =
      new TypeReference<>() {};

  private final ServiceTable bound;
  private final String name;
  private final List<Service.Member> members;
  private final Map<String, ?> partitionKey;
  private String where;
  private int limit = io.viewbase.api.Query.DEFAULT_LIMIT;

  CollectionQuery(
      ServiceTable bound, String name, List<Service.Member> members, Map<String, ?> partitionKey) {
    this.bound = bound;
    this.name = name;
    this.members = members;
    this.partitionKey = partitionKey;
  }

  /** An OData $filter over stored fields, applied to every member's items. */
  public CollectionQuery where(String filter) {
    this.where = filter;
    return this;
  }

  public CollectionQuery limit(int pageSize) {
    this.limit = pageSize;
    return this;
  }

  public CollectionPage page() {
    return page(null);
  }

  public CollectionPage page(String cursor) {
    Map<String, String> pending = cursor == null ? null : decode(cursor);
    Map<String, List<Object>> byEntity = new LinkedHashMap<>();
    Map<String, String> next = new LinkedHashMap<>();
    for (Service.Member m : members) {
      String entity = m.entity().name();
      byEntity.put(entity, new ArrayList<>());
      if (pending != null && !pending.containsKey(entity)) {
        continue;
      }
      EntityPage<?> page = query(m).page(pending == null ? null : emptyToNull(pending.get(entity)));
      byEntity.get(entity).addAll(page.items());
      if (page.cursor() != null) {
        next.put(entity, page.cursor());
      }
    }
    return new CollectionPage(byEntity, next.isEmpty() ? null : encode(next));
  }

  /** Every item of every member, following cursors. */
  public CollectionPage all() {
    Map<String, List<Object>> byEntity = new LinkedHashMap<>();
    String cursor = null;
    do {
      CollectionPage page = page(cursor);
      page.byEntity()
          .forEach((e, items) -> byEntity.computeIfAbsent(e, k -> new ArrayList<>()).addAll(items));
      cursor = page.cursor();
    } while (cursor != null);
    return new CollectionPage(byEntity, null);
  }

  private EntityQuery<?> query(Service.Member m) {
    EntityQuery<?> q =
        bound.entity(m.entity()).query(m.layout().index().name(), partitionKey).limit(limit);
    return where == null ? q : q.where(where);
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private String encode(Map<String, String> continuations) {
    try {
      byte[] json = Json.MAPPER.writeValueAsBytes(continuations);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings always writes", e);
    }
  }

  private Map<String, String> decode(String cursor) {
    try {
      return Json.MAPPER.readValue(
          new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8), CURSOR);
    } catch (IllegalArgumentException | JsonProcessingException e) {
      throw ViewbaseException.of(
          ErrorCode.InvalidContinuation,
          "The cursor was not issued by a query of the " + "collection '" + name + "'",
          "collection",
          name);
    }
  }
}
