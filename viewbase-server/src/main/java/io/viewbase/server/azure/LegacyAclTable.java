package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Query;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves access policies out of the ordinary table {@value #TABLE}, where the dialect kept them
 * before they became table settings ({@link AclStore}): one item per table, partition {@code acl},
 * id the table's lower-case name, property {@code SignedIdentifiers} holding the XML.
 *
 * <pre>
 * record names                          | then
 * --------------------------------------+-----------------------------------------------------------
 * a table with no policy setting yet    | the XML becomes its setting
 * a table that has one already          | the setting wins (it was written after an earlier move)
 * no table (dropped, the old leak)      | left behind: its policies die with the old table
 * anything not of that shape            | nothing is moved or dropped: the table is a user's table
 * </pre>
 *
 * Then the old table is dropped and one line logged. It runs each time the dialect starts and finds
 * nothing to do once done; after it, {@value #TABLE} is an ordinary name.
 */
final class LegacyAclTable {
  static final String TABLE = "ViewbaseAzureAcl";
  private static final Logger LOG = LoggerFactory.getLogger(LegacyAclTable.class);
  private static final String PARTITION = "acl";
  private static final String PROPERTY = "SignedIdentifiers";

  private LegacyAclTable() {}

  /** The records of a table the dialect wrote, by table name and XML. */
  private record Record(String table, String xml) {}

  static void migrate(Database db) {
    if (db.listTables().stream()
        .noneMatch(t -> t.name().equalsIgnoreCase(TABLE) && TableInfo.TABLE.equals(t.kind()))) {
      return;
    }
    try {
      List<Record> records = read(db);
      if (records == null) {
        LOG.warn(
            "A table named {} holds items the Azure dialect did not write; it is left as it is",
            TABLE);
        return;
      }
      int moved = 0;
      int orphaned = 0;
      for (Record r : records) {
        if (move(db, r)) {
          moved++;
        } else {
          orphaned++;
        }
      }
      db.dropTable(TABLE);
      LOG.info(
          "Azure access policies moved from table {} into the catalog: {} tables' moved, {} of tables that "
              + "no longer exist left out; {} dropped",
          TABLE,
          moved,
          orphaned,
          TABLE);
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        return; // another server sharing the store moved them first
      }
      if (e.code() == ErrorCode.NotImplemented) {
        LOG.warn(
            "The database keeps no settings, so the access policies in {} stay there unused",
            TABLE);
        return;
      }
      throw e;
    }
  }

  /** Every record, or null if an item is not one the dialect wrote (or its XML does not read). */
  private static List<Record> read(Database db) {
    List<Record> records = new ArrayList<>();
    try (ItemCursor items = db.table(TABLE).cursor(Query.all())) {
      while (items.hasNext()) {
        Item item = items.next();
        if (!PARTITION.equals(item.partitionKey())
            || item.properties().size() != 1
            || !(item.properties().get(PROPERTY) instanceof Value.Str xml)) {
          return null;
        }
        try {
          SignedIdentifiersXml.read(xml.value().getBytes(StandardCharsets.UTF_8));
        } catch (ViewbaseException unreadable) {
          return null;
        }
        records.add(new Record(item.id(), xml.value()));
      }
    }
    return records;
  }

  /** Whether the record's table exists (its policies are then in its setting). */
  private static boolean move(Database db, Record r) {
    try {
      if (db.setting(r.table(), AclStore.SETTING).isEmpty()) {
        db.putSetting(r.table(), AclStore.SETTING, r.xml());
      }
      return true;
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.TableNotFound) {
        return false;
      }
      throw e;
    }
  }
}
