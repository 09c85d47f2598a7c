package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.api.Value;
import io.viewbase.json.PageJson;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The atomicity acceptance test for batches (issue 5, acceptance 3): a server killed with SIGKILL
 * while batches are in flight restarts with every batch either fully applied or not at all, and
 * with every acknowledged batch applied. Each cycle starts {@code viewbase serve} in a child JVM on
 * the same directory, checks everything so far, runs concurrent HTTP writers, and kills the server
 * while their batches are in flight.
 *
 * <p>Each writer sends one batch at a time. Batch {@code s} of writer {@code w} inserts a group of
 * 5 to 10 items spread over three partitions of two tables, each carrying the batch's name and its
 * group size, and upserts the writer's counter item to that batch. After a restart: every group
 * holds all its items or none; every acknowledged batch is there; and a writer's counter names
 * exactly its newest batch present (the counter and the group were one commit).
 */
class BatchCrashRecoveryTest {
  private static final String GROUPS = "Groups";
  private static final String OTHERS = "Others";
  private static final String COUNTERS = "counters";
  private static final int CYCLES = 3;
  private static final int WRITERS = 4;
  private static final Duration WRITE_PHASE_LIMIT = Duration.ofSeconds(8);

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** Names of the batches a 200 acknowledged. */
  private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();

  /**
   * Per writer, the sequence number of its last acknowledged batch (sequences grow across cycles).
   */
  private final Map<Integer, Long> lastAcknowledged = new ConcurrentHashMap<>();

  /**
   * Batches the server answered with an error: none should be, each is valid and touches its own
   * items.
   */
  private final Queue<String> refused = new ConcurrentLinkedQueue<>();

  @TempDir Path dir;

  @Test
  void aServerKilledWhileCommittingBatchesRestartsWithEveryBatchWholeOrAbsent() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Path data = dir.resolve("data");
    Path logs = Files.createDirectories(dir.resolve("logs"));

