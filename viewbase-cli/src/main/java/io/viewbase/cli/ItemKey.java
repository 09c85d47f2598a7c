package io.viewbase.cli;

import picocli.CommandLine.Parameters;

/** The address of one item, as the first three arguments of an item command: TABLE PK ID. */
final class ItemKey {
  @Parameters(index = "0", paramLabel = "TABLE", description = "The table (or view).")
  String table;

  @Parameters(index = "1", paramLabel = "PK", description = "The partition key.")
  String partitionKey;

  @Parameters(index = "2", paramLabel = "ID", description = "The id within the partition.")
  String id;
}
