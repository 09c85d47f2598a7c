package io.viewbase.server;

import static io.viewbase.server.TestHttp.code;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.BackupInfo;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.json.BackupInfoJson;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/admin/backup} on a real socket, RocksDB behind it: the answer, the incremental
 * second backup, bad bodies and targets (400, nothing written), a backup already running into the
 * directory (409), and a memory database, which takes no backups (501).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackupApiTest {
  private Path dir;
  private Database db;
  private ViewbaseServer server;
  private TestHttp http;

  @BeforeAll
  void start(@TempDir Path temp) {
    dir = temp;
    db = Viewbase.open(OpenOptions.at(dir.resolve("data")));
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(2));
    http = new TestHttp(server.port());
    assertThat(http.send("PUT", "/v1/tables/People", null).statusCode()).isEqualTo(201);
    for (int i = 0; i < 50; i++) {
      http.send("PUT", "/v1/tables/People/items/p/" + i, "{\"n\": " + i + "}");
    }
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  private HttpResponse<byte[]> backup(String body) {
    return http.send("POST", "/v1/admin/backup", body);
  }

  private static String to(Path target) {
    return new String(BackupInfoJson.writeRequest(target.toString()));
  }

  @Test
  void backupAnswersItsIdAndWhatItCopiedAndASecondOneSharesTheUnchangedFiles() {
    Path target = dir.resolve("backups");
    HttpResponse<byte[]> first = backup(to(target));
    assertThat(first.statusCode()).as(text(first)).isEqualTo(200);
    BackupInfo one = BackupInfoJson.read(first.body());
    assertThat(one.id()).isEqualTo(1);
    assertThat(one.directory()).isEqualTo(target.toString());
    assertThat(one.files()).isPositive();
    assertThat(one.filesCopied()).isEqualTo(one.files());
    assertThat(one.sizeBytes()).isPositive();
    assertThat(text(first))
        .contains("\"filesShared\":0")
        .contains("\"durationMillis\":")
        .contains("\"bytesCopied\":");

    http.send("PUT", "/v1/tables/People/items/p/new", "{\"n\": -1}");
    BackupInfo two = BackupInfoJson.read(backup(to(target)).body());

    assertThat(two.id()).isEqualTo(2);
    assertThat(two.filesShared()).isPositive();
    assertThat(two.filesCopied()).isLessThan(two.files());
  }

  @Test
  void aRelativeTargetAMissingOneOrAnUnknownMemberIsRefusedWith400AndWritesNothing()
      throws Exception {
    HttpResponse<byte[]> relative = backup("{\"to\": \"backups\"}");
    assertThat(relative.statusCode()).isEqualTo(400);
    assertThat(code(relative)).isEqualTo(ErrorCode.InvalidInput);
    assertThat(text(relative)).contains("absolute");
    assertThat(code(backup("{}"))).isEqualTo(ErrorCode.InvalidJson);
    assertThat(code(backup("{\"to\": 3}"))).isEqualTo(ErrorCode.InvalidJson);
    assertThat(code(backup("{\"to\": \"/x\", \"from\": \"/y\"}"))).isEqualTo(ErrorCode.InvalidJson);
    assertThat(code(backup("{\"to\": \"/" + "a".repeat(5000) + "\"}")))
        .isEqualTo(ErrorCode.InvalidJson);

    Path foreign = Files.createDirectories(dir.resolve("foreign"));
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    HttpResponse<byte[]> refused = backup(to(foreign));
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(code(refused)).isEqualTo(ErrorCode.InvalidInput);
    assertThat(text(refused)).contains("not Viewbase backups").contains("\"to\"");
    try (var files = Files.list(foreign)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("notes.txt");
    }
    HttpResponse<byte[]> intoData = backup(to(dir.resolve("data").resolve("b")));
    assertThat(code(intoData)).isEqualTo(ErrorCode.InvalidInput);
  }

  @Test
  void aBackupIntoADirectoryAnotherBackupHoldsGets409BackupInProgress() throws Exception {
    Path target = Files.createDirectories(dir.resolve("held"));
    try (FileChannel channel =
            FileChannel.open(
                target.resolve("viewbase-backup.lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = channel.lock()) {
      HttpResponse<byte[]> busy = backup(to(target));
      assertThat(busy.statusCode()).isEqualTo(409);
      assertThat(code(busy)).isEqualTo(ErrorCode.BackupInProgress);
    }
    assertThat(backup(to(target)).statusCode()).isEqualTo(200);
  }

  @Test
  void onlyPostIsAnsweredAndTheBackupRunsOnAWorkerNotTheEventLoop() {
    HttpResponse<byte[]> get = http.get("/v1/admin/backup");
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
    assertThat(RouteMatch.of("/v1/admin/backup").route()).isEqualTo(Route.ADMIN_BACKUP);
    assertThat(RouteMatch.of("/v1/admin/backup/x").route()).isEqualTo(Route.UNKNOWN);
    assertThat(RouteMatch.of("/v1/admin").route()).isEqualTo(Route.UNKNOWN);
    assertThat(NativeApi.runsInline("POST", RouteMatch.of("/v1/admin/backup"))).isFalse();
  }

  @Test
  void aMemoryDatabaseAnswers501NotImplementedNamingWhatToDoInstead() {
    try (Database memory = Viewbase.open(OpenOptions.inMemory());
        ViewbaseServer other =
            ViewbaseServer.start(memory, ServerOptions.defaults().withPort(0).withIoThreads(1))) {
      HttpResponse<byte[]> refused =
          new TestHttp(other.port()).send("POST", "/v1/admin/backup", to(dir.resolve("m")));
      assertThat(refused.statusCode()).isEqualTo(501);
      assertThat(code(refused)).isEqualTo(ErrorCode.NotImplemented);
      assertThat(text(refused)).contains("nodetool snapshot");
    }
    assertThat(dir.resolve("m")).doesNotExist();
  }
}
