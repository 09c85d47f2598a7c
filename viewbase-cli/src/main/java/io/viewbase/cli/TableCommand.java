package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.TableInfo;
import io.viewbase.api.TableOptions;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase table create|alter|show|drop NAME}: the lifecycle of a table and its options
 * (change feed, time-to-live). {@code create}, {@code alter} and {@code show} print the table's
 * description with its options, as {@code GET /v1/tables/{t}} answers it.
 *
 * <pre>
 * flag                               | create                   | alter
 * -----------------------------------+--------------------------+----------------------------
 * --change-feed / --no-change-feed   | record a feed            | turn it on / off
 * --before-images / --no-...         | entries keep the before  | on / off
 * --retention 24h                    | how long entries stay    | change it
 * --max-entries N                    | how many entries stay    | change it
 * --ttl 1h / --no-ttl                | items expire after ttl   | set it / remove it
 * (absent)                           | the default: no feed,    | unchanged
 *                                    |   no ttl                 |
 * </pre>
 *
 * Durations take a unit: {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}.
 */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    description = "Create, alter, show or drop a table.",
    subcommands = {
      TableCommand.Create.class,
      TableCommand.Alter.class,
      TableCommand.Show.class,
      TableCommand.Drop.class
    })
final class TableCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "Missing subcommand: create, alter, show or drop");
  }

  /** The feed's tuning flags, which create and alter share. */
  static final class FeedTuning {
    @Option(
        names = "--retention",
        paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "How long the change feed keeps an entry (24h, 7d; default 24h).")
    Duration retention;

    @Option(
        names = "--max-entries",
        paramLabel = "N",
        description = "How many entries the change feed keeps at most (default 10000000).")
    Long maxEntries;

    TableOptions.ChangeFeed over(TableOptions.ChangeFeed feed) {
      return feed.withRetention(
          retention == null ? feed.retention() : retention,
          maxEntries == null ? feed.maxEntries() : maxEntries);
    }

    boolean any() {
      return retention != null || maxEntries != null;
    }
  }

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description =
          "Create a table; prints its description. Names: a letter, then 2-62 letters or digits.")
  static final class Create extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The table name.")
    String name;

    @Option(
        names = "--change-feed",
        description = "Record every committed write in the table's change feed.")
    boolean changeFeed;

    @Option(
        names = "--before-images",
        description = "Feed entries also hold the item as it was before the write.")
    boolean beforeImages;

    @Mixin FeedTuning tuning;

    @Option(
        names = "--ttl",
        paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "Items expire this long after their last write (1h, 30d; default: never).")
    Duration ttl;

    @Override
    void run(Database db) {
      if (!changeFeed && (beforeImages || tuning.any())) {
        throw new ParameterException(
            spec.commandLine(),
            "--before-images, --retention and --max-entries tune a change feed: add --change-feed");
      }
      TableOptions.ChangeFeed feed =
          changeFeed
              ? tuning.over(TableOptions.ChangeFeed.ON.withBeforeImages(beforeImages))
              : TableOptions.ChangeFeed.OFF;
      TableOptions options = new TableOptions(feed, ttl);
      TableInfo created =
          options.equals(TableOptions.DEFAULT)
              ? db.createTable(name)
              : db.createTable(name, options);
      output.table(out(), created, db.tableOptions(created.name()));
    }
  }

  @Command(
      name = "alter",
      mixinStandardHelpOptions = true,
      description =
          "Change a table's options; those not named stay as they are. Prints its description.")
  static final class Alter extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The table name.")
    String name;

    @Option(
        names = "--change-feed",
        negatable = true,
        description =
            "Start (or, with --no-change-feed, stop) recording writes in the change feed.")
    Boolean changeFeed;

    @Option(
        names = "--before-images",
        negatable = true,
        description = "Whether feed entries hold the item as it was before the write.")
    Boolean beforeImages;

    @Mixin FeedTuning tuning;

    @Option(
        names = "--ttl",
        paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "Items expire this long after their last write.")
    Duration ttl;

    @Option(names = "--no-ttl", description = "Items no longer expire by the table's ttl.")
    boolean noTtl;

    @Override
    void run(Database db) {
      if (ttl != null && noTtl) {
        throw new ParameterException(spec.commandLine(), "--ttl and --no-ttl exclude each other");
      }
      if (changeFeed == null && beforeImages == null && !tuning.any() && ttl == null && !noTtl) {
        throw new ParameterException(
            spec.commandLine(),
            "Nothing to change: name at least one of --change-feed, --no-change-feed,"
                + " --before-images, --retention, --max-entries, --ttl, --no-ttl");
      }
      TableOptions now = db.tableOptions(name);
      TableOptions.ChangeFeed feed = tuning.over(now.changeFeed());
      if (beforeImages != null) {
        feed = feed.withBeforeImages(beforeImages);
      }
      if (changeFeed != null) {
        feed =
            new TableOptions.ChangeFeed(
                changeFeed, feed.beforeImages(), feed.retention(), feed.maxEntries());
      }
      TableOptions altered =
          db.alterTable(name, new TableOptions(feed, noTtl ? null : ttl != null ? ttl : now.ttl()));
      output.table(out(), info(db, name), altered);
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print a table's description and options.")
  static final class Show extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The table name.")
    String name;

    @Override
    void run(Database db) {
      TableInfo info = info(db, name);
      output.table(
          out(), info, TableInfo.TABLE.equals(info.kind()) ? db.tableOptions(info.name()) : null);
    }
  }

  @Command(
      name = "drop",
      mixinStandardHelpOptions = true,
      description = "Drop a table and all its items.")
  static final class Drop extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The table name.")
    String name;

    @Override
    void run(Database db) {
      db.dropTable(name);
    }
  }

  /** The description of a table or view; TableNotFound from the database when there is none. */
  static TableInfo info(Database db, String name) {
    String found = db.table(name).name();
    return db.listTables().stream().filter(t -> t.name().equals(found)).findFirst().orElseThrow();
  }
}