    for (int cycle = 0; cycle < CYCLES; cycle++) {
      try (ServerProcess server = ServerProcess.serve(data, logs, "batch-cycle" + cycle)) {
        if (cycle == 0) {
          assertThat(
                  send(ServerProcess.request(server.uri(), "PUT", "/v1/tables/" + GROUPS, ""))
                      .statusCode())
              .isEqualTo(201);
          assertThat(
                  send(ServerProcess.request(server.uri(), "PUT", "/v1/tables/" + OTHERS, ""))
                      .statusCode())
              .isEqualTo(201);
        } else {
          verify(server, "seed " + seed + ", after kill " + cycle);
        }
        writeUntilKilled(server, cycle, 20 + random.nextInt(60));
      }
    }
    try (ServerProcess server = ServerProcess.serve(data, logs, "batch-final")) {
      verify(server, "seed " + seed + ", after the last kill");
    }
  }

  /**
   * Runs the writers until {@code killAfter} batches are acknowledged (or the time limit), then
   * kills the server.
   */
  private void writeUntilKilled(ServerProcess server, int cycle, int killAfter) throws Exception {
    ServerProcess.Load load =
        server.killUnderLoad(
            WRITERS,
            (uri, writer, stop, acks, cutOff) -> write(uri, cycle, writer, stop, acks, cutOff),
            killAfter,
            WRITE_PHASE_LIMIT);
    assertThat(refused).as("batches refused in cycle " + cycle).isEmpty();
    assertThat(load.acks())
        .as("acknowledged batches in cycle " + cycle + "\n" + server.output())
        .isPositive();
    System.out.printf(
        "batch crash cycle %d: killed after %d acknowledged batches; %d cut off%n",
        cycle, load.acks(), load.cutOff());
  }

  private void write(
      URI server,
      int cycle,
      int writer,
      AtomicBoolean stop,
      AtomicInteger acks,
      AtomicInteger cutOff) {
    for (long s = 0; !stop.get(); s++) {
      long seq = cycle * 1_000_000L + s;
      String name = "w" + writer + "-" + seq;
      try {
        HttpResponse<String> response =
            send(ServerProcess.request(server, "POST", "/v1/batch", body(writer, seq, name)));
        if (response.statusCode() == 200) {
          acknowledged.add(name);
          lastAcknowledged.merge(writer, seq, Math::max);
          acks.incrementAndGet();
        } else {
          refused.add(name + " answered " + response.statusCode() + ": " + response.body());
        }
      } catch (IOException killedOrRefused) {
        // The server died under this batch: it was never acknowledged, so it may be whole or
        // absent.
        cutOff.incrementAndGet();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * A group of 5..10 inserts over three partitions of two tables, plus the writer's counter upsert.
   */
  private static String body(int writer, long seq, String name) {
    int size = groupSize(seq);
    List<String> ops = new ArrayList<>();
    for (int j = 0; j < size; j++) {
      String table = j % 2 == 0 ? GROUPS : OTHERS;
      ops.add(
          "{\"op\":\"insert\",\"table\":\""
              + table
              + "\",\"partitionKey\":\"g"
              + j % 3
              + "\",\"id\":\""
              + name
              + "-"
              + j
              + "\",\"item\":{\"batch\":\""
              + name
              + "\",\"size\":"
              + size
              + "}}");
    }
    ops.add(
        "{\"op\":\"upsert\",\"table\":\""
            + GROUPS
            + "\",\"partitionKey\":\""
            + COUNTERS
            + "\",\"id\":\"w"
            + writer
            + "\",\"item\":{\"batch\":\""
            + name
            + "\",\"seq\":"
            + seq
            + "}}");
    return "{\"operations\":[" + String.join(",", ops) + "]}";
  }

  private static int groupSize(long seq) {
    return 5 + (int) (seq % 6);
  }

  private void verify(ServerProcess server, String when) throws Exception {
    Map<String, Integer> found = new HashMap<>();
    Map<String, Integer> sizes = new HashMap<>();
    Map<Integer, Item> counters = new HashMap<>();
    for (String table : List.of(GROUPS, OTHERS)) {
      for (Item item : scan(server, table)) {
        if (item.partitionKey().equals(COUNTERS)) {
          counters.put(Integer.parseInt(item.id().substring(1)), item);
          continue;
        }
        String batch = text(item, "batch");
        found.merge(batch, 1, Integer::sum);
        sizes.put(batch, (int) number(item, "size"));
      }
    }
    for (Map.Entry<String, Integer> group : found.entrySet()) {
      assertThat(group.getValue())
          .as("%s: batch %s is partial", when, group.getKey())
          .isEqualTo(sizes.get(group.getKey()));
    }
    for (String batch : acknowledged) {
      assertThat(found).as("%s: acknowledged batch %s is gone", when, batch).containsKey(batch);
    }
    for (Map.Entry<Integer, Long> writer : lastAcknowledged.entrySet()) {
      Item counter = counters.get(writer.getKey());
      assertThat(counter).as("%s: counter of writer %d", when, writer.getKey()).isNotNull();
      long seq = number(counter, "seq");
      assertThat(seq)
          .as("%s: counter of writer %d", when, writer.getKey())
          .isGreaterThanOrEqualTo(writer.getValue());
      String newest =
          found.keySet().stream()
              .filter(b -> b.startsWith("w" + writer.getKey() + "-"))
              .max((a, b) -> Long.compare(sequenceOf(a), sequenceOf(b)))
              .orElseThrow();
      assertThat(text(counter, "batch"))
          .as("%s: writer %d's counter and its newest group", when, writer.getKey())
          .isEqualTo(newest);
    }
  }

  private static long sequenceOf(String batch) {
    return Long.parseLong(batch.substring(batch.indexOf('-') + 1));
  }

  private List<Item> scan(ServerProcess server, String table) throws Exception {
    List<Item> items = new ArrayList<>();
    String continuation = null;
    do {
      String path =
          "/v1/tables/"
              + table
              + "/items?limit=1000"
              + (continuation == null
                  ? ""
                  : "&continuation=" + URLEncoder.encode(continuation, StandardCharsets.UTF_8));
      HttpResponse<String> r =
          send(HttpRequest.newBuilder(server.uri().resolve(path)).GET().build());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      Page page = PageJson.read(r.body().getBytes(StandardCharsets.UTF_8), Limits.DEFAULT);
      items.addAll(page.items());
      continuation = page.continuation();
    } while (continuation != null);
    return items;
  }

  private static String text(Item item, String property) {
    return ((Value.Str) item.get(property).orElseThrow()).value();
  }

  private static long number(Item item, String property) {
    Value v = item.get(property).orElseThrow();
    return v instanceof Value.Int64 l ? l.value() : ((Value.Int32) v).value();
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
