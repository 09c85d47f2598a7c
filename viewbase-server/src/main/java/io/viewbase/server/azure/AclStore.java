package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Where table access policies live: the table's setting {@value #SETTING} in the catalog ({@link
 * Database#setting}), holding Azure's {@code SignedIdentifiers} XML. A setting is no item: no
 * listing or item API shows or changes it, and every way of dropping the table (Delete Table, the
 * Java API, the native API, the CLI) deletes it with the table, so a table created again under the
 * same name starts with no policies and a SAS naming an old one ({@code si}) is refused.
 */
final class AclStore implements StoredPolicies {
  static final String SETTING = "azure.acl";

  private final Database db;

  AclStore(Database db) {
    this.db = db;
  }

  /** The table's policies, in the order they were set; empty if none. Fails with TableNotFound. */
  List<AccessPolicy> get(String table) {
    return db.setting(table, SETTING)
        .map(xml -> SignedIdentifiersXml.read(xml.getBytes(StandardCharsets.UTF_8)))
        .orElse(List.of());
  }

  /**
   * The policy a table SAS names; empty for an unknown identifier or a table that does not exist.
   */
  @Override
  public Optional<AccessPolicy> find(String table, String id) {
    try {
      return get(table).stream().filter(p -> p.id().equals(id)).findFirst();
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Replaces the table's policies; an empty list removes them. */
  void set(String table, List<AccessPolicy> policies) {
    String xml =
        policies.isEmpty()
            ? null
            : new String(SignedIdentifiersXml.write(policies), StandardCharsets.UTF_8);
    db.putSetting(table, SETTING, xml);
  }
}
