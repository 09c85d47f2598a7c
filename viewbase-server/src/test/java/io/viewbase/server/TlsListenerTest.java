package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.TestCertificates.KeyForm;
import io.viewbase.server.TestCertificates.Pair;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native API's listener with TLS on a real socket: https only, the key forms {@link PemFiles}
 * reads and the ones it refuses, and reloading the pair when its files change.
 */
class TlsListenerTest {
  @TempDir Path dir;

  private Database db;
  private ViewbaseServer server;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
  }

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
    db.close();
  }

  private URI start(TlsSettings tls) {
    server = ViewbaseServer.start(db, ServerOptions.defaults().withPort(0).withTls(tls));
    return URI.create("https://localhost:" + server.port());
  }

  private static HttpResponse<String> get(SSLContext trust, URI uri) throws Exception {
    HttpClient client =
        HttpClient.newBuilder()
            .sslContext(trust)
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    return client.send(
        HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void httpsRequestIsServedAndPlainHttpOnTheSamePortIsAnswered400WithoutReachingTheApi()
      throws Exception {
    Pair pair = TestCertificates.create(dir, "server");
    URI base = start(TlsSettings.fromPem(pair.certificateFile(), pair.keyFile()));

    assertThat(get(pair.clientContext(), base.resolve("/v1/tables")).statusCode()).isEqualTo(200);

    String answer;
    try (Socket plain = new Socket("127.0.0.1", server.port())) {
      plain.setSoTimeout(10_000);
      OutputStream out = plain.getOutputStream();
      out.write(
          "PUT /v1/tables/Plain HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      answer = new String(readAll(plain.getInputStream()), StandardCharsets.ISO_8859_1);
    }
    assertThat(answer).startsWith("HTTP/1.1 400 ").contains("speaks https only");
    assertThat(db.listTables()).isEmpty();
    // the listener goes on serving https
    assertThat(get(pair.clientContext(), base.resolve("/v1/tables")).statusCode()).isEqualTo(200);
  }

  @Test
  void clientThatDoesNotTrustTheCertificateFailsItsHandshake() throws Exception {
    Pair pair = TestCertificates.create(dir, "server");
    Pair other = TestCertificates.create(dir, "other");
    URI base = start(TlsSettings.fromPem(pair.certificateFile(), pair.keyFile()));

    assertThatThrownBy(() -> get(other.clientContext(), base.resolve("/v1/tables")))
        .isInstanceOf(SSLHandshakeException.class);
    assertThat(get(pair.clientContext(), base.resolve("/v1/tables")).statusCode()).isEqualTo(200);
  }

  @Test
  void traditionalRsaAndEcKeyFilesAreReadAsPkcs8Ones() throws Exception {
    for (String algorithm : new String[] {"RSA", "EC"}) {
      Pair pair = TestCertificates.create(dir, algorithm, algorithm, KeyForm.TRADITIONAL);
      assertThat(Files.readString(pair.keyFile())).contains("BEGIN " + algorithm + " PRIVATE KEY");
      URI base = start(TlsSettings.fromPem(pair.certificateFile(), pair.keyFile()));
      assertThat(get(pair.clientContext(), base.resolve("/v1/tables")).statusCode()).isEqualTo(200);
      assertThat(servedSerial(pair.clientContext())).isEqualTo(pair.serial());
      server.close();
      server = null;
    }
  }

  @Test
  void keyFileThatAlsoHoldsTheCertificateIsRead() throws Exception {
    Pair pair = TestCertificates.create(dir, "server");
    Path combined =
        Files.writeString(
            dir.resolve("combined.pem"),
            Files.readString(pair.certificateFile()) + Files.readString(pair.keyFile()));
    URI base = start(TlsSettings.fromPem(pair.certificateFile(), combined));
    assertThat(get(pair.clientContext(), base.resolve("/v1/tables")).statusCode()).isEqualTo(200);
  }

  @Test
  void badFilesAreRefusedWithTheFileNamed() throws Exception {
    Pair pair = TestCertificates.create(dir, "server");
    Pair other = TestCertificates.create(dir, "other");
    Path missing = dir.resolve("missing.pem");
    Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a key\n");
    Path encrypted =
        Files.writeString(
            dir.resolve("encrypted.pem"),
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");

    assertThatThrownBy(() -> TlsSettings.fromPem(missing, pair.keyFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("does not exist");
    assertThatThrownBy(() -> TlsSettings.fromPem(pair.keyFile(), pair.keyFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("The certificate file " + pair.keyFile());
    assertThatThrownBy(() -> TlsSettings.fromPem(pair.certificateFile(), garbage))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(garbage.toString())
        .hasMessageContaining("openssl pkcs8 -topk8");
    assertThatThrownBy(() -> TlsSettings.fromPem(pair.certificateFile(), encrypted))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("encrypted")
        .hasMessageContaining("openssl pkcs8 -topk8");
    assertThatThrownBy(() -> TlsSettings.fromPem(pair.certificateFile(), other.keyFile()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(other.keyFile().toString())
        .hasMessageContaining("does not hold the private key of the certificate");
  }

  @Test
  void replacedFilesServeNewConnectionsWhileOpenOnesKeepTheirCertificate() throws Exception {
    Pair first = TestCertificates.create(dir, "first");
    Pair second = TestCertificates.create(dir, "second");
    Pair third = TestCertificates.create(dir, "third");
    Path certificate = dir.resolve("live.crt");
    Path key = dir.resolve("live.key");
    first.copyTo(certificate, key);
    TlsSettings tls = TlsSettings.fromPem(certificate, key, Duration.ofMillis(100));
    start(tls);
    SSLContext trustAll =
        TestCertificates.trusting(first.certificate(), second.certificate(), third.certificate());

    try (SSLSocket open = handshake(trustAll)) {
      assertThat(serial(open)).isEqualTo(first.serial());

      second.copyTo(certificate, key);
      Thread.sleep(150);
      assertThat(servedSerial(trustAll)).isEqualTo(second.serial());
      assertThat(tls.certificate().getSerialNumber()).isEqualTo(second.serial());

      // the connection opened before goes on with the first certificate and is still served
      assertThat(serial(open)).isEqualTo(first.serial());
      assertThat(requestOn(open)).startsWith("HTTP/1.1 200");
    }

    // a broken replacement: the third certificate with the second's key (a half-done copy)
    Files.copy(
        third.certificateFile(), certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Thread.sleep(150);
    assertThat(servedSerial(trustAll)).isEqualTo(second.serial());
    assertThat(tls.reload()).isFalse();
    assertThat(servedSerial(trustAll)).isEqualTo(second.serial());

    // the key arrives: the pair is whole again, and an explicit reload (SIGHUP's) takes it now
    Files.copy(third.keyFile(), key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(tls.reload()).isTrue();
    assertThat(servedSerial(trustAll)).isEqualTo(third.serial());
  }

  @Test
  void filesAreLookedAtNoMoreOftenThanTheCheckInterval() throws Exception {
    Pair first = TestCertificates.create(dir, "first");
    Pair second = TestCertificates.create(dir, "second");
    Path certificate = dir.resolve("live.crt");
    Path key = dir.resolve("live.key");
    first.copyTo(certificate, key);
    start(TlsSettings.fromPem(certificate, key, Duration.ofHours(1)));
    SSLContext trustBoth = TestCertificates.trusting(first.certificate(), second.certificate());

    second.copyTo(certificate, key);
    assertThat(servedSerial(trustBoth)).isEqualTo(first.serial());
  }

  private SSLSocket handshake(SSLContext trust) throws IOException {
    SSLSocket socket =
        (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", server.port());
    socket.setSoTimeout(10_000);
    socket.startHandshake();
    return socket;
  }

  /** The serial number of the certificate a new connection gets. */
  private BigInteger servedSerial(SSLContext trust) throws IOException {
    try (SSLSocket socket = handshake(trust)) {
      return serial(socket);
    }
  }

  private static BigInteger serial(SSLSocket socket) throws IOException {
    return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
  }

  /** Sends one GET on an open connection and returns the head of its answer. */
  private static String requestOn(SSLSocket socket) throws IOException {
    socket
        .getOutputStream()
        .write(
            "GET /v1/tables HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    byte[] head = new byte[64];
    int n = socket.getInputStream().read(head);
    return new String(head, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1);
  }

  private static byte[] readAll(InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException reset) {
      return new byte[0];
    }
  }
}
