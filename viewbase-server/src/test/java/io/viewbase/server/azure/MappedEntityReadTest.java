package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Get Entity on a RocksDB-backed database, whose value cache keeps each entity's rendered answer: a
 * repeat read gets the kept bytes only when it asks for the same shape, and never after a write.
 */
class MappedEntityReadTest {
  private static final String ENTITY = "/People(PartitionKey='p',RowKey='r')";

  @TempDir Path dir;
  private Database db;
  private AzureApi api;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.at(dir));
    api = new AzureApi(db, AzureOptions.defaults());
    db.createTable("People");
    assertThat(
            send(SignedRequests.of("POST", "/People")
                    .body("{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"a\":1,\"b\":2}"))
                .status())
        .isEqualTo(201);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private AzureResponse send(SignedRequests request) {
    return api.handle(request.build());
  }

  private String get(String query, String accept) {
    AzureResponse r = send(SignedRequests.of("GET", ENTITY + query).header("accept", accept));
    assertThat(r.status()).isEqualTo(200);
    return r.bodyText();
  }

  @Test
  void aSelectionInAnotherOrderIsRenderedInThatOrder() {
    String minimal = "application/json;odata=minimalmetadata";
    String ab = get("?$select=a,b", minimal);
    String ba = get("?$select=b,a", minimal);

    assertThat(ab.indexOf("\"a\":1")).isLessThan(ab.indexOf("\"b\":2"));
    assertThat(ba.indexOf("\"b\":2")).isLessThan(ba.indexOf("\"a\":1"));
    assertThat(get("?$select=a,b", minimal)).isEqualTo(ab);
  }

  @Test
  void eachMetadataLevelGetsItsOwnAnswer() {
    String none = get("", "application/json;odata=nometadata");
    String full = get("", "application/json;odata=fullmetadata");
    String noneAgain = get("", "application/json;odata=nometadata");

    assertThat(none).doesNotContain("odata.");
    assertThat(full).contains("odata.etag", "odata.type");
    assertThat(noneAgain).isEqualTo(none);
  }

  @Test
  void aReadAfterAnUpdateGetsTheNewEntityAndEtag() {
    String minimal = "application/json;odata=minimalmetadata";
    AzureResponse before = send(SignedRequests.of("GET", ENTITY));
    assertThat(get("", minimal)).contains("\"a\":1");

    AzureResponse merged =
        send(
            SignedRequests.of("MERGE", ENTITY)
                .header("if-match", before.header("ETag"))
                .body("{\"a\":5}"));
    assertThat(merged.status()).isEqualTo(204);

    AzureResponse after = send(SignedRequests.of("GET", ENTITY));
    assertThat(after.bodyText()).contains("\"a\":5", "\"b\":2");
    assertThat(after.header("ETag"))
        .isEqualTo(merged.header("ETag"))
        .isNotEqualTo(before.header("ETag"));
  }
}
