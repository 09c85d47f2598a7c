package io.viewbase.cli;

import io.viewbase.api.Item;
import io.viewbase.api.ViewbaseException;

/**
 * One row of an import's input: the item it describes, or why it describes none.
 *
 * @param line the line it starts on
 * @param bytes how many bytes of input it took (an estimate of its item's size in a batch)
 * @param item the item, or null when the row is rejected
 * @param error null, or why the row is rejected
 */
record ImportRow(long line, long bytes, Item item, ViewbaseException error) {
  static ImportRow of(long line, long bytes, Item item) {
    return new ImportRow(line, bytes, item, null);
  }

  static ImportRow rejected(long line, long bytes, ViewbaseException error) {
    return new ImportRow(line, bytes, null, error);
  }

  /** The rows of an input, one at a time. */
  interface Reader {
    /** The next row, or null at the end of the input. */
    ImportRow next();
  }
}
