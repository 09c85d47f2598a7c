package io.viewbase.server;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import java.io.ByteArrayOutputStream;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing of the native API's request path: raw bytes from a real socket through
 * the listener, routing, query parameters, JSON bodies and continuation tokens into a real
 * database. The input builds one request (a method, a path from the API's routes with a fuzzed
 * tail, a fuzzed query, headers and body; or, one time in eight, raw bytes as they come). The
 * contract for any input:
 *
 * <ul>
 *   <li>every answer is a well-formed HTTP/1.1 response whose status is below 500 (501
 *       NotImplemented, documented, aside);
 *   <li>the server answers and closes within a second of the request or of the client closing its
 *       side (no hang);
 *   <li>a refused request (every answer 4xx) leaves the stored items of {@code People} as they
 *       were.
 * </ul>
 *
 * Inputs replay from {@code NativeRequestFuzzTestInputs/}.
 */
class NativeRequestFuzzTest {
  private static final String[] METHODS = {"GET", "PUT", "PATCH", "DELETE", "POST", "HEAD"};
  private static final String[] PATHS = {
    "/v1/tables/People/items/acme/ann",
    "/v1/tables/People/items",
    "/v1/tables/People/items/acme",
    "/v1/tables/People",
    "/v1/tables",
    "/v1/batch",
    "/v1/tables/People/changes",
    "/v1/views/ByAge",
    "/v1/health",
    "/v1/"
  };

  static Database db;
  static ViewbaseServer server;

  @BeforeAll
  static void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    seed(db);
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withIoThreads(1));
  }

  /**
   * The table every input is checked against, with its five items: made at the start, and again
   * when an input that was accepted dropped it (a DELETE of the table is a valid request).
   */
  static void seed(Database db) {
    db.createTable("People");
    for (int i = 0; i < 5; i++) {
      db.table("People").upsert(Item.of("acme", "p" + i, Map.of("age", Value.of(30 + i))));
    }
  }

  @AfterAll
  static void stop() {
    server.close();
    db.close();
  }

  @Dictionary
  @FuzzTest(maxDuration = "3s")
  void requestsAnswerBelow500WithoutChangingDataWhenRefused(FuzzedDataProvider data) {
    check(db, data, request -> RawExchange.statuses(server.port(), request, 1000));
  }

  /** The words the inputs are made of, for the targets that fuzz native requests. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @DictionaryEntries({
    "?filter=",
    "&limit=",
    "&continuation=",
    "&select=",
    "&prefix=",
    "&from=",
    "&to=",
    "&desc=true",
    "age gt 3",
    "%20",
    "%",
    "If-Match: ",
    "If-None-Match: *",
    "Content-Type: application/json",
    "Transfer-Encoding: chunked",
    "Content-Length: ",
    "{\"age\":1}",
    "{\"operations\":[",
    "\"op\":\"insert\"",
    "\"table\":\"People\"",
    "\\x0D\\x0A"
  })
  @interface Dictionary {}

  /**
   * Checks one input against the contract, whatever carries the request to the listener's pipeline:
   * {@code exchange} sends the bytes and returns the statuses answered.
   */
  static void check(
      Database db, FuzzedDataProvider data, Function<byte[], List<Integer>> exchange) {
    RequestContract.check(db, "People", () -> seed(db), request(data), exchange);
  }

  static byte[] request(FuzzedDataProvider data) {
    if (data.consumeInt(0, 7) == 0) {
      return data.consumeRemainingAsBytes();
    }
    String method = data.pickValue(METHODS);
    String path = data.pickValue(PATHS) + data.consumeString(40);
    String query = data.consumeString(200);
    String headers = data.consumeString(200);
    byte[] body = data.consumeRemainingAsBytes();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String head =
        method
            + " "
            + path
            + (query.isEmpty() ? "" : "?" + query)
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: "
            + body.length
            + "\r\n"
            + (headers.isEmpty() ? "" : headers + "\r\n")
            + "\r\n";
    out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
    out.writeBytes(body);
    return out.toByteArray();
  }
}
