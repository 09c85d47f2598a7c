package io.viewbase.server;

import static io.viewbase.server.NativeApiContract.assertError;
import static io.viewbase.server.NativeApiContract.enc;
import static io.viewbase.server.TestHttp.code;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Value;
import io.viewbase.api.VerifyReport;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import io.viewbase.json.ItemJson;
import io.viewbase.json.PageJson;
import io.viewbase.json.TableInfoJson;
import io.viewbase.json.VerifyReportJson;
import io.viewbase.json.ViewStatusJson;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Views through the native API v1 on a real socket: their lifecycle under {@code /v1/views} and
 * their items through the table endpoints. Subclasses say which database to serve; every test works
 * with tables and views of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ViewsApiContract {
  private static final AtomicInteger NAMES = new AtomicInteger();

  Database db;
  ViewbaseServer server;
  TestHttp http;

  abstract Database open(Path dir);

  @BeforeAll
  void start(@TempDir Path dir) {
    db = open(dir);
    server =
        ViewbaseServer.start(
            db, ServerOptions.defaults().withPort(0).withWorkerThreads(8).withIoThreads(1));
    http = new TestHttp(server.port());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  /** A fresh name with this prefix, so tests sharing the database never meet. */
  static String name(String prefix) {
    return prefix + NAMES.incrementAndGet();
  }

  String newTable(String prefix) {
    String name = name(prefix);
    assertThat(http.send("PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    return name;
  }

  HttpResponse<byte[]> createView(String view, String definition) {
    return http.send("PUT", "/v1/views/" + view, definition);
  }

  /**
   * Creates a view, checks the answer's status code agrees with its state, and waits until it is
   * built.
   */
  ViewStatus createBuiltView(String view, String definition) {
    HttpResponse<byte[]> created = createView(view, definition);
    assertThat(created.statusCode()).as(text(created)).isIn(201, 202);
    ViewStatus status = ViewStatusJson.read(created.body());
    assertThat(status.state().equals(ViewStatus.BUILDING)).isEqualTo(created.statusCode() == 202);
    assertThat(created.headers().firstValue("Location")).hasValue("/v1/views/" + view);
    return awaitBuilt(view);
  }

  ViewStatus awaitBuilt(String view) {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      HttpResponse<byte[]> r = http.get("/v1/views/" + view);
      assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
      ViewStatus status = ViewStatusJson.read(r.body());
      if (!status.state().equals(ViewStatus.BUILDING)) {
        return status;
      }
      pause();
    }
    throw new AssertionError("view " + view + " still building after 60 s");
  }

  private static void pause() {
    try {
      Thread.sleep(10);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  HttpResponse<byte[]> putItem(String table, String pk, String id, String body, String... headers) {
    return http.send(
        "PUT", "/v1/tables/" + table + "/items/" + enc(pk) + "/" + enc(id), body, headers);
  }

  HttpResponse<byte[]> getItem(String table, String pk, String id) {
    return http.get("/v1/tables/" + table + "/items/" + enc(pk) + "/" + enc(id));
  }

  static Item item(HttpResponse<byte[]> r) {
    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    return ItemJson.readStored(r.body(), Limits.DEFAULT);
  }

  List<Item> query(String table, String partitionKeyAndParameters) {
    HttpResponse<byte[]> r =
        http.get("/v1/tables/" + table + "/items/" + partitionKeyAndParameters);
    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    return PageJson.read(r.body(), Limits.DEFAULT).items();
  }

  static ViewbaseException error(HttpResponse<byte[]> r) {
    return ErrorJson.read(r.body())
        .orElseThrow(() -> new AssertionError("not a JSON error: " + text(r)));
  }

  @Test
  void gyxiExampleFetchByEmailMovesOnChangeAndRefusesADuplicate() {
    String people = newTable("People");
    String byEmail = name("PeopleByEmail");
    String ann = UUID.randomUUID().toString();
    assertThat(
            putItem(people, "people", ann, "{\"email\":\"ann@example.com\",\"name\":\"Ann\"}")
                .statusCode())
        .isEqualTo(200);

    ViewStatus built =
        createBuiltView(
            byEmail,
            "{\"source\":\"" + people + "\",\"partitionBy\":\"all\",\"idBy\":\"{email}\"}");
    assertThat(built.state()).isEqualTo(ViewStatus.READY);
    assertThat(built.definition().source()).isEqualTo(people);
    assertThat(built.progress().done()).isEqualTo(1);

    HttpResponse<byte[]> found = getItem(byEmail, "all", "ann@example.com");
    Item viewItem = item(found);
    assertThat(viewItem.sourceId()).isEqualTo(ann);
    assertThat(viewItem.sourcePartitionKey()).isEqualTo("people");
    assertThat(viewItem.properties()).containsEntry("name", Value.of("Ann"));
    assertThat(text(found))
        .contains("\"_sourcePartitionKey\":\"people\",\"_sourceId\":\"" + ann + "\"");
    assertThat(found.headers().firstValue("ETag")).hasValue(viewItem.etag());

    String bo = UUID.randomUUID().toString();
    assertThat(
            putItem(people, "people", bo, "{\"email\":\"bo@example.com\",\"name\":\"Bo\"}")
                .statusCode())
        .isEqualTo(200);
    assertThat(item(getItem(byEmail, "all", "bo@example.com")).sourceId()).isEqualTo(bo);

    HttpResponse<byte[]> moved =
        http.send(
            "PATCH",
            "/v1/tables/" + people + "/items/people/" + ann,
            "{\"email\":\"ann@new.example\"}");
    assertThat(moved.statusCode()).isEqualTo(200);
    assertError(getItem(byEmail, "all", "ann@example.com"), 404, ErrorCode.ItemNotFound);
    assertThat(item(getItem(byEmail, "all", "ann@new.example")).sourceId()).isEqualTo(ann);

    String cy = UUID.randomUUID().toString();
    HttpResponse<byte[]> duplicate =
        putItem(people, "people", cy, "{\"email\":\"ann@new.example\",\"name\":\"Cy\"}");
    assertError(duplicate, 409, ErrorCode.ViewKeyConflict);
    assertThat(error(duplicate).context())
        .containsEntry("view", byEmail)
        .containsEntry("viewPartitionKey", "all")
        .containsEntry("viewId", "ann@new.example");
    assertError(getItem(people, "people", cy), 404, ErrorCode.ItemNotFound);
    assertThat(item(getItem(byEmail, "all", "ann@new.example")).sourceId()).isEqualTo(ann);
  }

  @Test
  void designGuideEmployeesByDepartmentWithTwoViewsAndPrefixQueries() {
    String employees = newTable("Employees");
    String byId = name("EmployeesById");
    String byEmail = name("EmployeesByEmail");
    for (int i = 1; i <= 10; i++) {
      putItem(
          employees,
          "corp",
          "e" + i,
          "{\"department\":\""
              + (i % 2 == 0 ? "Sales" : "Dev")
              + "\",\"employeeId\":"
              + i
              + ",\"email\":\"Person"
              + i
              + "@Corp.com\"}");
    }
    createBuiltView(
        byId,
        "{\"source\":\""
            + employees
            + "\",\"partitionBy\":\"{department}\","
            + "\"idBy\":\"empid_{employeeId:06}\"}");
    createBuiltView(
        byEmail,
        "{\"source\":\""
            + employees
            + "\",\"partitionBy\":\"{department}\","
            + "\"idBy\":\"email_{email|lower}\",\"select\":[\"employeeId\",\"email\"]}");
    for (int i = 11; i <= 20; i++) { // maintained as they are written
      putItem(
          employees,
          "corp",
          "e" + i,
          "{\"department\":\""
              + (i % 2 == 0 ? "Sales" : "Dev")
              + "\",\"employeeId\":"
              + i
              + ",\"email\":\"Person"
              + i
              + "@Corp.com\"}");
    }

    assertThat(item(getItem(byId, "Sales", "empid_000012")).sourceId()).isEqualTo("e12");
    assertThat(query(byId, "Sales?from=empid_000010&to=empid_000016"))
        .extracting(Item::sourceId)
        .containsExactly("e10", "e12", "e14");
    assertThat(query(byId, "Dev?prefix=empid_00001&desc=true&limit=2"))
        .extracting(Item::id)
        .containsExactly("empid_000019", "empid_000017");
    List<Item> devByEmail = query(byEmail, "Dev?prefix=email_person1");
    assertThat(devByEmail)
        .extracting(Item::id)
        .containsExactly(
            "email_person11@corp.com",
            "email_person13@corp.com",
            "email_person15@corp.com",
            "email_person17@corp.com",
            "email_person19@corp.com",
            "email_person1@corp.com");
    assertThat(devByEmail.get(0).properties()).containsOnlyKeys("employeeId", "email");
    assertThat(devByEmail.get(0).sourcePartitionKey()).isEqualTo("corp");
  }

  @Test
  void tablesListsViewsWithKindSourceAndState() {
    String people = newTable("People");
    String view = name("ByEmail");
    createBuiltView(view, "{\"source\":\"" + people + "\",\"idBy\":\"{email}\"}");
    List<TableInfo> tables = TableInfoJson.readList(http.get("/v1/tables").body());
    assertThat(tables)
        .filteredOn(t -> t.name().equals(view))
        .singleElement()
        .satisfies(
            t -> {
              assertThat(t.kind()).isEqualTo(TableInfo.VIEW);
              assertThat(t.source()).isEqualTo(people);
              assertThat(t.state()).isEqualTo(ViewStatus.READY);
            });
  }

  @Test
  void writesToAViewAnswer409ViewIsReadOnlyAndChangeNothing() {
    String people = newTable("People");
    String view = name("ByEmail");
    putItem(people, "p", "1", "{\"email\":\"a@x\"}");
    createBuiltView(
        view, "{\"source\":\"" + people + "\",\"partitionBy\":\"all\",\"idBy\":\"{email}\"}");

    assertError(putItem(view, "all", "b@x", "{\"email\":\"b@x\"}"), 409, ErrorCode.ViewIsReadOnly);
    assertError(
        putItem(view, "all", "b@x", "{}", "If-None-Match", "*"), 409, ErrorCode.ViewIsReadOnly);
    assertError(
        http.send("PATCH", "/v1/tables/" + view + "/items/all/a@x", "{\"n\":1}"),
        409,
        ErrorCode.ViewIsReadOnly);
    assertError(
        http.send("DELETE", "/v1/tables/" + view + "/items/all/a@x", null),
        409,
        ErrorCode.ViewIsReadOnly);
    assertThat(query(view, "all")).extracting(Item::id).containsExactly("a@x");
    assertThat(item(getItem(view, "all", "a@x")).properties()).doesNotContainKey("n");
  }

  @Test
  void badDefinitionsAnswer400InvalidViewAndCreateNothing() {
    String people = newTable("People");
    String view = name("Bad");
    String source = "\"source\":\"" + people + "\"";
    assertError(
        createView(view, "{" + source + ",\"idBy\":\"{email\"}"), 400, ErrorCode.InvalidView);
    assertError(
        createView(view, "{" + source + ",\"idBy\":\"{age:x}\"}"), 400, ErrorCode.InvalidView);
    assertError(
        createView(view, "{" + source + ",\"idBy\":\"{a}\",\"where\":\"a eq\"}"),
        400,
        ErrorCode.InvalidView);
    assertError(
        createView(view, "{" + source + ",\"select\":[\"_etag\"]}"), 400, ErrorCode.InvalidView);
    assertError(
        createView(view, "{" + source + ",\"select\":\"email\"}"), 400, ErrorCode.InvalidView);
    assertError(createView(view, "{\"idBy\":\"{email}\"}"), 400, ErrorCode.InvalidView);

    HttpResponse<byte[]> typo = createView(view, "{" + source + ",\"idby\":\"{email}\"}");
    assertError(typo, 400, ErrorCode.InvalidView);
    assertThat(error(typo).context()).containsEntry("members", List.of("idby"));
    HttpResponse<byte[]> renamed = createView(view, "{\"name\":\"Other\"," + source + "}");
    assertError(renamed, 400, ErrorCode.InvalidView);
    assertThat(error(renamed).context()).containsEntry("field", "name");

    assertError(createView(view, "{" + source), 400, ErrorCode.InvalidJson);
    assertError(createView("b!", "{" + source + "}"), 400, ErrorCode.InvalidTableName);
    assertError(
        createView(view, "{\"source\":\"Nowhere" + NAMES.incrementAndGet() + "\"}"),
        404,
        ErrorCode.TableNotFound);
    assertError(
        createView(people, "{" + source + ",\"idBy\":\"{email}\"}"),
        409,
        ErrorCode.TableAlreadyExists);
    assertError(
        http.sendBytes("PUT", "/v1/views/" + view, ("{" + source + "}").getBytes(), "text/plain"),
        415,
        ErrorCode.UnsupportedMediaType);
    assertError(
        http.send("PUT", "/v1/views/" + view + "?source=" + people, "{" + source + "}"),
        400,
        ErrorCode.InvalidQuery);

    assertThat(TableInfoJson.readList(http.get("/v1/tables").body()))
        .extracting(TableInfo::name)
        .doesNotContain(view);
    assertError(http.get("/v1/views/" + view), 404, ErrorCode.TableNotFound);
  }

  @Test
  void unknownViewsAnswer404TableNotFound() {
    String view = name("Missing");
    assertError(http.get("/v1/views/" + view), 404, ErrorCode.TableNotFound);
    assertError(http.send("DELETE", "/v1/views/" + view, null), 404, ErrorCode.TableNotFound);
    assertError(
        http.send("POST", "/v1/views/" + view + "/verify", null), 404, ErrorCode.TableNotFound);
    assertError(http.get("/v1/tables/" + view + "/items/p"), 404, ErrorCode.TableNotFound);
    assertError(
        http.send("GET", "/v1/views/" + view + "/verify", null), 405, ErrorCode.MethodNotAllowed);
    assertError(http.get("/v1/views/" + view + "/other"), 404, ErrorCode.UnknownEndpoint);
  }

  @Test
  void verifyAfterBackfillAndWritesFindsZeroDriftAndRepairReportsRepaired() {
    String people = newTable("People");
    String view = name("ByEmail");
    for (int i = 0; i < 300; i++) {
      putItem(people, "p" + (i % 3), "id" + i, "{\"email\":\"u" + i + "@x\",\"n\":" + i + "}");
    }
    createBuiltView(
        view,
        "{\"source\":\""
            + people
            + "\",\"partitionBy\":\"all\",\"idBy\":\"{email}\","
            + "\"where\":\"n ge 100\"}");
    putItem(people, "p0", "id0", "{\"email\":\"u0@x\",\"n\":1000}");
    http.send("DELETE", "/v1/tables/" + people + "/items/p1/id100", null);

    HttpResponse<byte[]> verified = http.send("POST", "/v1/views/" + view + "/verify", null);
    assertThat(verified.statusCode()).as(text(verified)).isEqualTo(200);
    VerifyReport report = VerifyReportJson.read(verified.body());
    assertThat(report.view()).isEqualTo(view);
    assertThat(report.checked()).isEqualTo(299);
    assertThat(report.drift()).isZero();
    assertThat(report.repaired()).isFalse();
    assertThat(text(verified)).contains("\"drift\":0");

    HttpResponse<byte[]> repaired =
        http.send("POST", "/v1/views/" + view + "/verify?repair=true", null);
    assertThat(repaired.statusCode()).isEqualTo(200);
    assertThat(VerifyReportJson.read(repaired.body()).drift()).isZero();
    assertThat(query(view, "all?limit=1000")).hasSize(200);

    assertError(
        http.send("POST", "/v1/views/" + view + "/verify?fix=true", null),
        400,
        ErrorCode.InvalidQuery);
    assertError(
        http.send("POST", "/v1/views/" + view + "/verify?repair=yes", null),
        400,
        ErrorCode.InvalidQuery);
  }

  @Test
  void backfillOverDuplicateKeysFailsAndReadsAnswer409ViewNotReadyUntilDropped() {
    String people = newTable("People");
    String view = name("ByEmail");
    putItem(people, "p", "1", "{\"email\":\"same@x\"}");
    putItem(people, "p", "2", "{\"email\":\"same@x\"}");
    createView(
        view, "{\"source\":\"" + people + "\",\"partitionBy\":\"all\",\"idBy\":\"{email}\"}");

    ViewStatus failed = awaitBuilt(view);
    assertThat(failed.state()).isEqualTo(ViewStatus.FAILED);
    assertThat(failed.conflicts())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.viewId()).isEqualTo("same@x");
              assertThat(List.of(c.sourceId(), c.otherSourceId()))
                  .containsExactlyInAnyOrder("1", "2");
            });
    assertThat(text(http.get("/v1/views/" + view)))
        .contains("\"state\":\"failed\"", "\"conflicts\":[{");
    assertError(getItem(view, "all", "same@x"), 409, ErrorCode.ViewNotReady);
    assertError(http.get("/v1/tables/" + view + "/items/all"), 409, ErrorCode.ViewNotReady);
    assertError(
        http.send("POST", "/v1/views/" + view + "/verify", null), 409, ErrorCode.ViewNotReady);

    assertThat(http.send("DELETE", "/v1/views/" + view, null).statusCode()).isEqualTo(204);
    assertError(http.get("/v1/views/" + view), 404, ErrorCode.TableNotFound);
    assertError(getItem(view, "all", "same@x"), 404, ErrorCode.TableNotFound);
    assertThat(item(getItem(people, "p", "2")).properties())
        .containsEntry("email", Value.of("same@x"));
  }

  @Test
  void dropViewAnswers204AndTheNameCanBeUsedAgain() {
    String people = newTable("People");
    String view = name("ByEmail");
    createBuiltView(view, "{\"source\":\"" + people + "\",\"idBy\":\"{email}\"}");
    assertThat(http.send("DELETE", "/v1/views/" + view, null).statusCode()).isEqualTo(204);
    assertError(http.send("DELETE", "/v1/views/" + view, null), 404, ErrorCode.TableNotFound);
    assertThat(
            createBuiltView(view, "{\"source\":\"" + people + "\",\"idBy\":\"{email}#{id}\"}")
                .definition()
                .idBy())
        .isEqualTo("{email}#{id}");
  }

  @Test
  void viewStatusOfATableAnswers400InvalidView() {
    String people = newTable("People");
    assertThat(code(http.get("/v1/views/" + people))).isEqualTo(ErrorCode.InvalidView);
  }

  @Test
  void historyAndPartitionsViewsOverTheNativeApiShowTheirKindAndEntries() {
    String people = newTable("People");
    String history = name("PeopleHistory");
    String counts = name("PeopleCounts");
    ViewStatus built =
        createBuiltView(
            history,
            "{\"source\":\""
                + people
                + "\",\"kind\":\"history\",\"retention\":{\"maxVersions\":5,\"maxAge\":\"P30D\"}}");
    assertThat(built.definition().kind()).isEqualTo(ViewDefinition.Kind.HISTORY);
    assertThat(built.definition().retention())
        .isEqualTo(new ViewDefinition.Retention(5, Duration.ofDays(30)));
    assertThat(
            createBuiltView(counts, "{\"source\":\"" + people + "\",\"kind\":\"partitions\"}")
                .definition()
                .kind())
        .isEqualTo(ViewDefinition.Kind.PARTITIONS);
    HttpResponse<byte[]> status = http.get("/v1/views/" + history);
    assertThat(text(status))
        .contains("\"kind\":\"history\"")
        .contains("\"retention\":{\"maxVersions\":5,\"maxAge\":\"PT720H\"}");

    assertThat(putItem(people, "acme", "ann", "{\"age\":30}").statusCode()).isEqualTo(200);
    assertThat(putItem(people, "acme", "bo", "{\"age\":40}").statusCode()).isEqualTo(200);
    assertThat(http.send("DELETE", "/v1/tables/" + people + "/items/acme/ann", null).statusCode())
        .isIn(200, 204);

    List<Item> entries = query(history, "acme%23ann");
    assertThat(entries).hasSize(2);
    assertThat(entries.get(0).properties())
        .containsEntry("age", Value.of(30))
        .containsEntry("_operation", Value.of("upsert"));
    assertThat(entries.get(1).properties())
        .containsEntry("_operation", Value.of("delete"))
        .containsEntry("_deleted", Value.of(true));
    assertThat(entries.get(0).sourceId()).isEqualTo("ann");
    Item count = item(getItem(counts, "all", "acme"));
    assertThat(count.properties()).containsEntry("count", Value.of(1L));

    HttpResponse<byte[]> refused =
        createView(name("Bad"), "{\"source\":\"" + people + "\",\"kind\":\"ledger\"}");
    assertThat(code(refused)).isEqualTo(ErrorCode.InvalidView);
    HttpResponse<byte[]> badRetention =
        createView(
            name("Bad"),
            "{\"source\":\""
                + people
                + "\",\"kind\":\"history\",\"retention\":{\"maxAge\":\"soon\"}}");
    assertThat(code(badRetention)).isEqualTo(ErrorCode.InvalidView);
    HttpResponse<byte[]> writeOperation = putItem(people, "acme", "cy", "{\"_operation\":\"x\"}");
    assertThat(code(writeOperation)).isEqualTo(ErrorCode.InvalidPropertyName);
  }
}
