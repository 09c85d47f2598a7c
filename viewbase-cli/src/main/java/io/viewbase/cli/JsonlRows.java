package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ItemBody;
import io.viewbase.json.ItemJson;

/**
 * Reads JSON Lines: each line an item as the native API writes it ({@link ItemJson}), with its
 * {@code partitionKey} and {@code id}; system properties ({@code _etag}, {@code _timestamp}, a view
 * item's origin) are read and dropped, as a write body's are. Blank lines are skipped.
 *
 * <pre>
 * line                                   | row
 * ---------------------------------------+-----------------------------------------------------
 * an item object with partitionKey, id   | the item (the engine checks the rest at the commit)
 * no partitionKey or no id               | rejected: InvalidKey
 * malformed JSON, not an object          | rejected: InvalidJson (line and column)
 * a bad value or annotation              | rejected: InvalidValue
 * longer than the bound                  | rejected: ItemTooLarge, skipped without being held
 * </pre>
 */
final class JsonlRows implements ImportRow.Reader {
  private final ByteInput input;
  private final Limits limits;
  private final int maxLineBytes;

  JsonlRows(ByteInput input, Limits limits, int maxLineBytes) {
    this.input = input;
    this.limits = limits;
    this.maxLineBytes = maxLineBytes;
  }

  @Override
  public ImportRow next() {
    while (true) {
      ByteInput.Line line = input.readLine(maxLineBytes);
      if (line == null) {
        return null;
      }
      long bytes = line.length() + 1;
      if (line.tooLong()) {
        return ImportRow.rejected(line.number(), bytes, tooLong(line.length(), maxLineBytes));
      }
      if (blank(line.bytes())) {
        continue;
      }
      try {
        ItemBody body = ItemJson.read(line.bytes(), limits);
        if (body.partitionKey() == null || body.id() == null) {
          throw new ViewbaseException(
              ErrorCode.InvalidKey, "A row needs its partitionKey and id (JSON strings)");
        }
        return ImportRow.of(
            line.number(), bytes, Item.of(body.partitionKey(), body.id(), body.properties()));
      } catch (ViewbaseException rejected) {
        return ImportRow.rejected(line.number(), bytes, rejected);
      }
    }
  }

  /** The error of a row longer than an import reads: no item within the limit is that long. */
  static ViewbaseException tooLong(long length, int max) {
    return ViewbaseException.of(
        ErrorCode.ItemTooLarge,
        "The row is longer than an import reads (4 times the item size limit)",
        "bytes",
        length,
        "maxRowBytes",
        max);
  }

  private static boolean blank(byte[] bytes) {
    for (byte b : bytes) {
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }
}
