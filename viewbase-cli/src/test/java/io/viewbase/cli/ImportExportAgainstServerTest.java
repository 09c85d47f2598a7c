package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Viewbase;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import} and {@code export} through a running server (RocksDB on a temporary directory, a
 * real socket): the same round trips as on a data directory, and a row the server's batch refuses
 * narrowed to that row over HTTP.
 */
class ImportExportAgainstServerTest {
  @TempDir Path dir;
  private Database db;
  private ViewbaseServer server;
  private List<String> remote;

  @BeforeEach
  void startServer() throws Exception {
    db = Viewbase.open(OpenOptions.at(Files.createDirectories(dir.resolve("data"))));
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0));
    remote = List.of("--server", "http://127.0.0.1:" + server.port());
  }

  @AfterEach
  void stopServer() {
    server.close();
    db.close();
  }

  private List<Item> read(String table) {
    List<Item> all = new ArrayList<>();
    try (ItemCursor items = db.table(table).cursor(Query.all())) {
      items.forEachRemaining(
          item -> all.add(Item.of(item.partitionKey(), item.id(), item.properties())));
    }
    return all;
  }

  @Test
  void everyFormatRoundTripsThroughTheServerByteForByte() throws Exception {
    db.createTable("Source");
    for (Item item : ImportExportTest.everyType(true)) {
      db.table("Source").upsert(item);
    }
    for (String format : List.of("jsonl", "csv", "azure-csv")) {
      String copy = "Copy" + format.replace("-", "");
      Path first = dir.resolve("first." + format);
      Path second = dir.resolve("second." + format);

      Cli exported =
          Cli.run(remote, "export", "Source", "--format", format, "-o", first.toString());
      Cli imported = Cli.run(remote, "import", copy, first.toString(), "--format", format);
      Cli again = Cli.run(remote, "export", copy, "--format", format, "-o", second.toString());

      assertThat(exported.exitCode()).as(exported.toString()).isZero();
      assertThat(imported.exitCode()).as(imported.toString()).isZero();
      assertThat(again.exitCode()).as(again.toString()).isZero();
      assertThat(Files.mismatch(first, second)).as(format).isEqualTo(-1);
      assertThat(read(copy))
          .as(format)
          .containsExactlyInAnyOrderElementsOf(ImportExportTest.everyType(format.equals("jsonl")));
    }
  }

  @Test
  void aRowTheServerRefusesIsRejectedAndTheRestOfItsBatchImported() throws Exception {
    Path file = dir.resolve("rows.jsonl");
    Files.writeString(
        file,
        "{\"partitionKey\":\"p\",\"id\":\"1\"}\n"
            + "{\"partitionKey\":\"p\",\"id\":\""
            + "k".repeat(1025)
            + "\"}\n"
            + "{\"partitionKey\":\"p\",\"id\":\"3\"}\n",
        StandardCharsets.UTF_8);

    Cli imported = Cli.run(remote, "import", "Rows", file.toString());

    assertThat(imported.exitCode()).as(imported.toString()).isEqualTo(1);
    assertThat(read("Rows")).extracting(Item::id).containsExactly("1", "3");
    List<String> rejects = Files.readAllLines(dir.resolve("rows.jsonl.rejects"));
    assertThat(rejects).hasSize(1);
    assertThat(rejects.get(0))
        .startsWith("{\"line\":2,\"code\":\"InvalidKey\"")
        .doesNotContain("operationIndex");
  }
}
