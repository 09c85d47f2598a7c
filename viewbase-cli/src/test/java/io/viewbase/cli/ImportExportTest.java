package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase import} and {@code export} on a RocksDB data directory: round trips that give the
 * same bytes with every type, in each format, and the rows an import rejects, with why.
 */
class ImportExportTest {
  @TempDir Path dir;
  private Path data;

  @BeforeEach
  void createDataDirectory() throws Exception {
    data = Files.createDirectories(dir.resolve("data"));
  }

  /** Items holding every type, nested ones too, and keys that need quoting in CSV. */
  static List<Item> everyType(boolean withNulls) {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Map<String, Value> p = new LinkedHashMap<>();
      p.put("name", new Value.Str(i == 0 ? "Ann, \"the\" first\nof lines" : i == 1 ? "" : "ünï €"));
      p.put("active", new Value.Bool(i % 2 == 0));
      p.put("age", new Value.Int32(-7 + i));
      p.put("small", new Value.Int64(5 + i));
      p.put("big", new Value.Int64(9_007_199_254_740_993L + i));
      p.put(
          "ratio", new Value.Double(i == 0 ? 1.5 : i == 1 ? Double.NaN : Double.NEGATIVE_INFINITY));
      p.put("whole", new Value.Double(3.0));
      p.put("price", Value.of(new BigDecimal(i == 0 ? "12.50" : "-0.001")));
      p.put(
          "born", Value.DateTime.of(Instant.parse("2026-11-30T12:00:00.1234567Z").plusSeconds(i)));
      p.put("ref", new Value.Guid(UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964f" + i)));
      p.put(
          "blob",
          new Value.Binary(i == 1 ? new byte[0] : new byte[] {0, 1, (byte) 0xff, (byte) i}));
      Map<String, Value> nested = new LinkedHashMap<>();
      nested.put("deep", new Value.Int64(1L << 60));
      nested.put("when", Value.DateTime.of(Instant.parse("2020-01-01T00:00:00Z")));
      p.put("address", new Value.Obj(nested));
      p.put(
          "tags",
          new Value.Arr(List.of(new Value.Str("a"), new Value.Int64(2), new Value.Int32(3))));
      if (withNulls) {
        p.put("nothing", Value.Null.INSTANCE);
      }
      if (i == 2) {
        p.remove("age"); // an absent property: an empty cell
      }
      String partitionKey = i == 0 ? "p,1" : "p\"2";
      items.add(Item.of(partitionKey, i == 1 ? "" : "id " + i, p));
    }
    return items;
  }

  private void put(String table, List<Item> items) {
    try (Database db = Viewbase.open(OpenOptions.at(data))) {
      db.createTable(table);
      for (Item item : items) {
        db.table(table).upsert(item);
      }
    }
  }

  private List<Item> read(String table) {
    try (Database db = Viewbase.open(OpenOptions.at(data));
        ItemCursor items = db.table(table).cursor(Query.all())) {
      List<Item> all = new ArrayList<>();
      items.forEachRemaining(
          item -> all.add(Item.of(item.partitionKey(), item.id(), item.properties())));
      return all;
    }
  }

  private Cli cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--data");
    all.add(data.toString());
    return Cli.run(all.toArray(String[]::new));
  }

  private void roundTrip(String format, boolean withNulls) throws Exception {
    List<Item> original = everyType(withNulls);
    put("Source", original);
    Path first = dir.resolve("first." + format);
    Path second = dir.resolve("second." + format);

    Cli exported = cli("export", "Source", "--format", format, "--output", first.toString());
    assertThat(exported.exitCode()).as(exported.toString()).isZero();
    assertThat(exported.err()).contains("export Source: 3 items");
    Cli imported = cli("import", "Copy", first.toString(), "--format", format);
    assertThat(imported.exitCode()).as(imported.toString()).isZero();
    assertThat(imported.err()).contains("created the table").contains("3 imported, 0 rejected");
    Cli again = cli("export", "Copy", "--format", format, "--output", second.toString());
    assertThat(again.exitCode()).as(again.toString()).isZero();

    assertThat(Files.readString(second)).isEqualTo(Files.readString(first));
    assertThat(Files.mismatch(first, second)).isEqualTo(-1);
  }

  @Test
  void jsonlExportImportExportIsByteIdenticalAndKeepsEveryType() throws Exception {
    roundTrip("jsonl", true);
    assertThat(read("Copy")).containsExactlyInAnyOrderElementsOf(read("Source"));
    assertThat(read("Copy")).containsExactlyInAnyOrderElementsOf(everyType(true));
    String text = Files.readString(dir.resolve("first.jsonl"));
    assertThat(text.lines()).hasSize(3);
    assertThat(text)
        .contains("\"big@odata.type\":\"Edm.Int64\",\"big\":\"9007199254740993\"")
        .contains("\"ratio@odata.type\":\"Edm.Double\",\"ratio\":\"NaN\"")
        .contains("\"nothing\":null")
        .doesNotContain("_etag")
        .doesNotContain("_timestamp");
  }

