package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.server.TestCertificates;
import io.viewbase.server.TestCertificates.Pair;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase serve --tls-cert --tls-key} as a real process: https on every listener, the data
 * commands with {@code --ca-cert}, SIGHUP reloading the pair, and a bad key refused at start.
 */
class ServeTlsTest {
  @TempDir Path dir;

  @Test
  void everyListenerSpeaksHttpsAndDataCommandsTrustTheCaCertFile() throws Exception {
    Pair pair = TestCertificates.create(dir, "server");
    int azurePort = freePort();
    int dynamoDbPort = freePort();
    try (ServerProcess server =
        ServerProcess.serve(
            dir.resolve("data"),
            dir,
            "tls",
            List.of(
                "--azure-port",
                Integer.toString(azurePort),
                "--dynamodb-port",
                Integer.toString(dynamoDbPort),
                "--tls-cert",
                pair.certificateFile().toString(),
                "--tls-key",
                pair.keyFile().toString()))) {
      assertThat(server.uri().getScheme()).isEqualTo("https");
      awaitOutput(server, "DynamoDB dialect on https://127.0.0.1:" + dynamoDbPort);
      assertThat(server.output())
          .contains("Azure Tables dialect on https://127.0.0.1:" + azurePort);
      for (int port : new int[] {server.uri().getPort(), azurePort, dynamoDbPort}) {
        assertThat(servedSerial(port, pair.clientContext()))
            .as("port %d", port)
            .isEqualTo(pair.serial());
      }

      List<String> trusted =
          List.of(
              "--server", server.uri().toString(), "--ca-cert", pair.certificateFile().toString());
      Cli created = Cli.run(trusted, "table", "create", "People");
      assertThat(created.exitCode()).as(created::toString).isZero();
      assertThat(Cli.run(trusted, "tables").out()).contains("\"name\":\"People\"");

      // the environment variable, in a process of its own (this JVM's environment is fixed)
      ProcessBuilder tables =
          ServerProcess.viewbase(List.of("tables", "--server", server.uri().toString()))
              .redirectErrorStream(true);
      tables.environment().put("VIEWBASE_CA_CERT", pair.certificateFile().toString());
      Process child = tables.start();
      String listed = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as(listed).isZero();
      assertThat(listed).contains("\"name\":\"People\"");

      Cli untrusted = Cli.run(List.of("--server", server.uri().toString()), "tables");
      assertThat(untrusted.exitCode()).as(untrusted::toString).isEqualTo(1);
      assertThat(untrusted.err())
          .contains("StorageUnreachable")
          .contains("TLS handshake")
          .contains("--ca-cert");
    }
  }

  @Test
  void sighupReloadsThePairAndABrokenOneLeavesTheOldServing() throws Exception {
    Pair first = TestCertificates.create(dir, "first");
    Pair second = TestCertificates.create(dir, "second");
    Pair third = TestCertificates.create(dir, "third");
    Path certificate = dir.resolve("live.crt");
    Path key = dir.resolve("live.key");
    first.copyTo(certificate, key);
    SSLContext trustAll =
        io.viewbase.server.TestCertificates.trusting(
            first.certificate(), second.certificate(), third.certificate());
    try (ServerProcess server =
        ServerProcess.serve(
            dir.resolve("data"),
            dir,
            "reload",
            List.of(
                "--azure-port",
                "0",
                "--dynamodb-port",
                "0",
                "--tls-cert",
                certificate.toString(),
                "--tls-key",
                key.toString()))) {
      int port = server.uri().getPort();
      assertThat(servedSerial(port, trustAll)).isEqualTo(first.serial());

      second.copyTo(certificate, key);
      hangUp(server);
      awaitSerial(port, trustAll, second.serial());
      // SIGHUP would stop a JVM that did not handle it
      assertThat(server.process().isAlive()).as(server::output).isTrue();

      // half a replacement: a certificate whose key has not arrived
      Files.copy(
          third.certificateFile(), certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      hangUp(server);
      Thread.sleep(2_500); // past the check interval, so a new connection looks at the files too
      assertThat(servedSerial(port, trustAll)).isEqualTo(second.serial());
      assertThat(server.output()).contains("TLS certificate not reloaded");
      assertThat(server.process().isAlive()).isTrue();
    }
  }

  @Test
  void keyThatIsNotTheCertificatesIsRefusedAtStartWithExitCode2() throws Exception {
    Pair pair = TestCertificates.create(dir, "server");
    Pair other = TestCertificates.create(dir, "other");
    Path err = dir.resolve("refused.err");
    Process process =
        ServerProcess.viewbase(
                List.of(
                    "serve",
                    "--data",
                    dir.resolve("data").toString(),
                    "--port",
                    "0",
                    "--azure-port",
                    "0",
                    "--dynamodb-port",
                    "0",
                    "--tls-cert",
                    pair.certificateFile().toString(),
                    "--tls-key",
                    other.keyFile().toString()))
            .redirectOutput(dir.resolve("refused.out").toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String said = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(said).isEqualTo(2);
    assertThat(said)
        .contains("error: Usage: --tls-cert/--tls-key: The key file " + other.keyFile())
        .contains("does not hold the private key of the certificate in " + pair.certificateFile())
        .doesNotContain("\tat ");
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void oneTlsFlagWithoutTheOtherIsAUsageError() {
    Pair pair = TestCertificates.create(dir, "server");
    Cli run =
        Cli.run(
            "serve",
            "--data",
            dir.resolve("data").toString(),
            "--tls-cert",
            pair.certificateFile().toString());
    assertThat(run.exitCode()).as(run::toString).isEqualTo(2);
    assertThat(run.err()).contains("--tls-cert and --tls-key go together");
  }

  private static void hangUp(ServerProcess server) throws IOException, InterruptedException {
    Process kill =
        new ProcessBuilder("kill", "-HUP", Long.toString(server.process().pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  private static void awaitSerial(int port, SSLContext trust, BigInteger expected)
      throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    BigInteger served = servedSerial(port, trust);
    while (!served.equals(expected) && Instant.now().isBefore(deadline)) {
      Thread.sleep(50);
      served = servedSerial(port, trust);
    }
    assertThat(served).isEqualTo(expected);
  }

  private static void awaitOutput(ServerProcess server, String text) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (!server.output().contains(text) && Instant.now().isBefore(deadline)) {
      Thread.sleep(25);
    }
    assertThat(server.output()).contains(text);
  }

  /** The serial number of the certificate a new connection to the port gets. */
  private static BigInteger servedSerial(int port, SSLContext trust) throws IOException {
    try (SSLSocket socket = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    }
  }
}
