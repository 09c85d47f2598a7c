package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Change;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.json.ChangeJson;
import io.viewbase.json.TableOptionsJson;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase changes} and the table options of {@code viewbase table create|alter|show}, run
 * in-process against a real server on RocksDB, and on a data directory.
 */
class ChangeCommandsTest {
  private static final AtomicInteger NAMES = new AtomicInteger();

  @TempDir Path dir;
  private Database db;
  private ViewbaseServer server;
  private int port;
  private List<String> remote;

  @BeforeEach
  void start() throws Exception {
    db = Viewbase.open(OpenOptions.at(Files.createDirectories(dir.resolve("served"))));
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    server = serve();
    remote = List.of("--server", "http://127.0.0.1:" + port);
  }

  /**
   * A server on the test's port. The port was free a moment ago; on a restart, a follower's
   * connection attempt may hold it briefly (its own ephemeral port can be this one), so a refused
   * bind is tried again for a while rather than failing the test.
   */
  private ViewbaseServer serve() {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try {
        return ViewbaseServer.start(
            db, ServerOptions.defaults().withPort(port).withWorkerThreads(4));
      } catch (java.io.UncheckedIOException refused) {
        if (System.nanoTime() > deadline) {
          throw refused;
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw refused;
        }
      }
    }
  }

  @AfterEach
  void stop() {
    server.close();
    db.close();
  }

  private static String name() {
    return "Cli" + NAMES.incrementAndGet();
  }

  private String feedTable() {
    String t = name();
    Cli created = Cli.run(remote, "table", "create", t, "--change-feed");
    assertThat(created.exitCode()).as(created.toString()).isZero();
    return t;
  }

  private static TableOptions options(Cli printed) {
    assertThat(printed.exitCode()).as(printed.toString()).isZero();
    return TableOptionsJson.readDescribed(printed.out().trim().getBytes(StandardCharsets.UTF_8))
        .orElseThrow();
  }

  private static List<Change> entries(String out) {
    return out.lines()
        .map(l -> ChangeJson.read(l.getBytes(StandardCharsets.UTF_8), Limits.DEFAULT))
        .toList();
  }

  @Test
  void tableCreateWithFeedFlagsPrintsTheOptionsAndShowPrintsThemAgain() {
    String t = name();
    Cli created =
        Cli.run(
            remote,
            "table",
            "create",
            t,
            "--change-feed",
            "--before-images",
            "--retention",
            "7d",
            "--max-entries",
            "50",
            "--ttl",
            "1h");
    TableOptions expected =
        new TableOptions(
            new TableOptions.ChangeFeed(true, true, Duration.ofDays(7), 50), Duration.ofHours(1));
    assertThat(options(created)).isEqualTo(expected);
    assertThat(created.out()).contains("\"name\":\"" + t + "\"");
    assertThat(options(Cli.run(remote, "table", "show", t))).isEqualTo(expected);
    assertThat(db.tableOptions(t)).isEqualTo(expected);
    Cli table = Cli.run(remote, "table", "show", t, "--format", "table");
    assertThat(table.out()).contains("changeFeed", "on", "PT168H", "PT1H");
  }

  @Test
  void tableAlterChangesOnlyTheOptionsItNames() {
    String t = name();
    Cli.run(remote, "table", "create", t, "--change-feed", "--retention", "2h", "--ttl", "1h");
    TableOptions off = options(Cli.run(remote, "table", "alter", t, "--no-change-feed"));
    assertThat(off.changeFeed())
        .isEqualTo(new TableOptions.ChangeFeed(false, false, Duration.ofHours(2), 10_000_000));
    assertThat(off.ttl()).isEqualTo(Duration.ofHours(1));
    TableOptions on =
        options(
            Cli.run(remote, "table", "alter", t, "--change-feed", "--before-images", "--no-ttl"));
    assertThat(on.changeFeed().enabled()).isTrue();
    assertThat(on.changeFeed().beforeImages()).isTrue();
    assertThat(on.changeFeed().retention()).isEqualTo(Duration.ofHours(2));
    assertThat(on.ttl()).isNull();
    assertThat(db.tableOptions(t)).isEqualTo(on);
  }

  @Test
  void optionsThatMakeNoSenseAreUsageErrors() {
    String t = name();
    Cli tuningAlone = Cli.run(remote, "table", "create", t, "--retention", "2h");
    assertThat(tuningAlone.exitCode()).isEqualTo(2);
    assertThat(tuningAlone.err()).contains("add --change-feed");
    assertThat(Cli.run(remote, "table", "create", t, "--ttl", "1").exitCode()).isEqualTo(2);
    Cli.run(remote, "table", "create", t);
    assertThat(Cli.run(remote, "table", "alter", t).exitCode()).isEqualTo(2);
    assertThat(Cli.run(remote, "table", "alter", t, "--ttl", "1h", "--no-ttl").exitCode())
        .isEqualTo(2);
    Cli unknown = Cli.run(remote, "table", "alter", "Nope" + t, "--change-feed");
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err()).startsWith("error: TableNotFound: ");
  }

  @Test
  void changesPrintsOneEntryPerLineAndNamesTheNextPosition() {
    String t = feedTable();
    for (String id : List.of("a", "b", "c")) {
      assertThat(Cli.run(remote, "put", t, "p", id, "{\"v\":1}").exitCode()).isZero();
    }
    Cli first = Cli.run(remote, "changes", t, "--limit", "2");
    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(entries(first.out())).extracting(Change::id).containsExactly("a", "b");
    assertThat(first.err()).isEqualTo("next: --after 2" + System.lineSeparator());
    Cli rest = Cli.run(remote, "changes", t, "--after", "2");
    assertThat(entries(rest.out())).extracting(Change::sequence).containsExactly(3L);
    assertThat(rest.err()).isEmpty();
    assertThat(entries(rest.out()).get(0).item())
        .isEqualTo(db.table(t).get("p", "c").orElseThrow());
    Cli table = Cli.run(remote, "changes", t, "--format", "table");
    assertThat(table.out()).contains("sequence", "insert", "3+1");
  }

  @Test
  void changesOfATableWithoutAFeedFailWithChangeFeedDisabled() {
    String t = name();
    Cli.run(remote, "table", "create", t);
    Cli r = Cli.run(remote, "changes", t);
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: ChangeFeedDisabled: ");
    Cli follow = Cli.run(remote, "changes", t, "--follow");
    assertThat(follow.exitCode()).isEqualTo(1);
    assertThat(follow.err()).startsWith("error: ChangeFeedDisabled: ");
  }

  @Test
  void followPrintsEntriesAsTheyCommitAcrossAServerRestartUntilInterrupted() throws Exception {
    String t = feedTable();
    db.table(t).insert(Item.builder("p", "before").build());
    Following following = new Following(remote, "changes", t, "--follow", "--after", "1");
    db.table(t).insert(Item.builder("p", "one").build());
    following.await(out -> out.lines().count() == 1);

    // The follower's parked poll is answered; its next one finds a server shutting down
    // (ShuttingDown) or nobody (StorageUnreachable): either way it warns and retries
    server.close();
    following.awaitErr(err -> err.contains("warning: "));
    db.table(t).insert(Item.builder("p", "two").build());
    server = serve();
    db.table(t).insert(Item.builder("p", "three").build());
    following.await(out -> out.lines().count() == 3);
    assertThat(following.stop()).isZero();

    assertThat(entries(following.out.toString()))
        .extracting(Change::sequence, Change::id)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(2L, "one"),
            org.assertj.core.groups.Tuple.tuple(3L, "two"),
            org.assertj.core.groups.Tuple.tuple(4L, "three"));
    assertThat(following.err.toString()).contains("resumed after sequence 2");
  }

  @Test
  void changesReadADataDirectoryToo() {
    Path data = dir.resolve("local");
    List<String> local = List.of("--data", data.toString());
    data.toFile().mkdirs();
    assertThat(Cli.run(local, "table", "create", "Local", "--change-feed").exitCode()).isZero();
    assertThat(Cli.run(local, "put", "Local", "p", "i", "{}").exitCode()).isZero();
    Cli r = Cli.run(local, "changes", "Local");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(entries(r.out())).extracting(Change::kind).containsExactly(Change.Kind.INSERT);
  }

  /** {@code viewbase changes --follow} on a thread of its own, its output readable as it goes. */
  private static final class Following {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final Thread thread;
    volatile int exitCode = -1;

    Following(List<String> connection, String... args) {
      String[] all = new String[args.length + connection.size()];
      System.arraycopy(args, 0, all, 0, args.length);
      for (int i = 0; i < connection.size(); i++) {
        all[args.length + i] = connection.get(i);
      }
      thread =
          new Thread(
              () ->
                  exitCode =
                      Main.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                          .execute(all),
              "follow");
      thread.start();
    }

    void await(Predicate<String> printed) throws InterruptedException {
      awaitOn(out, printed);
    }

    void awaitErr(Predicate<String> printed) throws InterruptedException {
      awaitOn(err, printed);
    }

    private void awaitOn(StringWriter w, Predicate<String> printed) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!printed.test(w.toString())) {
        assertThat(thread.isAlive()).as("the follower ended: " + err).isTrue();
        assertThat(System.nanoTime() - deadline).as("out: " + out + "\nerr: " + err).isNegative();
        Thread.sleep(10);
      }
    }

    int stop() throws InterruptedException {
      thread.interrupt();
      thread.join(Duration.ofSeconds(30).toMillis());
      assertThat(thread.isAlive()).as("the follower stops when interrupted").isFalse();
      return exitCode;
    }
  }
}
