package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import io.viewbase.api.Database;
import io.viewbase.api.Viewbase;
import io.viewbase.server.azure.AzureOptions;
import io.viewbase.server.azure.AzureTablesServer;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code UseDevelopmentStorage=true}, the connection string applications use against Azurite, as
 * the SDK resolves it: {@code http://127.0.0.1:10002/devstoreaccount1}, signed with the well-known
 * key. A server started with the dialect's defaults serves it unchanged. The test needs port 10002:
 * it is skipped, saying so, when something else holds it.
 */
class DevelopmentStorageSdkTest {
  @TempDir Path dir;

  @Test
  void useDevelopmentStorageReachesAServerStartedWithTheDefaults() {
    try (Database db = Viewbase.open(AzureSdkServer.openOptions(dir))) {
      AzureTablesServer server;
      try {
        server = AzureTablesServer.start(db, AzureOptions.defaults());
      } catch (UncheckedIOException portTaken) {
        assumeTrue(
            false,
            "port " + AzureOptions.DEFAULT_PORT + " is not free here: " + portTaken.getMessage());
        return;
      }
      try (AzureTablesServer serving = server) {
        TableServiceClient service =
            new TableServiceClientBuilder()
                .connectionString("UseDevelopmentStorage=true")
                .retryOptions(AzureSdkServer.noRetries())
                .httpClient(AzureSdkServer.HTTP)
                .buildClient();

        TableClient table = service.createTable("DevStorageTable");
        table.upsertEntity(new TableEntity("p", "r").addProperty("answer", 42));

        assertThat(serving.port()).isEqualTo(AzureOptions.DEFAULT_PORT);
        assertThat(service.getServiceEndpoint())
            .isEqualTo("http://127.0.0.1:10002/devstoreaccount1");
        assertThat(table.getEntity("p", "r").getProperty("answer")).isEqualTo(42);
        assertThat(service.listTables()).extracting(TableItem::getName).contains("DevStorageTable");
        // it landed in this server's database, not elsewhere
        assertThat(db.table("DevStorageTable").get("p", "r")).isPresent();
      }
    }
  }
}
