package io.viewbase.cli;

import static io.viewbase.cli.CampaignWorkload.ACCOUNTS;
import static io.viewbase.cli.CampaignWorkload.BY_EMAIL;
import static io.viewbase.cli.CampaignWorkload.LEDGER;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.util.HttpClientOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import io.viewbase.cli.CampaignWorkload.Counts;
import io.viewbase.cli.CampaignWorkload.Endpoints;
import io.viewbase.cli.CampaignWorkload.SharedCounters;
import io.viewbase.cli.CampaignWorkload.ViewAdmin;
import io.viewbase.cli.CampaignWorkload.Writer;
import io.viewbase.server.azure.AzureOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The crash campaign (issue 28): a {@code viewbase serve} child JVM on RocksDB under mixed load on
 * the native API and the Azure Tables dialect ({@link CampaignWorkload}), killed with SIGKILL at a
 * random moment of each cycle and restarted on the same directory; after each restart every {@link
 * Invariants invariant} is checked and the load goes on over the same data.
 *
 * <p>{@code -Dviewbase.campaign.cycles} sets the number of cycles (20 by default, the CI run),
 * {@code -Dviewbase.campaign.seed} the seed (random by default, printed first). A seed fixes the
 * operations each writer chooses and the kill moments, not the interleaving of the threads, so a
 * rerun with the same seed explores the same schedule but not the same race.
 */
class CrashCampaignTest {
  private static final int WRITERS = 3;
  private static final int MIN_LOAD_MILLIS = 300;
  private static final int MAX_LOAD_MILLIS = 1800;

  private static final HttpClient AZURE_HTTP =
      HttpClient.createDefault(
          new HttpClientOptions()
              .setConnectTimeout(Duration.ofSeconds(2))
              .setResponseTimeout(Duration.ofSeconds(30)));

