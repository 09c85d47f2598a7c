package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code viewbase key create|list|revoke} on a data directory and through a server, data commands
 * with {@code --key} and {@code $VIEWBASE_KEY}, and {@code serve}'s refusal to listen beyond
 * loopback without keys, each server a real process.
 */
class KeyCommandTest {
  @TempDir Path dir;

  private Path data() throws IOException {
    return Files.createDirectories(dir.resolve("data"));
  }

  @Test
  void onADataDirectoryKeysAreCreatedListedWithoutSecretsAndRevoked() throws IOException {
    List<String> local = List.of("--data", data().toString());
    Cli made =
        Cli.run(local, "key", "create", "--scope", "write", "--table", "People", "--name", "app");
    assertThat(made.exitCode()).as(made.toString()).isZero();
    String key = made.out().trim();
    assertThat(key).matches("vb_[0-9a-f]{12}_[A-Za-z0-9_-]{43}");
    assertThat(made.err()).contains("not shown again");
    String id = key.substring(3, 15);

    Cli listed = Cli.run(local, "key", "list", "--format", "table");
    assertThat(listed.exitCode()).isZero();
    assertThat(listed.out()).contains(id).contains("write").contains("People").contains("app");
    assertThat(listed.out()).doesNotContain(key.substring(16));
    assertThat(Cli.run(local, "key", "list").out()).contains("\"id\":\"" + id + "\"");

    assertThat(Cli.run(local, "key", "revoke", id).exitCode()).isZero();
    assertThat(Cli.run(local, "key", "list", "--format", "table").out()).doesNotContain(id);
    Cli again = Cli.run(local, "key", "revoke", id);
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.err()).contains("ApiKeyNotFound");
  }

  @Test
  void aBadScopeOrAnAdminKeyWithTablesIsRefused() throws IOException {
    List<String> local = List.of("--data", data().toString());
    assertThat(Cli.run(local, "key", "create", "--scope", "root").err())
        .contains("read, write or admin");
    Cli admin = Cli.run(local, "key", "create", "--scope", "admin", "--table", "People");
    assertThat(admin.exitCode()).isEqualTo(1);
    assertThat(admin.err()).contains("InvalidInput");
  }

  @Test
  void againstAServerKeysAreManagedWithAnAdminKeyAndDataCommandsSendTheirs() throws Exception {
    Path data = data();
    String admin =
        Cli.run("key", "create", "--data", data.toString(), "--scope", "admin").out().trim();
    try (ServerProcess server = ServerProcess.serve(data, dir, "keys")) {
      String url = server.uri().toString();
      List<String> remote = List.of("--server", url);

      Cli refused = Cli.run(remote, "tables");
      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(refused.err()).contains("ApiKeyRequired");

      assertThat(Cli.run(remote, "table", "create", "People", "--key", admin).exitCode()).isZero();
      Cli made = Cli.run(remote, "key", "create", "--scope", "read", "--key", admin);
      assertThat(made.exitCode()).as(made.toString()).isZero();
      String read = made.out().trim();
      Cli notAdmin = Cli.run(remote, "key", "list", "--key", read);
      assertThat(notAdmin.exitCode()).isEqualTo(1);
      assertThat(notAdmin.err()).contains("ApiKeyDenied");
      assertThat(Cli.run(remote, "key", "list", "--key", admin, "--format", "table").out())
          .contains(read.substring(3, 15));

      Cli tables = Cli.run(remote, "tables", "--key", read);
      assertThat(tables.exitCode()).isZero();
      assertThat(tables.out()).contains("People");
      Cli write = Cli.run(remote, "put", "People", "p", "i", "{}", "--key", read);
      assertThat(write.exitCode()).isEqualTo(1);
      assertThat(write.err()).contains("ApiKeyDenied");

      // $VIEWBASE_KEY, which only a new process can be given
      assertThat(runWithKeyInEnvironment(url, read)).contains("People");

      assertThat(Cli.run(remote, "key", "revoke", read.substring(3, 15), "--key", admin).exitCode())
          .isZero();
      Cli revoked = Cli.run(remote, "tables", "--key", read);
      assertThat(revoked.exitCode()).isEqualTo(1);
      assertThat(revoked.err()).contains("ApiKeyInvalid");
    }
  }

  private String runWithKeyInEnvironment(String url, String key) throws Exception {
    Path out = dir.resolve("env.out");
    ProcessBuilder child =
        ServerProcess.viewbase(List.of("tables", "--server", url))
            .redirectOutput(out.toFile())
            .redirectErrorStream(true);
    child.environment().put("VIEWBASE_KEY", key);
    Process p = child.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(printed).isZero();
    return printed;
  }

  @Test
  void serveBeyondLoopbackWithoutKeysExitsSayingHowToMakeOneAndStartsWithInsecure()
      throws Exception {
    Path data = data();
    Path err = dir.resolve("refused.err");
    Process refused =
        ServerProcess.viewbase(
                List.of(
                    "serve",
                    "--data",
                    data.toString(),
                    "--bind",
                    "0.0.0.0",
                    "--port",
                    "0",
                    "--azure-port",
                    "0",
                    "--dynamodb-port",
                    "0"))
            .redirectError(err.toFile())
            .redirectOutput(dir.resolve("refused.out").toFile())
            .start();
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String said = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(refused.exitValue()).as(said).isEqualTo(1);
    assertThat(said)
        .contains("ApiKeyRequired")
        .contains("0.0.0.0")
        .contains("viewbase key create --data DIR")
        .contains("--insecure");

    try (ServerProcess open =
        ServerProcess.serve(
            data,
            dir,
            "insecure",
            List.of(
                "--azure-port", "0", "--dynamodb-port", "0", "--bind", "0.0.0.0", "--insecure"))) {
      assertThat(open.uri().toString()).contains("0.0.0.0");
    }
  }
}
