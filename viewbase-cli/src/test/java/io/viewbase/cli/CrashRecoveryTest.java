package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Item;
import io.viewbase.api.Value;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durability acceptance test: a server killed with SIGKILL right after acknowledging writes
 * restarts with every acknowledged write present. Each cycle starts {@code viewbase serve} in a
 * child JVM on the same directory, checks everything acknowledged so far, runs concurrent HTTP
 * writers, and kills the server while their writes are in flight.
 *
 * <p>Each writer owns its partition and writes one request at a time, alternating a fresh key
 * (written once) with one of a few keys it overwrites with ever higher versions. After a restart a
 * fresh key must hold exactly its acknowledged version; an overwritten key its last acknowledged
 * version or a later one (the write in flight at the kill may or may not have landed).
 */
class CrashRecoveryTest {
  private static final String TABLE = "Crash";
  private static final int CYCLES = 4;
  private static final int WRITERS = 4;
  private static final int HOT_KEYS = 3;
  private static final Duration WRITE_PHASE_LIMIT = Duration.ofSeconds(8);

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** "partitionKey/id" to the highest version a 200 acknowledged. */
  private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();

  @TempDir Path dir;

  @Test
  void aServerKilledWhileWritingRestartsWithEveryAcknowledgedWrite() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Path data = dir.resolve("data");
    Path logs = Files.createDirectories(dir.resolve("logs"));

    for (int cycle = 0; cycle < CYCLES; cycle++) {
      try (ServerProcess server = ServerProcess.serve(data, logs, "cycle" + cycle)) {
        if (cycle == 0) {
          assertThat(send(put(server.uri(), "/v1/tables/" + TABLE, "")).statusCode())
              .isEqualTo(201);
        } else {
          verifyAcknowledgedWrites(server, "seed " + seed + ", after kill " + cycle);
        }
        int killAfter = 50 + random.nextInt(250);
        writeUntilKilled(server, cycle, killAfter);
      }
    }
    try (ServerProcess server = ServerProcess.serve(data, logs, "final")) {
      verifyAcknowledgedWrites(server, "seed " + seed + ", after the last kill");
    }
  }

  /**
   * Runs the writers until this cycle has {@code killAfter} acknowledgements (or the time limit),
   * then kills the server while they are still sending, and only then stops them.
   */
  private void writeUntilKilled(ServerProcess server, int cycle, int killAfter) throws Exception {
    ServerProcess.Load load =
        server.killUnderLoad(
            WRITERS,
            (uri, writer, stop, acks, cutOff) -> write(uri, cycle, writer, stop, acks, cutOff),
            killAfter,
            WRITE_PHASE_LIMIT);
    assertThat(load.acks())
        .as("acknowledged writes in cycle " + cycle + "\n" + server.output())
        .isPositive();
    System.out.printf(
        "crash cycle %d: killed after %d acknowledged writes; %d requests cut off%n",
        cycle, load.acks(), load.cutOff());
  }

  private void write(
      URI server,
      int cycle,
      int writer,
      AtomicBoolean stop,
      AtomicInteger acks,
      AtomicInteger cutOff) {
    String partition = "w" + writer;
    for (long seq = 0; !stop.get(); seq++) {
      // Versions grow across cycles, so an overwritten key's newest version is its highest.
      long version = cycle * 1_000_000L + seq;
      String id = seq % 2 == 0 ? "c" + cycle + "-n" + seq : "hot" + (seq / 2) % HOT_KEYS;
      try {
        HttpResponse<String> response =
            send(
                put(
                    server,
                    "/v1/tables/" + TABLE + "/items/" + partition + "/" + id,
                    "{\"v\": " + version + "}"));
        if (response.statusCode() == 200) {
          acknowledged.merge(partition + "/" + id, version, Math::max);
          acks.incrementAndGet();
        }
      } catch (IOException killedOrRefused) {
        // The server died under this request: it was never acknowledged, so nothing is promised.
        cutOff.incrementAndGet();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void verifyAcknowledgedWrites(ServerProcess server, String when) throws Exception {
    for (Map.Entry<String, Long> write : acknowledged.entrySet()) {
      HttpResponse<String> response =
          send(
              HttpRequest.newBuilder(
                      server.uri().resolve("/v1/tables/" + TABLE + "/items/" + write.getKey()))
                  .GET()
                  .build());
      assertThat(response.statusCode())
          .as("%s: acknowledged %s (version %d) is gone", when, write.getKey(), write.getValue())
          .isEqualTo(200);
      Item item = Items.parse(response.body());
      long version = versionOf(item);
      if (write.getKey().contains("/hot")) {
        assertThat(version)
            .as("%s: %s", when, write.getKey())
            .isGreaterThanOrEqualTo(write.getValue());
      } else {
        assertThat(version).as("%s: %s", when, write.getKey()).isEqualTo(write.getValue());
      }
    }
  }

  private static long versionOf(Item item) {
    Value v = item.get("v").orElseThrow();
    return v instanceof Value.Int64 l ? l.value() : ((Value.Int32) v).value();
  }

  private static HttpRequest put(URI server, String path, String json) {
    return HttpRequest.newBuilder(server.resolve(path))
        .timeout(Duration.ofSeconds(20))
        .header("Content-Type", "application/json")
        .PUT(
            json.isEmpty()
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json))
        .build();
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