  static {
    // The SDK logs every request the kill cuts off as an error; the campaign accounts for them.
    ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("com.azure")).setLevel(Level.OFF);
  }

  @TempDir Path dir;

  @Test
  void everyAcknowledgedWriteSurvivesEveryKillAndNothingElseAppears() throws Exception {
    long seed = Long.getLong("viewbase.campaign.seed", new Random().nextLong());
    int cycles = Integer.getInteger("viewbase.campaign.cycles", 20);
    String rerun =
        "seed "
            + seed
            + "; rerun: mvn -B test -pl viewbase-cli -am -Dtest=CrashCampaignTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dviewbase.campaign.seed="
            + seed
            + " -Dviewbase.campaign.cycles="
            + cycles;
    System.out.println("crash campaign: " + cycles + " cycles, " + rerun);
    Random random = new Random(seed);
    Queue<String> violations = CampaignWorkload.violations();
    Counts counts = new Counts();
    List<Writer> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      writers.add(new Writer(w));
    }
    SharedCounters shared = new SharedCounters(violations);
    ViewAdmin admin = new ViewAdmin();
    Invariants invariants = new Invariants(violations);
    Path data = dir.resolve("data");
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Instant started = Instant.now();

    for (int cycle = 0; cycle <= cycles; cycle++) {
      try (ServerProcess server = serve(data, logs, "cycle" + cycle)) {
        String when = "cycle " + cycle + ", " + rerun;
        long checkStart = System.nanoTime();
        if (cycle == 0) {
          setUp(server.uri());
        } else {
          invariants.check(server.uri(), writers, shared, admin);
          assertThat(violations)
              .as("after kill %d; %s\n%s", cycle, when, server.output())
              .isEmpty();
        }
        if (cycle == cycles) {
          break; // the last restart is only checked
        }
        long loadStart = System.nanoTime();
        long before = counts.operations.get();
        load(server, random, writers, shared, admin, counts);
        System.out.printf(
            "crash campaign cycle %d: checked in %d ms, %d operations in %d ms of load%n",
            cycle,
            (loadStart - checkStart) / 1_000_000,
            counts.operations.get() - before,
            (System.nanoTime() - loadStart) / 1_000_000);
        assertThat(violations).as("during load; %s\n%s", when, server.output()).isEmpty();
      }
    }
    System.out.printf(
        "crash campaign: %d cycles in %s: %d operations, %d acknowledged, %d refused as"
            + " predicted, %d unknown (cut off by a kill), %d lost; %s%n",
        cycles,
        Duration.between(started, Instant.now()).withNanos(0),
        counts.operations.get(),
        counts.acknowledged.get(),
        counts.refused.get(),
        counts.unknown.get(),
        invariants.lost(),
        rerun);
    assertThat(invariants.lost()).isZero();
    assertThat(counts.acknowledged.get()).as("acknowledged writes").isPositive();
  }

  private static void setUp(URI uri) throws Exception {
    expect(
        CampaignHttp.send(
            uri, "PUT", "/v1/tables/" + ACCOUNTS, "{\"changeFeed\":{\"enabled\":true}}"),
        201);
    expect(CampaignHttp.send(uri, "PUT", "/v1/tables/" + LEDGER, ""), 201);
    HttpResponse<String> view =
        CampaignHttp.send(
            uri, "PUT", "/v1/views/" + BY_EMAIL, CampaignWorkload.BY_EMAIL_DEFINITION);
    assertThat(view.statusCode()).as(view.body()).isIn(201, 202);
  }

  /**
   * Starts the server with the Azure dialect on a port free a moment ago; another process may take
   * that port first, so a start refused for it is tried again on another.
   */
  private static ServerProcess serve(Path data, Path logs, String name) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return ServerProcess.serve(
            data,
            logs,
            name + "-" + attempt,
            List.of("--azure-port", "" + freePort(), "--dynamodb-port", "0"));
      } catch (AssertionError refused) {
        if (attempt == 3 || !String.valueOf(refused.getMessage()).contains("already in use")) {
          throw refused;
        }
      }
    }
  }

  /**
   * A port free a moment ago, for the Azure dialect (its port 0 turns it off rather than choosing
   * one).
   */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static void expect(HttpResponse<String> r, int status) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
  }

  /**
   * Runs the writers (and, in one cycle of three, a create or drop of a view at a random moment)
   * for a random time, kills the server while they still send, and only then stops them.
   */
  private static void load(
      ServerProcess server,
      Random random,
      List<Writer> writers,
      SharedCounters shared,
      ViewAdmin admin,
      Counts counts)
      throws Exception {
    String azureEndpoint = server.azureEndpoint();
    String account = azureEndpoint.substring(azureEndpoint.lastIndexOf('/') + 1);
    TableClient azure =
        new TableClientBuilder()
            .endpoint(azureEndpoint)
            .credential(new AzureNamedKeyCredential(account, AzureOptions.DEV_KEY))
            .tableName(ACCOUNTS)
            .retryOptions(new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(0)))
            .httpClient(AZURE_HTTP)
            .buildClient();
    Endpoints at = new Endpoints(server.uri(), azure);
    Queue<String> violations = shared.violations;
    AtomicBoolean stop = new AtomicBoolean();
    int loadMillis = MIN_LOAD_MILLIS + random.nextInt(MAX_LOAD_MILLIS - MIN_LOAD_MILLIS);
    List<Thread> threads = new ArrayList<>();
    for (Writer writer : writers) {
      Random own = new Random(random.nextLong());
      threads.add(
          new Thread(
              () -> writer.run(at, own, stop, counts, shared, violations), "writer-" + writer.pk));
    }
    if (random.nextInt(3) == 0) {
      int after = random.nextInt(loadMillis);
      threads.add(
          new Thread(
              () -> {
                try {
                  Thread.sleep(after);
                  admin.act(server.uri(), counts, violations);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "view-admin"));
    }
    for (Thread thread : threads) {
      thread.start();
    }
    Thread.sleep(loadMillis);
    server.kill();
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(Duration.ofSeconds(60).toMillis());
      assertThat(thread.isAlive()).as(thread.getName() + " stops").isFalse();
    }
  }
}