  @Test
  void csvExportImportExportIsByteIdenticalAndKeepsEveryTypeButNull() throws Exception {
    roundTrip("csv", true);
    // CSV has no null: a null property is an empty cell, absent after the import.
    assertThat(read("Copy")).containsExactlyInAnyOrderElementsOf(everyType(false));
    String header = Files.readString(dir.resolve("first.csv")).lines().findFirst().orElseThrow();
    assertThat(header)
        .isEqualTo(
            "partitionKey,id,name,active@Boolean,age@Int32,small@Int64,big@Int64,ratio@Double,"
                + "whole@Double,price@Decimal,born@DateTime,ref@Guid,blob@Binary,address@Json,tags@Json");
  }

  @Test
  void azureCsvExportImportExportIsByteIdenticalAndKeepsEveryTypeButNull() throws Exception {
    roundTrip("azure-csv", true);
    assertThat(read("Copy")).containsExactlyInAnyOrderElementsOf(everyType(false));
    String text = Files.readString(dir.resolve("first.azure-csv"));
    assertThat(text)
        .startsWith("PartitionKey,RowKey,Timestamp,name,name@type,active,active@type,")
        .contains("\r\n\"p,1\",id 0,,\"Ann, \"\"the\"\" first\nof lines\",Edm.String,")
        .contains(",-7,Edm.Int32,");
  }

  @Test
  void anAzureStorageExplorerFileImportsWithItsTypes() throws Exception {
    Path file = dir.resolve("people.typed.csv");
    Files.writeString(
        file,
        "\uFEFFPartitionKey,RowKey,Timestamp,Age,Age@type,Born,Born@type,Note,Note@type,Big,Big@type\r\n"
            + "p,1,2021-01-01T00:00:00.000Z,42,Edm.Int32,2020-05-01T10:00:00Z,Edm.DateTime,hi,Edm.String,9007199254740993,Int64\r\n"
            + "p,2,2021-01-01T00:00:00.000Z,,,,,plain,,,\r\n",
        StandardCharsets.UTF_8);

    Cli imported = cli("import", "People", file.toString());

    assertThat(imported.exitCode()).as(imported.toString()).isZero();
    List<Item> items = read("People");
    assertThat(items.get(0).properties())
        .containsExactly(
            Map.entry("Age", new Value.Int32(42)),
            Map.entry("Born", Value.DateTime.of(Instant.parse("2020-05-01T10:00:00Z"))),
            Map.entry("Note", new Value.Str("hi")),
            Map.entry("Big", new Value.Int64(9_007_199_254_740_993L)));
    assertThat(items.get(1).properties())
        .containsExactly(Map.entry("Note", new Value.Str("plain")));
  }

  @Test
  void aPlainCsvHeaderIsTypedWithTheTypesFlag() throws Exception {
    Path file = dir.resolve("plain.csv");
    Files.writeString(file, "partitionKey,id,age,name\np,1,42,Ann\n", StandardCharsets.UTF_8);

    Cli imported = cli("import", "Plain", file.toString(), "--types", "age=Int32");

    assertThat(imported.exitCode()).as(imported.toString()).isZero();
    assertThat(read("Plain").get(0).properties())
        .containsExactly(
            Map.entry("age", new Value.Int32(42)), Map.entry("name", new Value.Str("Ann")));
  }

  @Test
  void rejectedRowsGoToTheRejectsFileWithLineAndReasonAndTheOthersAreImported() throws Exception {
    Path file = dir.resolve("mixed.jsonl");
    String tooLongKey = "k".repeat(1025);
    String bigValue = "x".repeat(1_100_000);
    List<String> lines =
        List.of(
            "{\"partitionKey\":\"p\",\"id\":\"1\",\"n\":1}",
            "{\"partitionKey\":\"p\",\"id\":\"2\",\"n\":", // malformed
            "{\"partitionKey\":\"p\",\"id\":\"3\",\"n@odata.type\":\"Edm.Int32\",\"n\":\"x\"}",
            "{\"partitionKey\":\"" + tooLongKey + "\",\"id\":\"4\"}",
            "{\"partitionKey\":\"p\",\"id\":\"5\",\"big\":\"" + bigValue + "\"}",
            "{\"partitionKey\":\"p\"}",
            "",
            "{\"partitionKey\":\"p\",\"id\":\"8\",\"n\":8}",
            "{\"partitionKey\":\"p\",\"id\":\"9\",\"huge\":\"" + "y".repeat(5 << 20) + "\"}",
            "{\"partitionKey\":\"p\",\"id\":\"10\",\"n\":10}");
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);

