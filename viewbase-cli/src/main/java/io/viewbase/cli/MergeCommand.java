package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase merge TABLE PK ID JSON}: sets the given properties and keeps the others; prints
 * the item as stored.
 *
 * <pre>
 * options          | operation   | item absent            | item present
 * -----------------+-------------+------------------------+-------------------------------------
 * (none)           | upsertMerge | stored                 | properties merged
 * --if-match ETAG  | merge       | 412 PreconditionFailed | merged if ETAG is current, else 412
 * --if-match '*'   | merge       | 404 ItemNotFound       | properties merged
 * </pre>
 */
@Command(
    name = "merge",
    mixinStandardHelpOptions = true,
    description = "Set some properties of an item, keeping the others; prints the stored item.")
final class MergeCommand extends DataCommand {
  @Mixin ItemKey key;

  @Parameters(
      index = "3",
      paramLabel = "JSON|@FILE|-",
      description = "The properties to set as JSON, @file to read a file, - for stdin.")
  String body;

  @Option(
      names = "--if-match",
      paramLabel = "ETAG",
      description = "Merge only into this version of the item ('*': any existing version).")
  String ifMatch;

  @Override
  void run(Database db) {
    Item patch = ItemBody.read(body, key.partitionKey, key.id, db.limits(), System.in);
    Table table = db.table(key.table);
    output.item(out(), ifMatch == null ? table.upsertMerge(patch) : table.merge(patch, ifMatch));
  }
}
