package io.viewbase.server.dynamodb;

import io.viewbase.api.ChangePage;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Table;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewbaseException;

/**
 * A DynamoDB stream is its table's Viewbase change feed ({@code docs/changes.md}): turning the
 * stream on turns the feed on, with before-images whatever the view type, and notes where the
 * stream begins in the feed; turning it off turns the feed off.
 *
 * <pre>
 * StreamSpecification       | the Viewbase table's changeFeed option        | Stream.startAfter
 * --------------------------+-----------------------------------------------+----------------------
 * enabled at CreateTable    | created on, with before-images                | 0
 * enabled by UpdateTable    | turned on, with before-images (its retention   | the feed's latest
 *                           |   and maxEntries kept: 24 h, 10 million)      |   sequence then
 * disabled by UpdateTable   | turned off                                    | (no stream)
 * </pre>
 *
 * Before-images are kept for every view type, not only OLD_IMAGE and NEW_AND_OLD_IMAGES, because
 * the stream's records need the old item whatever the view type: a REMOVE's Keys (a feed entry
 * names the item by its Viewbase identity, whose numbers and binaries are key text), and the test
 * that drops a MODIFY which changed no attribute (DynamoDB writes no record for a write that
 * changes nothing, and the time-to-live pass rewrites items to set {@code _ttl} only). The cost is
 * the old item's bytes in each entry.
 */
final class StreamFeeds {
  private final Database db;

  StreamFeeds(Database db) {
    this.db = db;
  }

  /** The options a table is created with: its change feed on when its stream is. */
  static TableOptions optionsFor(DynamoDbTable.Stream stream) {
    if (stream == null || !stream.enabled()) {
      return TableOptions.DEFAULT;
    }
    return TableOptions.DEFAULT.withChangeFeed(TableOptions.ChangeFeed.ON.withBeforeImages(true));
  }

  /**
   * Turns a table's change feed on for a stream enabled now, and answers where the stream begins:
   * the feed's latest sequence number once it is on, so that every write acknowledged after the
   * UpdateTable that enables the stream is one of its records, and no entry of an earlier stream
   * is.
   */
  long start(DynamoDbTable table) {
    String name = table.viewbaseName();
    TableOptions options = db.tableOptions(name);
    TableOptions.ChangeFeed feed = options.changeFeed();
    db.alterTable(
        name,
        options.withChangeFeed(
            new TableOptions.ChangeFeed(true, true, feed.retention(), feed.maxEntries())));
    return bounds(db.table(name), 0).latest();
  }

  /** Turns a table's change feed off, its stream having been disabled. */
  void stop(DynamoDbTable table) {
    String name = table.viewbaseName();
    TableOptions options = db.tableOptions(name);
    TableOptions.ChangeFeed feed = options.changeFeed();
    if (feed.enabled()) {
      db.alterTable(
          name,
          options.withChangeFeed(
              new TableOptions.ChangeFeed(false, false, feed.retention(), feed.maxEntries())));
    }
  }

  /**
   * What a feed holds after a position: the oldest entry it still holds and its latest.
   *
   * @param oldest the oldest sequence number held (latest + 1 when it holds none)
   * @param latest the latest sequence number committed
   */
  record Bounds(long oldest, long latest) {}

  /** The feed's bounds, read with one page read after {@code after} (or after its oldest). */
  static Bounds bounds(Table items, long after) {
    ChangePage page;
    try {
      page = items.changes(after, 1);
    } catch (ViewbaseException e) {
      if (e.code() != ErrorCode.ChangesExpired) {
        throw e;
      }
      // retention dropped the entries after `after`: read after the oldest held instead
      long oldest = ((Number) e.context().get("oldest")).longValue();
      page = items.changes(oldest - 1, 1);
    }
    return new Bounds(page.oldest(), page.latest());
  }
}
