package io.viewbase.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ApiKeys;
import io.viewbase.server.KeyScope;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RemoteDatabase} with an API key: it sends it on every call, and the server's 401 and 403
 * come back as the same codes a caller can branch on.
 */
class RemoteApiKeysTest {
  private Database embedded;
  private ViewbaseServer server;
  private URI base;
  private String admin;

  @BeforeEach
  void start() {
    embedded = Viewbase.open(OpenOptions.inMemory());
    admin = ApiKeys.of(embedded).create(KeyScope.ADMIN, List.of(), "admin").secret();
    server = ViewbaseServer.start(embedded, ServerOptions.defaults().withPort(0).withIoThreads(1));
    base = URI.create("http://127.0.0.1:" + server.port());
  }

  @AfterEach
  void stop() {
    server.close();
    embedded.close();
  }

  private static ErrorCode codeOf(Runnable call) {
    try {
      call.run();
    } catch (ViewbaseException e) {
      return e.code();
    }
    throw new AssertionError("no error");
  }

  @Test
  void withoutAKeyEveryCallFailsWithApiKeyRequired() {
    try (RemoteDatabase anonymous = RemoteDatabase.connect(base)) {
      assertThat(codeOf(anonymous::listTables)).isEqualTo(ErrorCode.ApiKeyRequired);
    }
  }

  @Test
  void anAdminKeyCreatesTablesAndAWriteKeyWritesItsTableOnly() {
    String write = ApiKeys.of(embedded).create(KeyScope.WRITE, List.of("People"), "app").secret();
    try (RemoteDatabase asAdmin = RemoteDatabase.connect(base, admin);
        RemoteDatabase asApp = RemoteDatabase.connect(base, write)) {
      asAdmin.createTable("People");
      asAdmin.createTable("Orders");
      assertThat(codeOf(() -> asApp.createTable("Other"))).isEqualTo(ErrorCode.ApiKeyDenied);
      asApp.table("People").upsert(Item.builder("p", "1").put("n", 1).build());
      assertThat(asApp.table("People").get("p", "1")).isPresent();
      assertThat(codeOf(() -> asApp.table("Orders"))).isEqualTo(ErrorCode.ApiKeyDenied);
      assertThatThrownBy(
              () ->
                  asApp.commit(
                      Batch.builder()
                          .upsert("People", Item.builder("p", "2").build())
                          .upsert("Orders", Item.builder("o", "1").build())
                          .build()))
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.ApiKeyDenied);
                assertThat(e.context()).containsEntry("operationIndex", 1);
              });
      assertThat(asAdmin.table("People").get("p", "2")).isEmpty();
      assertThat(asApp.listTables()).extracting(t -> t.name()).containsExactly("People");
    }
  }

  @Test
  void aWrongKeyFailsWithApiKeyInvalid() {
    // one character of the secret changed (to another: it could have been an A already)
    int at = admin.length() - 10;
    char other = admin.charAt(at) == 'A' ? 'B' : 'A';
    String wrongKey = admin.substring(0, at) + other + admin.substring(at + 1);
    try (RemoteDatabase wrong = RemoteDatabase.connect(base, wrongKey)) {
      assertThat(codeOf(wrong::listTables)).isEqualTo(ErrorCode.ApiKeyInvalid);
    }
  }
}
