package io.viewbase.server.azure;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.server.RawExchange;
import io.viewbase.server.RequestContract;
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
 * Coverage-guided fuzzing of the Azure Tables dialect's request path: raw bytes from a real socket
 * through the listener, SharedKey and SAS authentication, resource paths, query options ({@code
 * $filter}, {@code NextPartitionKey} continuation tokens), entity JSON and {@code $batch} multipart
 * into a real database. The input builds one request (a method, a path-style resource with a fuzzed
 * tail, a fuzzed query, headers and body) and chooses whether it is signed with the account's key
 * (SharedKeyLite, as clients sign) so that it reaches the endpoints, or sent as is so that its
 * Authorization header or SAS parameters are what is parsed; one time in eight it is raw bytes as
 * they come. The contract for any input:
 *
 * <ul>
 *   <li>every answer is a well-formed HTTP/1.1 response whose status is below 500 (501
 *       NotImplemented, documented, aside);
 *   <li>the server answers and closes within a second of the request or of the client closing its
 *       side (no hang);
 *   <li>a refused request (every answer 4xx) leaves the stored entities of {@code people} as they
 *       were.
 * </ul>
 *
 * Inputs replay from {@code AzureRequestFuzzTestInputs/}.
 */
class AzureRequestFuzzTest {
  private static final String ACCOUNT = AzureOptions.DEV_ACCOUNT;
  private static final AccountKey KEY = new AccountKey(ACCOUNT, AzureOptions.DEV_KEY);
  private static final String[] METHODS = {"GET", "POST", "PUT", "MERGE", "PATCH", "DELETE"};
  private static final String[] PATHS = {
    "/Tables",
    "/Tables('people')",
    "/people",
    "/people()",
    "/people(PartitionKey='acme',RowKey='p1')",
    "/$batch",
    "/",
    "/people"
  };
  private static final String[] CONTENT_TYPES = {
    "application/json", "multipart/mixed; boundary=batch_B", "application/xml", ""
  };

  /** The server's options: the development account, with its key. */
  static final AzureOptions OPTIONS =
      AzureOptions.defaults().withPort(0).withAccount(ACCOUNT, AzureOptions.DEV_KEY);

  static Database db;
  static AzureTablesServer server;

  @BeforeAll
  static void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    seed(db);
    server = AzureTablesServer.start(db, OPTIONS);
  }

  /**
   * The table every input is checked against, with its five items: made at the start, and again
   * when an input that was accepted dropped it (a DELETE of the table is a valid request).
   */
  static void seed(Database db) {
    db.createTable("people");
    for (int i = 0; i < 5; i++) {
      db.table("people").upsert(Item.of("acme", "p" + i, Map.of("Age", Value.of(30 + i))));
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

  /** The words the inputs are made of, for the targets that fuzz Azure requests. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target(ElementType.METHOD)
  @DictionaryEntries({
    "$filter=",
    "&$top=",
    "&$select=",
    "NextPartitionKey=",
    "&NextRowKey=",
    "NextTableName=",
    "PartitionKey eq 'acme'",
    "%27",
    "%20",
    "sig=",
    "&sv=2019-02-02",
    "&se=2099-01-01T00:00:00Z",
    "&st=",
    "&sp=raud",
    "&tn=people",
    "&ss=t",
    "&srt=sco",
    "&spk=",
    "&si=",
    "&sip=",
    "&spr=https",
    "restype=service",
    "comp=properties",
    "comp=acl",
    "Authorization: SharedKey ",
    "Authorization: SharedKeyLite devstoreaccount1:",
    "x-ms-date: ",
    "If-Match: *",
    "Accept: application/json;odata=fullmetadata",
    "DataServiceVersion: 3.0",
    "Prefer: ",
    "--batch_B\\x0D\\x0AContent-Type: multipart/mixed; boundary=changeset_C\\x0D\\x0A\\x0D\\x0A",
    "--changeset_C",
    "{\"PartitionKey\":\"acme\",\"RowKey\":\"x\"}",
    "@odata.type",
    "Edm.Int64"
  })
  @interface Dictionary {}

  /**
   * Checks one input against the contract, whatever carries the request to the listener's pipeline:
   * {@code exchange} sends the bytes and returns the statuses answered.
   */
  static void check(
      Database db, FuzzedDataProvider data, Function<byte[], List<Integer>> exchange) {
    RequestContract.check(db, "people", () -> seed(db), request(data), exchange);
  }

  static byte[] request(FuzzedDataProvider data) {
    int shape = data.consumeInt(0, 7);
    if (shape == 0) {
      return data.consumeRemainingAsBytes();
    }
    boolean sign = shape >= 3;
    String method = data.pickValue(METHODS);
    String path = "/" + ACCOUNT + data.pickValue(PATHS) + data.consumeString(40);
    String query = data.consumeString(200);
    String contentType = data.pickValue(CONTENT_TYPES);
    String headers = data.consumeString(200);
    byte[] body = data.consumeRemainingAsBytes();
    String date = SignedRequests.now();
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(path);
    if (!query.isEmpty()) {
      head.append('?').append(query);
    }
    head.append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    head.append("Accept: application/json;odata=minimalmetadata\r\n");
    head.append("x-ms-date: ").append(date).append("\r\n");
    head.append("Content-Length: ").append(body.length).append("\r\n");
    if (!contentType.isEmpty()) {
      head.append("Content-Type: ").append(contentType).append("\r\n");
    }
    if (sign) {
      java.util.regex.Matcher comp =
          java.util.regex.Pattern.compile("(?:^|&)comp=([^&]*)").matcher(query);
      String toSign = date + "\n/" + ACCOUNT + path + (comp.find() ? "?comp=" + comp.group(1) : "");
      head.append("Authorization: SharedKeyLite ")
          .append(ACCOUNT)
          .append(':')
          .append(KEY.sign(toSign))
          .append("\r\n");
    }
    if (!headers.isEmpty()) {
      head.append(headers).append("\r\n");
    }
    head.append("\r\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
    out.writeBytes(body);
    return out.toByteArray();
  }
}
