package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code viewbase view create|status|drop NAME}: the lifecycle of a view. */
@Command(
    name = "view",
    mixinStandardHelpOptions = true,
    description = "Create a view (and watch its backfill), show its status, or drop it.",
    subcommands = {ViewCommand.Create.class, ViewCommand.Status.class, ViewCommand.Drop.class})
final class ViewCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand: create, status or drop");
  }

  /**
   * Creates a view and, unless {@code --no-wait}, waits for its backfill with a progress display on
   * stderr, then prints the final status on stdout.
   *
   * <pre>
   * outcome                  | stdout        | stderr                          | exit
   * -------------------------+---------------+---------------------------------+-----
   * ready                    | the status    | progress, then "NAME ready: …"  | 0
   * failed (duplicate keys)  | the status    | progress, "error: …", conflicts | 1
   * --no-wait                | the status    | nothing                         | 0
   * refused (bad definition) | nothing       | error: &lt;Code&gt;: …                | 1
   * </pre>
   */
  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Create a view of a table, keyed by other properties; wait for its backfill.",
        "Templates: literal text with {property}, {partitionKey}, {id}, {n:08} (zero-padded integer), "
            + "{email|lower}, {price|key} (sorts in value order). Items lacking a template's"
            + " property or failing --where are left out."
      })
  static final class Create extends DataCommand {
    /**
     * Often enough for a progress bar to move smoothly, rarely enough to cost the server nothing.
     */
    private static final long POLL_MILLIS = 250;

    @Parameters(
        index = "0",
        paramLabel = "NAME",
        description = "The view name (shares the namespace of tables).")
    String name;

    @Option(
        names = "--source",
        required = true,
        paramLabel = "TABLE",
        description = "The source table.")
    String source;

    @Option(
        names = "--kind",
        paramLabel = "KIND",
        description =
            "copy (default: the items under other keys), history (an entry per write, in commit "
                + "order) or partitions (an entry per non-empty source partition, its count).")
    String kind;

    @Option(
        names = "--partition-by",
        paramLabel = "TPL",
        description =
            "Template of the view's partition key (default: {partitionKey} for a copy, "
                + "{partitionKey}#{id} for a history, all for a partitions view).")
    String partitionBy;

    @Option(
        names = "--id-by",
        paramLabel = "TPL",
        description = "Template of a copy view's id (default: the source's {id}).")
    String idBy;

    @Option(
        names = "--max-versions",
        paramLabel = "N",
        description = "History views: keep the newest N entries of each view partition.")
    Long maxVersions;

    @Option(
        names = "--max-age",
        paramLabel = "DURATION",
        converter = DurationConverter.class,
        description = "History views: keep entries younger than this (30s, 12h, 30d).")
    Duration maxAge;

    @Option(
        names = "--where",
        paramLabel = "FILTER",
        description = "Only items matching this filter, e.g. \"active eq true\".")
    String where;

    @Option(
        names = "--select",
        paramLabel = "a,b",
        split = ",",
        description = "Only these properties are copied (default: all).")
    List<String> select;

    @Option(
        names = "--no-wait",
        description =
            "Print the status at once and leave the backfill running (on a server; with --data it "
                + "resumes the next time the directory is opened).")
    boolean noWait;

    @Override
    void run(Database db) {
      ViewDefinition.Kind viewKind = kind == null ? null : ViewDefinition.Kind.of(kind);
      if (kind != null && viewKind == null) {
        throw new ParameterException(
            spec.commandLine(), "--kind is copy, history or partitions, not " + kind);
      }
      ViewDefinition.Retention retention =
          maxVersions == null && maxAge == null
              ? null
              : new ViewDefinition.Retention(maxVersions == null ? 0 : maxVersions, maxAge);
      ViewStatus status =
          db.createView(
              new ViewDefinition(
                  name, source, partitionBy, idBy, where, select, viewKind, retention));
      if (!noWait) {
        status = await(db, status);
      }
      output.viewStatus(out(), status);
      if (ViewStatus.FAILED.equals(status.state())) {
        reportFailure(err(), status);
        exitWith(1);
      }
    }

    private ViewStatus await(Database db, ViewStatus created) {
      BuildProgress progress = new BuildProgress(err(), name, BuildProgress.interactive());
      ViewStatus status = created;
      while (ViewStatus.BUILDING.equals(status.state())) {
        if (status.progress() != null) {
          progress.update(status.progress());
        }
        sleep();
        status = db.viewStatus(name);
      }
      progress.finish(status);
      return status;
    }

    private static void sleep() {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "Interrupted while waiting for the view; it goes on building", e);
      }
    }

    private void reportFailure(PrintWriter err, ViewStatus status) {
      err.println(
          "error: view "
              + name
              + " failed: its source has items that map to the same view key "
              + "(a view key is unique); drop the view, fix the data or the template, and create it again");
      for (ViewStatus.Conflict c : status.conflicts()) {
        err.println("  " + BuildProgress.describe(c));
      }
      err.flush();
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "Show a view's definition, state (building, ready, failed) and backfill progress.")
  static final class Status extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The view name.")
    String name;

    @Override
    void run(Database db) {
      output.viewStatus(out(), db.viewStatus(name));
    }
  }

  @Command(
      name = "drop",
      mixinStandardHelpOptions = true,
      description = "Drop a view and its data (not its source).")
  static final class Drop extends DataCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The view name.")
    String name;

    @Override
    void run(Database db) {
      db.dropView(name);
    }
  }
}
