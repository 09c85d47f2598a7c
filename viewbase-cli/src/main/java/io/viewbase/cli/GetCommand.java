package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code viewbase get TABLE PK ID}: prints one item, or fails with ItemNotFound. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Read one item.")
final class GetCommand extends DataCommand {
  @Mixin ItemKey key;

  @Override
  void run(Database db) {
    output.item(
        out(),
        db.table(key.table)
            .get(key.partitionKey, key.id)
            .orElseThrow(
                () ->
                    ViewbaseException.of(
                        ErrorCode.ItemNotFound,
                        "Item not found",
                        "table",
                        key.table,
                        "partitionKey",
                        key.partitionKey,
                        "id",
                        key.id)));
  }
}
