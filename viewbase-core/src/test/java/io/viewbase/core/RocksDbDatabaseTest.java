package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.storage.spi.Cursor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RocksDbDatabaseTest extends DatabaseContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.at(directory));
  }

  @Test
  void reopenKeepsTablesItemsAndContinuationTokens() {
    people.insert(person("p", "1", "Ann"));
    for (int i = 0; i < 10; i++) {
      people.upsert(person("q", "id" + i, "n"));
    }
    String token = people.query(Query.partition("q").withLimit(4)).continuation();
    db.close();
    db = open(dir);
    assertThat(db.table("PEOPLE").get("p", "1")).isPresent();
    assertThat(
            db.table("people")
                .query(Query.partition("q").withLimit(4).withContinuation(token))
                .items())
        .hasSize(4);
  }

  @Test
  void aForgedFutureEtagLeavesNoLaterTimestampInTheFutureAfterARestart() {
    people.insert(person("p", "1", "Ann"));
    String forged = "W/\"datetime'2126-01-01T00%3A00%3A00.0000000Z'\"";
    assertCode(() -> people.replace(person("p", "1", "Bo"), forged), ErrorCode.PreconditionFailed);
    db.createTable("Later"); // a catalog write after the forged ETag
    people.upsert(person("p", "2", "Cy"));
    db.close();

    db = open(dir);
    Item afterRestart = db.table("People").upsert(person("p", "3", "Di"));

    java.time.Instant soon = java.time.Instant.now().plusSeconds(60);
    assertThat(db.table("People").get("p", "2").orElseThrow().timestamp()).isBefore(soon);
    assertThat(afterRestart.timestamp()).isBefore(soon);
  }

  @Test
  void aRepeatedMappedReadOfAnUnchangedItemReusesTheResultUntilAWrite() {
    NameAtEtag mapping = new NameAtEtag();
    people.insert(person("p", "1", "Ann"));

    String first = people.get("p", "1", mapping).orElseThrow();
    String again = people.get("p", "1", new NameAtEtag()).orElseThrow(); // an equal mapping

    assertThat(again).isSameAs(first);
    assertThat(mapping.calls.get()).isEqualTo(1);
    Item written = people.upsert(person("p", "1", "Bo"));
    assertThat(people.get("p", "1", mapping)).contains(mapping.map(written));
  }

  @Test
  void aSecondOpenOfTheSameDirectoryFailsWithStorageLocked() {
    assertCode(() -> open(dir), ErrorCode.StorageLocked);
  }

  @Test
  void openWhereTheDataDirectoryCannotBeCreatedFailsWithStorageUnreachable() throws Exception {
    Path aFile = java.nio.file.Files.writeString(dir.resolve("not-a-directory"), "x");

    assertCode(() -> open(aFile.resolve("data")), ErrorCode.StorageUnreachable);
  }

  @Test
  void asyncWritesInFlightWhenTheDatabaseClosesSucceedOrFailWithShuttingDown() throws Exception {
    Table table = db.table("People");
    // The committer completes futures on its own thread (Table's contract), so an action that
    // blocks there holds it: what follows is queued, deterministically, when the store closes.
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread tester = Thread.currentThread();
    List<CompletableFuture<Item>> writes = new ArrayList<>();
    while (holding.getCount() > 0) {
      CompletableFuture<Item> write = table.upsertAsync(person("r", "i" + writes.size(), "n"));
      writes.add(write);
      write.whenComplete(
          (item, failure) -> {
            if (Thread.currentThread() != tester) {
              holding.countDown();
              awaitQuietly(release);
            }
          });
      if (!write.isDone() || holding.getCount() == 0) {
        assertThat(holding.await(1, TimeUnit.MINUTES)).as("the committer held").isTrue();
      }
    }
    int held = writes.size();
    int queued = 1_000;
    for (int i = 0; i < queued; i++) {
      writes.add(table.upsertAsync(person("r", "i" + writes.size(), "n")));
    }
    Thread closer = new Thread(db::close, "closer");
    closer.start();
    try {
      // the store fails what is queued before it waits for the committer
      CompletableFuture<Item> last = writes.get(writes.size() - 1);
      assertThatThrownBy(() -> last.get(1, TimeUnit.MINUTES))
          .isInstanceOf(ExecutionException.class);
    } finally {
      release.countDown();
    }
    closer.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(closer.isAlive()).as("close returned").isFalse();

    List<String> landed = new ArrayList<>();
    int refused = 0;
    for (CompletableFuture<Item> write : writes) {
      try {
        landed.add(write.get(1, TimeUnit.MINUTES).id());
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(ViewbaseException.class);
        assertThat(((ViewbaseException) e.getCause()).code()).isEqualTo(ErrorCode.ShuttingDown);
        refused++;
      }
    }
    db = open(dir);
    for (String id : landed) {
      assertThat(db.table("People").get("r", id)).as("acknowledged before the close").isPresent();
    }
    assertThat(landed).as("acknowledged: the groups written").hasSize(held);
    assertThat(refused)
        .as("refused: the writes queued behind the held committer")
        .isEqualTo(queued);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void unknownBackendFailsNamingTheArtifact() {
    assertCode(
        () -> Viewbase.open(OpenOptions.at(dir).withStorage("cassandra")),
        ErrorCode.StorageBackendMissing);
  }

  @Test
  void droppingATableWithAsyncWritesInFlightLeavesNoneOfThemBehind() throws Exception {
    db.createTable("Busy");
    Table busy = db.table("Busy");
    int id = ((EmbeddedTable) busy).entry().id();
    CountDownLatch writing = new CountDownLatch(200);
    List<CompletableFuture<Item>> writes = new ArrayList<>();
    Thread dropper =
        new Thread(
            () -> {
              try {
                writing.await();
                db.dropTable("Busy");
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    dropper.start();
    // writes keep coming from this thread while the drop waits for those in flight, then after it
    for (int i = 0; dropper.isAlive() || i < 1000; i++) {
      writes.add(busy.upsertAsync(person("p" + (i % 7), "i" + i, "n")));
      writing.countDown();
    }
    dropper.join();

    int landed = 0;
    for (CompletableFuture<Item> write : writes) {
      try {
        write.get(1, TimeUnit.MINUTES);
        landed++;
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(ViewbaseException.class);
        assertThat(((ViewbaseException) e.getCause()).code()).isEqualTo(ErrorCode.TableNotFound);
      }
    }
    assertThat(landed).isGreaterThanOrEqualTo(200);
    assertThat(landed).as("writes after the drop fail").isLessThan(writes.size());
    try (Cursor left =
        ((EmbeddedDatabase) db).store().scanAll(KeyLayout.tablePrefix(id), null, null)) {
      assertThat(left.next())
          .as("an entry of the dropped table is left (a write landed after the purge)")
          .isFalse();
    }
    db.createTable("Busy");
    assertThat(db.table("Busy").query(Query.all()).items()).isEmpty();
  }

  @Test
  void aViewCreatedWhileAsyncWritesAreInFlightIsExactOnceBuilt() throws Exception {
    CountDownLatch writing = new CountDownLatch(200);
    List<CompletableFuture<Item>> writes = new ArrayList<>();
    Thread creator =
        new Thread(
            () -> {
              try {
                writing.await();
                db.createView(ViewDefinition.of("PeopleByName", "People", "all", "{name}"));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    creator.start();
    // each write is queued and acknowledged later; the view must hold every one that landed
    for (int i = 0; creator.isAlive() || i < 2000; i++) {
      writes.add(people.upsertAsync(person("p" + (i % 5), "i" + i, "name" + i)));
      writing.countDown();
    }
    creator.join();
    for (CompletableFuture<Item> write : writes) {
      write.get(1, TimeUnit.MINUTES);
    }
    ViewContract.awaitBuilt(db, "PeopleByName");

    VerifyReport report = db.verifyView("PeopleByName", false);
    assertThat(report.checked()).isEqualTo(writes.size());
    assertThat(report.missing() + report.extra() + report.different())
        .as("view differs from its source: %s", report)
        .isZero();
  }
}