    Cli imported = cli("import", "Mixed", file.toString(), "--batch-size", "3");

    assertThat(imported.exitCode()).as(imported.toString()).isEqualTo(1);
    assertThat(imported.err())
        .contains("9 rows read, 3 imported, 6 rejected")
        .contains("error: InvalidInput: 6 rows were rejected");
    assertThat(read("Mixed")).extracting(Item::id).containsExactly("1", "10", "8");
    List<String> rejects = Files.readAllLines(dir.resolve("mixed.jsonl.rejects"));
    assertThat(rejects).hasSize(6);
    assertThat(rejects.get(0))
        .startsWith("{\"line\":2,\"code\":\"InvalidJson\",\"message\":\"Malformed JSON");
    assertThat(rejects.get(1))
        .startsWith("{\"line\":3,\"code\":\"InvalidValue\"")
        .contains("\"property\":\"n\"");
    assertThat(rejects.get(2))
        .startsWith("{\"line\":4,\"code\":\"InvalidKey\"")
        .doesNotContain("Operation");
    assertThat(rejects.get(3)).startsWith("{\"line\":5,\"code\":\"ItemTooLarge\"");
    assertThat(rejects.get(4)).startsWith("{\"line\":6,\"code\":\"InvalidKey\"");
    assertThat(rejects.get(5))
        .startsWith("{\"line\":9,\"code\":\"ItemTooLarge\"")
        .contains("maxRowBytes");
    assertThat(Files.exists(dir.resolve("mixed.jsonl.import-progress"))).isFalse();
  }

  @Test
  void csvRowsWithABadCellOrTheWrongNumberOfCellsAreRejected() throws Exception {
    Path file = dir.resolve("bad.csv");
    Files.writeString(
        file,
        "partitionKey,id,age@Int32\r\np,1,42\r\np,2,forty\r\np,3\r\np,,5\r\np,\"x\"y,6\r\np,6,6\r\n",
        StandardCharsets.UTF_8);

    Cli imported = cli("import", "Bad", file.toString());

    assertThat(imported.exitCode()).as(imported.toString()).isEqualTo(1);
    assertThat(read("Bad")).extracting(Item::id).containsExactly("1", "6");
    List<String> rejects = Files.readAllLines(dir.resolve("bad.csv.rejects"));
    assertThat(rejects)
        .extracting(line -> line.substring(0, line.indexOf(",\"message\"")))
        .containsExactly(
            "{\"line\":3,\"code\":\"InvalidValue\"",
            "{\"line\":4,\"code\":\"InvalidInput\"",
            "{\"line\":5,\"code\":\"InvalidKey\"",
            "{\"line\":6,\"code\":\"InvalidInput\"");
  }

  @Test
  void aKeyTwiceInTheFileIsWrittenInTheFileOrderSoTheLastRowWins() throws Exception {
    Path file = dir.resolve("twice.jsonl");
    Files.writeString(
        file,
        "{\"partitionKey\":\"p\",\"id\":\"1\",\"v\":1}\n{\"partitionKey\":\"p\",\"id\":\"1\",\"v\":2}\n",
        StandardCharsets.UTF_8);

    Cli imported = cli("import", "Twice", file.toString());

    assertThat(imported.exitCode()).as(imported.toString()).isZero();
    assertThat(read("Twice").get(0).properties())
        .containsExactly(Map.entry("v", new Value.Int32(2)));
  }

  @Test
  void importReadsStandardInputAndExportWritesStandardOutput() throws Exception {
    String jsonl = "{\"partitionKey\":\"p\",\"id\":\"1\",\"v\":1}\n";
    InputStream stdin = System.in;
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    Cli imported;
    Cli exported;
    try {
      System.setIn(new ByteArrayInputStream(jsonl.getBytes(StandardCharsets.UTF_8)));
      imported = cli("import", "Piped", "-");
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      exported = cli("export", "Piped");
    } finally {
      System.setIn(stdin);
      System.setOut(stdout);
    }
    assertThat(imported.exitCode()).as(imported.toString()).isZero();
    assertThat(exported.exitCode()).as(exported.toString()).isZero();
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEqualTo(jsonl);
  }

  @Test
  void resumeWithStandardInputIsAUsageError() {
    Cli resumed = cli("import", "Piped", "-", "--resume");

    assertThat(resumed.exitCode()).isEqualTo(2);
    assertThat(resumed.err()).contains("--resume needs the input FILE");
  }

  @Test
  void aCsvExportOfAPropertyWithTwoTypesFailsBeforeWritingAnything() throws Exception {
    put(
        "Mixed",
        List.of(
            Item.builder("p", "1").put("v", 1).build(),
            Item.builder("p", "2").put("v", "one").build()));
    Path out = dir.resolve("mixed.csv");

    Cli exported = cli("export", "Mixed", "--output", out.toString());

    assertThat(exported.exitCode()).isEqualTo(1);
    assertThat(exported.err())
        .contains("error: InvalidInput: A property holds values of two types")
        .contains("property=v");
    assertThat(Files.exists(out)).isFalse();
    assertThat(
            cli("export", "Mixed", "--format", "azure-csv", "--output", out.toString()).exitCode())
        .isZero();
  }

  @Test
  void exportWithAFilterWritesOnlyTheItemsItSelectsAndSystemPropertiesOnRequest() throws Exception {
    put(
        "Some",
        List.of(
            Item.builder("p", "1").put("v", 1).build(),
            Item.builder("p", "2").put("v", 2).build()));
    Path out = dir.resolve("some.jsonl");

    Cli exported = cli("export", "Some", "--filter", "v gt 1", "--system", "-o", out.toString());

    assertThat(exported.exitCode()).as(exported.toString()).isZero();
    List<String> lines = Files.readAllLines(out);
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0)).startsWith("{\"partitionKey\":\"p\",\"id\":\"2\",\"_etag\":");
    // an import drops the system properties again
    assertThat(cli("import", "Other", out.toString()).exitCode()).isZero();
    assertThat(read("Other").get(0).properties())
        .containsExactly(Map.entry("v", new Value.Int32(2)));
  }

  @Test
  void aCsvRecordLongerThanTheBoundIsRejectedAndTheNextRecordStillReads() throws Exception {
    Path file = dir.resolve("long.csv");
    String longField = ("line\n" + "z".repeat(1000)).repeat(5 * 1024); // 5 MiB, quoted, multi-line
    Files.writeString(
        file,
        "partitionKey,id,text\r\np,1,\"" + longField + "\"\r\np,2,short\r\n",
        StandardCharsets.UTF_8);

    Cli imported = cli("import", "Long", file.toString());

    assertThat(imported.exitCode()).as(imported.toString()).isEqualTo(1);
    assertThat(read("Long")).extracting(Item::id).containsExactly("2");
    assertThat(Files.readAllLines(dir.resolve("long.csv.rejects")))
        .singleElement()
        .satisfies(line -> assertThat(line).startsWith("{\"line\":2,\"code\":\"ItemTooLarge\""));
  }

  @Test
  void aViewExportsItsItemsWithoutTheirOriginUnlessSystemIsGiven() throws Exception {
    put("People", List.of(Item.builder("p", "1").put("email", "ann@example.com").build()));
    try (Database db = Viewbase.open(OpenOptions.at(data))) {
      db.createView(io.viewbase.api.ViewDefinition.of("ByEmail", "People", null, "{email}"));
      while (!io.viewbase.api.ViewStatus.READY.equals(db.viewStatus("ByEmail").state())) {
        Thread.sleep(10);
      }
    }
    Path plain = dir.resolve("view.jsonl");
    Path system = dir.resolve("view-system.jsonl");

    assertThat(cli("export", "ByEmail", "-o", plain.toString()).exitCode()).isZero();
    assertThat(cli("export", "ByEmail", "--system", "-o", system.toString()).exitCode()).isZero();

    assertThat(Files.readString(plain)).doesNotContain("_source").contains("ann@example.com");
    assertThat(Files.readString(system))
        .contains("\"_sourcePartitionKey\":\"p\",\"_sourceId\":\"1\"");
    Cli intoView = cli("import", "ByEmail", plain.toString());
    assertThat(intoView.exitCode()).isEqualTo(1);
    assertThat(intoView.err()).contains("error: ViewIsReadOnly:");
  }

  @Test
  void resumingWithTheJournalOfAnotherTableIsAUsageError() throws Exception {
    Path file = dir.resolve("rows.jsonl");
    Files.writeString(file, "{\"partitionKey\":\"p\",\"id\":\"1\"}\n", StandardCharsets.UTF_8);
    new ImportJournal("Other", "jsonl", 0, 1, 0, 0, 0, 0).save(ImportJournal.of(file));

    Cli resumed = cli("import", "Rows", file.toString(), "--resume");

    assertThat(resumed.exitCode()).isEqualTo(2);
    assertThat(resumed.err()).contains("is of an import into Other");
  }
}
