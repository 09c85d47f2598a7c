package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import io.viewbase.server.ApiRequest;
import io.viewbase.server.ApiResponse;
import io.viewbase.server.NativeApi;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * One in-memory database behind its three interfaces, for tests that run the same input through
 * each: the Java API ({@link Database}), the native HTTP API ({@link NativeApi}) and the Azure
 * dialect ({@link AzureApi}), without a socket. Each write answers an outcome: {@link #OK}, or the
 * error code it failed with (an {@code ErrorCode} name for the Java and native APIs, the Azure
 * error code for the dialect).
 */
final class ThreeApis implements AutoCloseable {
  static final String OK = "ok";
  static final String TABLE = "Rules";

  final Database db;
  private final NativeApi nativeApi;
  private final AzureApi azureApi;

  ThreeApis() {
    this(Viewbase.open(OpenOptions.inMemory()));
  }

  /** The three interfaces over this database. */
  ThreeApis(Database db) {
    this.db = db;
    this.nativeApi = new NativeApi(db);
    this.azureApi = new AzureApi(db, AzureOptions.defaults());
    db.createTable(TABLE);
  }

  /** Upserts the item ("p", "r") with these properties through the Java API. */
  String javaApi(Map<String, Value> properties) {
    try {
      db.table(TABLE).upsert(Item.of("p", "r", properties));
      return OK;
    } catch (ViewbaseException e) {
      return e.code().name();
    }
  }

  /** PUTs {@code {members}} as the item ("p", "r") through the native API. */
  String nativeApi(String members) {
    ApiResponse r =
        nativeApi.handle(
            new ApiRequest(
                "PUT",
                "/v1/tables/" + TABLE + "/items/p/r",
                null,
                null,
                "application/json",
                ("{" + members + "}").getBytes(StandardCharsets.UTF_8)));
    if (r.status() == 200) {
      return OK;
    }
    return ErrorJson.read(r.body()).map(e -> e.code().name()).orElse("status " + r.status());
  }

  /** Inserts or replaces the entity ("p", "r") with {@code members} through the Azure dialect. */
  String azureApi(String members) {
    AzureResponse r =
        azureApi.handle(
            SignedRequests.of("PUT", "/" + TABLE + "(PartitionKey='p',RowKey='r')")
                .body(
                    "{\"PartitionKey\":\"p\",\"RowKey\":\"r\""
                        + (members.isEmpty() ? "" : "," + members)
                        + "}")
                .build());
    if (r.status() == 204) {
      return OK;
    }
    return Optional.ofNullable(r.header("x-ms-error-code")).orElse("status " + r.status());
  }

  /** GETs the item ("p", "r") through the native API. */
  ApiResponse nativeGet() {
    return nativeApi.handle(ApiRequest.of("GET", "/v1/tables/" + TABLE + "/items/p/r"));
  }

  /** GETs the entity ("p", "r") through the Azure dialect. */
  AzureResponse azureGet() {
    return azureApi.handle(
        SignedRequests.of("GET", "/" + TABLE + "(PartitionKey='p',RowKey='r')").build());
  }

  /** The stored value of a property of ("p", "r"), as the last successful write left it. */
  Value stored(String name) {
    return db.table(TABLE).get("p", "r").map(i -> i.properties().get(name)).orElse(null);
  }

  /**
   * A JSON string literal in ASCII: every other character escaped, so lone surrogates survive as
   * text.
   */
  static String json(String text) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
        sb.append(c);
      } else {
        sb.append(String.format("\\u%04x", (int) c));
      }
    }
    return sb.append('"').toString();
  }

  @Override
  public void close() {
    db.close();
  }
}
