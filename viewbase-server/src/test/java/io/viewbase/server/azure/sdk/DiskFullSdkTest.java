package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableServiceException;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose data directory's file system fills up: writes through the native API and the Azure
 * dialect (the official SDK, with its default retry policy) fail with 507 {@code
 * InsufficientStorage}, once and without retries; reads go on; every acknowledged write stays; and
 * writes succeed again once space is freed, with the same server and database. The data directory
 * is on a 32 MiB tmpfs with a filler file beside it ({@link SmallFileSystem}): skipped without
 * root.
 */
class DiskFullSdkTest {
  private static final String TABLE = "Full";

  /** A reserve and a memtable that fit the small file system (the defaults are 64 MiB each). */
  private static final Map<String, String> OPTIONS =
      Map.of("rocksdb.reservedDiskBytes", "2m", "rocksdb.writeBufferBytes", "2m");

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Random random = new Random(28);

  @TempDir Path dir;

  @Test
  void writesOnAFullDiskFail507InsufficientStorageInBothApisReadsGoOnAndWritesResume()
      throws Exception {
    Path mountPoint = Files.createDirectory(dir.resolve("small"));
    try (SmallFileSystem fs = SmallFileSystem.mount(mountPoint, 32);
        Database db =
            Viewbase.open(
                OpenOptions.at(fs.path().resolve("data")).withSync(true).withOptions(OPTIONS));
        ViewbaseServer server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0));
        AzureTablesServer azure =
            AzureTablesServer.start(db, AzureOptions.defaults().withPort(0))) {
      String base = "http://127.0.0.1:" + server.port();
      AtomicInteger azureTries = new AtomicInteger();
      TableClient table = azureClient(azure.port(), azureTries);
      assertThat(send(base, "PUT", "/v1/tables/" + TABLE, null).statusCode()).isEqualTo(201);
      List<String> acknowledged = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        assertThat(putNative(base, "n" + i).statusCode()).isEqualTo(200);
        acknowledged.add("n" + i);
        table.upsertEntity(entity("a" + i));
        acknowledged.add("a" + i);
      }

      Path filler = fs.path().resolve("filler");
      fs.fill(filler, 6 << 20); // some writes go on, then the store's 2 MiB reserve is reached
      HttpResponse<byte[]> refused = null;
      for (int i = 20; i < 5_000 && refused == null; i++) {
        HttpResponse<byte[]> r = putNative(base, "n" + i);
        if (r.statusCode() == 200) {
          acknowledged.add("n" + i);
        } else {
          refused = r;
        }
      }
      assertThat(refused).as("a native write on a full disk").isNotNull();
      assertThat(refused.statusCode()).isEqualTo(507);
      ViewbaseException error = ErrorJson.read(refused.body()).orElseThrow();
      assertThat(error.code()).isEqualTo(ErrorCode.InsufficientStorage);
      assertThat(error.getMessage()).contains("is full").contains("writes are refused");

      // RocksDB may free some space meanwhile (a closed log's preallocation): Azure writes go on
      // until one is refused too
      TableServiceException azureRefused = null;
      for (int i = 0; i < 1_000 && azureRefused == null; i++) {
        azureTries.set(0);
        try {
          table.upsertEntity(entity("z" + i));
          acknowledged.add("z" + i);
        } catch (TableServiceException e) {
          azureRefused = e;
        }
      }
      assertThat(azureRefused).as("an Azure write on a full disk").isNotNull();
      assertThat(azureRefused.getResponse().getStatusCode()).isEqualTo(507);
      assertThat(azureRefused.getValue().getErrorCode().toString())
          .isEqualTo("InsufficientStorage");
      // the SDK retries every 5xx but 501 and 505: each try is refused the same way
      assertThat(azureTries.get()).as("tries of the refused Azure write").isEqualTo(3);

      assertAllReadable(base, table, acknowledged); // reads go on while writes are refused

      Files.delete(filler);
      assertThat(putNative(base, "after").statusCode()).isEqualTo(200);
      acknowledged.add("after");
      table.upsertEntity(entity("afterAzure"));
      acknowledged.add("afterAzure");
      assertAllReadable(base, table, acknowledged);
    }
  }

  private void assertAllReadable(String base, TableClient table, List<String> ids)
      throws Exception {
    for (String id : ids) {
      assertThat(send(base, "GET", "/v1/tables/" + TABLE + "/items/p/" + id, null).statusCode())
          .as("native read of %s", id)
          .isEqualTo(200);
    }
    assertThat(table.getEntity("p", ids.get(ids.size() - 1)).getRowKey())
        .isEqualTo(ids.get(ids.size() - 1));
  }

  private HttpResponse<byte[]> putNative(String base, String id) throws Exception {
    return send(
        base, "PUT", "/v1/tables/" + TABLE + "/items/p/" + id, "{\"blob\":\"" + noise() + "\"}");
  }

  private TableEntity entity(String id) {
    return new TableEntity("p", id).addProperty("blob", noise());
  }

  /** 16 KiB of base64 of random bytes: compression does not shrink it much. */
  private String noise() {
    byte[] bytes = new byte[12 << 10];
    random.nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  private HttpResponse<byte[]> send(String base, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /** A client that retries twice without waiting, counting every try it sends. */
  private static TableClient azureClient(int port, AtomicInteger tries) {
    HttpPipelinePolicy counting =
        (context, next) -> {
          tries.incrementAndGet();
          return next.process();
        };
    return new TableClientBuilder()
        .endpoint("http://127.0.0.1:" + port + "/" + AzureSdkServer.ACCOUNT)
        .credential(new AzureNamedKeyCredential(AzureSdkServer.ACCOUNT, AzureSdkServer.KEY))
        .tableName(TABLE)
        .httpClient(AzureSdkServer.HTTP)
        .retryOptions(new RetryOptions(new FixedDelayOptions(2, Duration.ofMillis(10))))
        .addPolicy(counting)
        .buildClient();
  }
}
