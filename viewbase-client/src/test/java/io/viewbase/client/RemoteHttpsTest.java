package io.viewbase.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.TestCertificates;
import io.viewbase.server.TestCertificates.Pair;
import io.viewbase.server.TlsSettings;
import io.viewbase.server.ViewbaseServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RemoteDatabase against a server that speaks https only, with a self-signed certificate. */
class RemoteHttpsTest {
  @TempDir Path dir;

  private Database embedded;
  private ViewbaseServer server;
  private Pair pair;
  private URI base;

  @BeforeEach
  void start() {
    pair = TestCertificates.create(dir, "server");
    embedded = Viewbase.open(OpenOptions.inMemory());
    server =
        ViewbaseServer.start(
            embedded,
            ServerOptions.defaults()
                .withPort(0)
                .withIoThreads(1)
                .withTls(TlsSettings.fromPem(pair.certificateFile(), pair.keyFile())));
    base = URI.create("https://localhost:" + server.port());
  }

  @AfterEach
  void stop() {
    server.close();
    embedded.close();
  }

  @Test
  void clientTrustingTheCertificateFileReadsAndWrites() {
    try (Database remote =
        RemoteDatabase.connect(
            base,
            RemoteDatabase.DEFAULT_TIMEOUT,
            TrustedCertificates.fromPem(pair.certificateFile()))) {
      remote.createTable("People");
      remote.table("People").upsert(Item.builder("p", "ada").put("name", "Ada").build());
      assertThat(remote.table("People").get("p", "ada")).isPresent();
    }
    assertThat(embedded.table("People").get("p", "ada")).isPresent();
  }

  @Test
  void clientWithTheDefaultTrustStoreIsRefusedWithATlsMessage() {
    try (Database remote = RemoteDatabase.connect(base)) {
      assertThatThrownBy(remote::listTables)
          .isInstanceOfSatisfying(
              ViewbaseException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.StorageUnreachable))
          .hasMessageContaining("TLS handshake");
    }
  }

  @Test
  void clientThatSendsPlainHttpToTheHttpsPortIsToldSo() {
    try (Database remote =
        RemoteDatabase.connect(URI.create("http://localhost:" + server.port()))) {
      assertThatThrownBy(remote::listTables)
          .isInstanceOfSatisfying(
              ViewbaseException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput))
          .hasMessageContaining("HTTP 400");
    }
    assertThat(embedded.listTables()).isEmpty();
  }

  @Test
  void caFileThatHoldsNoCertificateIsRefusedWithItsName() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty.pem"), "");
    assertThatThrownBy(() -> TrustedCertificates.fromPem(empty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(empty.toString());
    assertThatThrownBy(() -> TrustedCertificates.fromPem(dir.resolve("missing.pem")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("missing.pem")
        .hasMessageContaining("does not exist");
  }
}
