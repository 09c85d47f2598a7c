package io.viewbase.server;

import static io.viewbase.server.NativeApiContract.assertError;
import static io.viewbase.server.NativeApiContract.enc;
import static io.viewbase.server.TestHttp.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.Value;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.BatchResultJson;
import io.viewbase.json.ErrorJson;
import io.viewbase.json.ItemJson;
import io.viewbase.json.PageJson;
import io.viewbase.json.ViewStatusJson;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code POST /v1/batch} on a real socket: all or nothing across tables, partitions and views, the
 * failing operation's index in the error, the move idiom, and bad shapes. Subclasses say which
 * database to serve; every test works with tables and views of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class BatchApiContract {
  private static final AtomicInteger NAMES = new AtomicInteger();

  /** The 0-based index of the operation that fails: the 57th, as the acceptance asks. */
  private static final int FAILING = 56;

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

  String newTable(String prefix) {
    String name = prefix + NAMES.incrementAndGet();
    assertThat(http.send("PUT", "/v1/tables/" + name, null).statusCode()).isEqualTo(201);
    return name;
  }

  /**
   * A view of {@code source} keyed by email in one partition: a uniqueness constraint on emails.
   */
  String newEmailView(String source) {
    return newView(source, "all", "{email}");
  }

  /** A view of {@code source} with these key templates, once it is ready. */
  String newView(String source, String partitionBy, String idBy) {
    String view = "View" + NAMES.incrementAndGet();
    HttpResponse<byte[]> r =
        http.send(
            "PUT",
            "/v1/views/" + view,
            "{\"source\":\""
                + source
                + "\",\"partitionBy\":\""
                + partitionBy
                + "\",\"idBy\":\""
                + idBy
                + "\"}");
    assertThat(r.statusCode()).as(text(r)).isIn(201, 202);
    // polled over the API, as its client would
    ViewStatus status =
        ViewBuilds.awaitBuilt(
            view, () -> ViewStatusJson.read(http.get("/v1/views/" + view).body()));
    assertThat(status.state()).isEqualTo(ViewStatus.READY);
    return view;
  }

  HttpResponse<byte[]> batch(List<String> operations) {
    return http.send(
        "POST", "/v1/batch", "{\"operations\":[" + String.join(",", operations) + "]}");
  }

  static String op(String op, String table, String pk, String id, String item, String ifMatch) {
    return "{\"op\":\""
        + op
        + "\",\"table\":\""
        + table
        + "\",\"partitionKey\":\""
        + pk
        + "\",\"id\":\""
        + id
        + "\""
        + (item == null ? "" : ",\"item\":" + item)
        + (ifMatch == null ? "" : ",\"ifMatch\":" + quote(ifMatch))
        + "}";
  }

  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  Item put(String table, String pk, String id, String body) {
    HttpResponse<byte[]> r =
        http.send("PUT", "/v1/tables/" + table + "/items/" + enc(pk) + "/" + enc(id), body);
    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    return ItemJson.readStored(r.body(), Limits.DEFAULT);
  }

  HttpResponse<byte[]> get(String table, String pk, String id) {
    return http.get("/v1/tables/" + table + "/items/" + enc(pk) + "/" + enc(id));
  }

  /**
   * Every item of a table or view as the server writes it, page after page: bytes, ETags included.
   */
  List<String> scan(String table) {
    List<String> all = new ArrayList<>();
    String continuation = null;
    do {
      HttpResponse<byte[]> r =
          http.get(
              "/v1/tables/"
                  + table
                  + "/items?limit=7"
                  + (continuation == null ? "" : "&continuation=" + enc(continuation)));
      assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
      Page page = PageJson.read(r.body(), Limits.DEFAULT);
      page.items()
          .forEach(item -> all.add(new String(ItemJson.write(item), StandardCharsets.UTF_8)));
      continuation = page.continuation();
    } while (continuation != null);
    return all;
  }

  static ViewbaseException error(HttpResponse<byte[]> r) {
    return ErrorJson.read(r.body())
        .orElseThrow(() -> new AssertionError("not a JSON error: " + text(r)));
  }

  @Test
  void batchAcrossTwoTablesAndPartitionsCommitsEveryOperation() {
    String people = newTable("People");
    String orders = newTable("Orders");
    Item old = put(people, "acme", "old", "{\"n\":0}");
    Item kept = put(people, "zeta", "kept", "{\"a\":1}");

    HttpResponse<byte[]> r =
        batch(
            List.of(
                op("insert", people, "acme", "ann", "{\"age\":34}", null),
                op("upsert", orders, "2026", "o1", "{\"total\":12.5,\"who\":\"ann\"}", null),
                op("merge", people, "zeta", "kept", "{\"b\":2}", kept.etag()),
                op("delete", people, "acme", "old", null, old.etag()),
                op("check", orders, "2026", "o2", null, null)));

    assertThat(r.statusCode()).as(text(r)).isEqualTo(200);
    BatchResult result = BatchResultJson.read(r.body(), Limits.DEFAULT);
    assertThat(result.items()).hasSize(5);
    assertThat(result.items().get(3)).isNull();
    assertThat(result.items().get(4)).isNull();
    for (Item stored : result.items().subList(0, 3)) {
      assertThat(stored.etag()).isNotNull();
      assertThat(stored.timestamp()).isNotNull();
      HttpResponse<byte[]> read =
          get(
              stored == result.items().get(1) ? orders : people,
              stored.partitionKey(),
              stored.id());
      assertThat(ItemJson.readStored(read.body(), Limits.DEFAULT)).isEqualTo(stored);
    }
    assertThat(result.items().get(2).properties())
        .containsEntry("a", Value.of(1))
        .containsEntry("b", Value.of(2));
    assertError(get(people, "acme", "old"), 404, ErrorCode.ItemNotFound);
  }

  /** How the 57th operation of a batch is made to fail. */
  enum Failure {
    STALE_ETAG(412, ErrorCode.PreconditionFailed),
    DUPLICATE_INSERT(409, ErrorCode.ItemAlreadyExists),
    VIEW_KEY_CONFLICT(409, ErrorCode.ViewKeyConflict);

    final int status;
    final ErrorCode code;

    Failure(int status, ErrorCode code) {
      this.status = status;
      this.code = code;
    }
  }

  @ParameterizedTest
  @EnumSource(Failure.class)
  void batchWhoseOperation57FailsReportsIndex56AndLeavesItemsAndViewsAsTheyWere(Failure failure) {
    String people = newTable("People");
    String orders = newTable("Orders");
    String byEmail = newEmailView(people);
    List<Item> seeded = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      seeded.add(put(people, "p" + i % 4, "s" + i, "{\"email\":\"s" + i + "@x\",\"n\":" + i + "}"));
      put(orders, "o" + i % 3, "s" + i, "{\"n\":" + i + "}");
    }
    Item target = seeded.get(39);
    Item changedSince =
        put(people, target.partitionKey(), target.id(), "{\"email\":\"s39@x\",\"n\":-1}");
    assertThat(changedSince.etag()).isNotEqualTo(target.etag());

    // 56 operations that would each succeed: new items, view keys that move, deletes, across
    // tables.
    List<String> ops = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ops.add(op("insert", people, "new" + i % 3, "n" + i, "{\"email\":\"n" + i + "@x\"}", null));
    }
    for (int i = 0; i < 16; i++) {
      Item s = seeded.get(i);
      ops.add(
          op(
              "merge",
              people,
              s.partitionKey(),
              s.id(),
              "{\"email\":\"moved" + i + "@x\"}",
              s.etag()));
    }
    for (int i = 16; i < 26; i++) {
      Item s = seeded.get(i);
      ops.add(op("delete", people, s.partitionKey(), s.id(), null, s.etag()));
    }
    for (int i = 0; i < 10; i++) {
      ops.add(
          op(
              i % 2 == 0 ? "upsert" : "upsertMerge",
              orders,
              "o" + i % 3,
              "s" + i,
              "{\"n\":" + (100 + i) + "}",
              null));
    }
    assertThat(ops).hasSize(FAILING);
    ops.add(
        switch (failure) {
          case STALE_ETAG ->
              op(
                  "replace",
                  people,
                  target.partitionKey(),
                  target.id(),
                  "{\"email\":\"s39@x\"}",
                  target.etag());
          case DUPLICATE_INSERT ->
              op("insert", people, seeded.get(36).partitionKey(), seeded.get(36).id(), "{}", null);
          case VIEW_KEY_CONFLICT ->
              op("insert", people, "new", "thief", "{\"email\":\"s30@x\"}", null);
        });
    ops.add(op("upsert", orders, "after", "a", "{}", null));

    List<String> peopleBefore = scan(people);
    List<String> ordersBefore = scan(orders);
    List<String> viewBefore = scan(byEmail);

    HttpResponse<byte[]> r = batch(ops);

    assertError(r, failure.status, failure.code);
    ViewbaseException e = error(r);
    assertThat(e.context()).containsEntry("operationIndex", FAILING).containsEntry("table", people);
    assertThat(e.getMessage()).contains(String.valueOf(FAILING));
    assertThat(scan(people)).isEqualTo(peopleBefore);
    assertThat(scan(orders)).isEqualTo(ordersBefore);
    assertThat(scan(byEmail)).isEqualTo(viewBefore).hasSize(40);
  }

  @Test
  void moveIdiomInsertsTheNewItemAndDeletesTheOldOneAtItsEtag() {
    String people = newTable("People");
    String byEmail = newView(people, "{partitionKey}", "{email}");
    Item ann = put(people, "acme", "ann", "{\"email\":\"ann@x\",\"age\":34}");

    HttpResponse<byte[]> moved =
        batch(
            List.of(
                op("insert", people, "globex", "ann", "{\"email\":\"ann@x\",\"age\":34}", null),
                op("delete", people, "acme", "ann", null, ann.etag())));

    assertThat(moved.statusCode()).as(text(moved)).isEqualTo(200);
    assertError(get(people, "acme", "ann"), 404, ErrorCode.ItemNotFound);
    Item now = ItemJson.readStored(get(people, "globex", "ann").body(), Limits.DEFAULT);
    assertThat(now.properties()).containsEntry("age", Value.of(34));
    assertError(get(byEmail, "acme", "ann@x"), 404, ErrorCode.ItemNotFound);
    Item viewItem = ItemJson.readStored(get(byEmail, "globex", "ann@x").body(), Limits.DEFAULT);
    assertThat(viewItem.sourcePartitionKey()).isEqualTo("globex");

    HttpResponse<byte[]> again =
        batch(
            List.of(
                op("insert", people, "initech", "ann", "{\"email\":\"ann@x\"}", null),
                op("delete", people, "acme", "ann", null, ann.etag())));
    assertError(again, 404, ErrorCode.ItemNotFound);
    assertThat(error(again).context()).containsEntry("operationIndex", 1);
    assertError(get(people, "initech", "ann"), 404, ErrorCode.ItemNotFound);
  }

  @Test
  void moveUnderAUniqueViewKeyDeletesTheOldItemFirst() {
    String people = newTable("People");
    String byEmail = newEmailView(people);
    Item ann = put(people, "acme", "ann", "{\"email\":\"ann@x\"}");

    HttpResponse<byte[]> moved =
        batch(
            List.of(
                op("delete", people, "acme", "ann", null, ann.etag()),
                op("insert", people, "globex", "ann", "{\"email\":\"ann@x\"}", null)));

    assertThat(moved.statusCode()).as(text(moved)).isEqualTo(200);
    Item viewItem = ItemJson.readStored(get(byEmail, "all", "ann@x").body(), Limits.DEFAULT);
    assertThat(viewItem.sourcePartitionKey()).isEqualTo("globex");
  }

  @Test
  void checkOperationsAssertAnEtagPresenceOrAbsence() {
    String t = newTable("Checks");
    Item a = put(t, "p", "a", "{}");
    String write = op("upsert", t, "p", "w", "{}", null);

    assertThat(
            batch(
                    List.of(
                        op("check", t, "p", "a", null, a.etag()),
                        op("check", t, "p", "a2", null, null),
                        write))
                .statusCode())
        .isEqualTo(200);
    put(t, "p", "a", "{\"v\":2}");
    assertError(
        batch(List.of(write, op("check", t, "p", "a", null, a.etag()))),
        412,
        ErrorCode.PreconditionFailed);
    assertError(
        batch(List.of(write, op("check", t, "p", "a", null, null))),
        409,
        ErrorCode.ItemAlreadyExists);
    assertError(
        batch(List.of(write, op("check", t, "p", "nope", null, "*"))), 404, ErrorCode.ItemNotFound);
  }

  @Test
  void badBatchShapesAnswer400AndWriteNothing() {
    String t = newTable("Shapes");
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      many.add(op("upsert", t, "p", "i" + i, "{}", null));
    }
    assertError(batch(List.of()), 400, ErrorCode.InvalidInput);
    assertError(batch(many), 400, ErrorCode.InvalidInput);
    HttpResponse<byte[]> twice =
        batch(
            List.of(op("upsert", t, "p", "a", "{}", null), op("delete", t, "p", "a", null, null)));
    assertError(twice, 400, ErrorCode.InvalidInput);
    assertThat(error(twice).context()).containsEntry("operationIndex", 1);
    String big = "{\"s\":\"" + "x".repeat(900_000) + "\"}";
    List<String> tooBig = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      tooBig.add(op("upsert", t, "p", "big" + i, big, null));
    }
    assertError(batch(tooBig), 400, ErrorCode.InvalidInput);
    HttpResponse<byte[]> unknown =
        http.send(
            "POST",
            "/v1/batch",
            "{\"operations\":[{\"op\":\"upsert\",\"table\":\""
                + t
                + "\",\"partitionKey\":\"p\",\"id\":\"i\",\"item\":{},"
                + "\"if_match\":\"*\"}]}");
    assertError(unknown, 400, ErrorCode.InvalidInput);
    assertThat(text(unknown)).contains("if_match").contains("\"operationIndex\":0");
    assertError(http.send("POST", "/v1/batch", "{\"operations\":["), 400, ErrorCode.InvalidJson);
    assertError(
        http.sendBytes("POST", "/v1/batch", "{}".getBytes(StandardCharsets.UTF_8), "text/plain"),
        415,
        ErrorCode.UnsupportedMediaType);
    assertThat(scan(t)).isEmpty();
  }

  @Test
  void batchNamingAMissingTableOrAViewFailsAtThatOperation() {
    String t = newTable("Targets");
    String view = newEmailView(t);
    String write = op("upsert", t, "p", "i", "{\"email\":\"e@x\"}", null);

    HttpResponse<byte[]> missing =
        batch(List.of(write, op("upsert", "Missing" + t, "p", "i", "{}", null)));
    assertError(missing, 404, ErrorCode.TableNotFound);
    assertThat(error(missing).context()).containsEntry("operationIndex", 1);
    HttpResponse<byte[]> toView = batch(List.of(write, op("upsert", view, "all", "x", "{}", null)));
    assertError(toView, 409, ErrorCode.ViewIsReadOnly);
    assertThat(error(toView).context()).containsEntry("operationIndex", 1);
    assertThat(scan(t)).isEmpty();
  }
}
