package io.viewbase.cli;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import io.viewbase.server.ApiKey;
import io.viewbase.server.ApiKeys;
import io.viewbase.server.KeyJson;
import io.viewbase.server.KeyScope;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code viewbase key create|list|revoke}: the API keys of the native API, on a data directory
 * ({@code --data DIR}, while no server holds it: how the first key is made before a server is
 * exposed) or through a server ({@code --server URL} with an admin {@code --key}).
 *
 * <pre>
 * command                                        | stdout                      | stderr
 * -----------------------------------------------+-----------------------------+------------------
 * key create --scope S [--table T ...] [--name N] | the key (vb_...), once      | its id and scope
 * key list                                       | id, name, scope, tables,    |
 *                                                |   created; never a secret   |
 * key revoke ID                                  | nothing                     | "Revoked ID"
 * </pre>
 */
@Command(
    name = "key",
    mixinStandardHelpOptions = true,
    description = "Create, list or revoke the API keys of the native HTTP API.",
    subcommands = {KeyCommand.Create.class, KeyCommand.ListKeys.class, KeyCommand.Revoke.class})
final class KeyCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand: create, list or revoke");
  }

  /** Makes a key and prints it: the only time its secret is shown. */
  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Create an API key and print it (shown once: keep it).",
        "read: GET items, queries, changes, table and view descriptions; write: read and item "
            + "writes and batches; admin: everything (tables, views, verify, keys, /v1/admin)."
      })
  static final class Create extends DataCommand {
    @Option(
        names = "--scope",
        required = true,
        paramLabel = "read|write|admin",
        description = "What the key may do.")
    String scope;

    @Option(
        names = "--table",
        paramLabel = "TABLE",
        description =
            "A table or view the key reaches (repeatable; default: all). Not for admin keys.")
    List<String> tables;

    @Option(names = "--name", paramLabel = "NAME", description = "What the key is for.")
    String name;

    @Override
    void run(Database db) {
      KeyScope chosen = KeyScope.ofWireName(scope);
      List<String> reach = tables == null ? List.of() : tables;
      String id;
      String secret;
      if (target.data != null) {
        ApiKeys.Created created = ApiKeys.of(db).create(chosen, reach, name);
        id = created.key().id();
        secret = created.secret();
      } else {
        byte[] answer =
            Remote.send(
                target,
                "POST",
                "/v1/admin/keys",
                KeyJson.writeRequest(new KeyJson.Request(chosen, reach, name == null ? "" : name)));
        secret = KeyJson.readCreatedSecret(answer);
        id = secret.substring(3, 15);
      }
      out().println(secret);
      out().flush();
      err()
          .println(
              "Created API key "
                  + id
                  + " ("
                  + chosen.wireName()
                  + (reach.isEmpty() ? ", all tables" : ", tables " + String.join(", ", reach))
                  + "). It is not shown again: keep it now.");
      err().flush();
    }
  }

  /** Lists the keys, never their secrets. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the API keys (ids, names, scopes, tables, created; never secrets).")
  static final class ListKeys extends DataCommand {
    @Override
    void run(Database db) {
      List<ApiKey> keys =
          target.data != null
              ? ApiKeys.of(db).list()
              : KeyJson.readListing(Remote.send(target, "GET", "/v1/admin/keys", null));
      if (output.format == OutputFormat.json) {
        for (ApiKey key : keys) {
          out().println(new String(KeyJson.writeKey(key), StandardCharsets.UTF_8));
        }
        out().flush();
        return;
      }
      List<List<String>> rows = new ArrayList<>();
      for (ApiKey key : keys) {
        rows.add(
            List.of(
                key.id(),
                key.name(),
                key.scope().wireName(),
                key.tables().isEmpty() ? "(all)" : String.join(",", key.tables()),
                key.created().toString()));
      }
      TextTable.of(List.of("id", "name", "scope", "tables", "created"), rows).print(out());
      out().flush();
    }
  }

  /** Revokes a key by id: the server refuses it at once. */
  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = "Revoke an API key by its id (see key list).")
  static final class Revoke extends DataCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The key's id.")
    String id;

    @Override
    void run(Database db) {
      if (target.data != null) {
        ApiKeys.of(db).revoke(id);
      } else if (!id.matches("[0-9a-f]{12}")) {
        // no key has it; and it goes into a path, so it is checked before it is sent
        throw ViewbaseException.of(ErrorCode.ApiKeyNotFound, "No API key has this id", "keyId", id);
      } else {
        Remote.send(target, "DELETE", "/v1/admin/keys/" + id, null);
      }
      err().println("Revoked API key " + id);
      err().flush();
    }
  }

  /** The key routes of a server, called with the target's key; errors as the server gave them. */
  private static final class Remote {
    /** A client that trusts what the target's {@code --ca-cert} says (or the JDK's store). */
    private static HttpClient client(DatabaseTarget target) {
      HttpClient.Builder b =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(10));
      SSLContext tls = target.trust();
      if (tls != null) {
        b.sslContext(tls);
      }
      return b.build();
    }

    static byte[] send(DatabaseTarget target, String method, String path, byte[] body) {
      String base = target.serverUri().toString().replaceAll("/+$", "");
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(base + path))
              .timeout(Duration.ofSeconds(60))
              .header("Accept", "application/json");
      String key = target.apiKey();
      if (key != null) {
        b.header("Authorization", "Bearer " + key);
      }
      if (body != null) {
        b.header("Content-Type", "application/json");
      }
      b.method(
          method,
          body == null
              ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      HttpResponse<byte[]> response;
      try {
        response = client(target).send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        throw new ViewbaseException(
            ErrorCode.StorageUnreachable,
            "Cannot reach the Viewbase server: " + e,
            Map.of("url", base),
            e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ViewbaseException(ErrorCode.Timeout, "Interrupted while waiting for the server");
      }
      int status = response.statusCode();
      if (status >= 200 && status < 300) {
        return response.body();
      }
      throw ErrorJson.read(response.body())
          .orElseGet(
              () ->
                  ViewbaseException.of(
                      ErrorCode.InternalError,
                      "The server answered HTTP " + status + " without a Viewbase error",
                      "status",
                      status));
    }
  }
}
