package io.viewbase.cli;

import io.viewbase.api.Database;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code viewbase delete TABLE PK ID}: deletes one item and prints nothing. An absent item fails
 * with ItemNotFound; {@code --if-match ETAG} deletes only that version (else PreconditionFailed).
 */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete one item.")
final class DeleteCommand extends DataCommand {
  @Mixin ItemKey key;

  @Option(
      names = "--if-match",
      paramLabel = "ETAG",
      description = "Delete only this version of the item.")
  String ifMatch;

  @Override
  void run(Database db) {
    db.table(key.table).delete(key.partitionKey, key.id, ifMatch);
  }
}
