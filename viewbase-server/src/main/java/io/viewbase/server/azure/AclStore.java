package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where table access policies live: the system table {@value #TABLE}, one item per table (partition
 * {@code acl}, id the table's lower-case name) holding the policies as Azure's XML. It goes through
 * the public Database API, so it is as durable as any data and works on every backend; the dialect
 * hides it from Query Tables and refuses to address it.
 */
final class AclStore implements StoredPolicies {
  static final String TABLE = "ViewbaseAzureAcl";
  private static final String PARTITION = "acl";
  private static final String PROPERTY = "SignedIdentifiers";

  private final Database db;

  AclStore(Database db) {
    this.db = db;
  }

  static boolean isSystemTable(String name) {
    return name != null && name.equalsIgnoreCase(TABLE);
  }

  List<AccessPolicy> get(String table) {
    Optional<Item> item = store(false).flatMap(t -> t.get(PARTITION, table.toLowerCase(Locale.ROOT)));
    if (item.isEmpty()) {
      return List.of();
    }
    Value xml = item.get().properties().get(PROPERTY);
    return xml instanceof Value.Str s ? SignedIdentifiersXml.read(s.value().getBytes(StandardCharsets.UTF_8))
        : List.of();
  }

  @Override
  public Optional<AccessPolicy> find(String table, String id) {
    return get(table).stream().filter(p -> p.id().equals(id)).findFirst();
  }

  void set(String table, List<AccessPolicy> policies) {
    String id = table.toLowerCase(Locale.ROOT);
    if (policies.isEmpty()) {
      clear(table);
      return;
    }
    String xml = new String(SignedIdentifiersXml.write(policies), StandardCharsets.UTF_8);
    store(true).orElseThrow().upsert(Item.of(PARTITION, id, Map.of(PROPERTY, Value.of(xml))));
  }

  void clear(String table) {
    store(false).ifPresent(t -> {
      try {
        t.delete(PARTITION, table.toLowerCase(Locale.ROOT), null);
      } catch (ViewbaseException e) {
        if (e.code() != ErrorCode.ItemNotFound) {
          throw e;
        }
      }
    });
  }

  private Optional<Table> store(boolean create) {
    try {
      return Optional.of(db.table(TABLE));
    } catch (ViewbaseException e) {
      if (e.code() != ErrorCode.TableNotFound || !create) {
        if (e.code() == ErrorCode.TableNotFound) {
          return Optional.empty();
        }
        throw e;
      }
    }
    try {
      db.createTable(TABLE);
    } catch (ViewbaseException e) {
      if (e.code() != ErrorCode.TableAlreadyExists) {
        throw e;
      }
    }
    return Optional.of(db.table(TABLE));
  }
}
