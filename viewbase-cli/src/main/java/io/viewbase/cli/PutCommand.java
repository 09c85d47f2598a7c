package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase put TABLE PK ID [JSON | @file | -]}: stores a whole item and prints it as stored,
 * with its new {@code _etag}.
 *
 * <pre>
 * options              | operation | item absent           | item present
 * ---------------------+-----------+-----------------------+------------------------------------
 * (none)               | upsert    | stored                | replaced
 * --if-match ETAG      | replace   | 412 PreconditionFailed| replaced if ETAG is current, else 412
 * --if-match '*'       | replace   | 404 ItemNotFound      | replaced
 * --if-none-match      | insert    | stored                | 409 ItemAlreadyExists
 * </pre>
 */
@Command(
    name = "put",
    mixinStandardHelpOptions = true,
    description = "Store an item (replacing all its properties); prints the stored item.")
final class PutCommand extends DataCommand {
  @Mixin ItemKey key;

  @Parameters(
      index = "3",
      arity = "0..1",
      paramLabel = "JSON|@FILE|-",
      description = "The properties as JSON, @file to read a file, - for stdin (default: {}).")
  String body;

  @Option(
      names = "--if-match",
      paramLabel = "ETAG",
      description = "Replace only this version of the item ('*': any existing version).")
  String ifMatch;

  @Option(names = "--if-none-match", description = "Insert only: fail if the item exists.")
  boolean ifNoneMatch;

  @Override
  void run(Database db) {
    if (ifMatch != null && ifNoneMatch) {
      throw new ParameterException(
          spec.commandLine(), "--if-match and --if-none-match are alternatives");
    }
    Item item = ItemBody.read(body, key.partitionKey, key.id, db.limits(), System.in);
    Table table = db.table(key.table);
    Item stored;
    if (ifNoneMatch) {
      stored = table.insert(item);
    } else if (ifMatch != null) {
      stored = table.replace(item, ifMatch);
    } else {
      stored = table.upsert(item);
    }
    output.item(out(), stored);
  }
}
