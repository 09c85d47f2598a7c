package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.BatchResult;
import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.Page;
import io.viewbase.json.BatchResultJson;
import io.viewbase.json.ChangeJson;
import io.viewbase.json.ItemJson;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change feed's crash acceptance test (issue 23): a consumer follows a table's feed over HTTP
 * while writers load it with single writes, deletes and batches, and the server (a child JVM on
 * RocksDB) is killed with SIGKILL mid-load and restarted on the same directory, several times. The
 * consumer keeps its position in memory (it is the one that survives) and, after each restart,
 * resumes after the last entry it processed.
 *
 * <p>Then: every entry the consumer processed has the next sequence number after the one before
 * (dense, increasing, none twice: nothing duplicated beyond the resume position); every
 * acknowledged write has its entry (same item, same ETag; a delete with the ETag it removed), and
 * an acknowledged batch's entries are one transaction of its size; and replaying the processed
 * entries in order rebuilds the table exactly as a scan shows it.
 *
 * <p>Each writer owns a partition and, per cycle, its own keys, so it knows the ETag of each of its
 * items from its own acknowledged writes.
 */
class ChangeFeedCrashRecoveryTest {
  private static final String TABLE = "Feed";
  private static final int CYCLES = 3;
  private static final int WRITERS = 3;
  private static final int KEYS = 12;
  private static final Duration WRITE_PHASE_LIMIT = Duration.ofSeconds(8);

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  /** An acknowledged write: the entry it must have in the feed. */
  private record Acked(String partitionKey, String id, String etag, boolean delete) {}

  /** An acknowledged batch: its items' keys and ETags, all one transaction. */
  private record AckedBatch(List<Acked> writes) {}

  private final Queue<Acked> acked = new ConcurrentLinkedQueue<>();
  private final Queue<AckedBatch> ackedBatches = new ConcurrentLinkedQueue<>();
  private final Queue<String> refused = new ConcurrentLinkedQueue<>();

  /** Where the server is now; the consumer reads it before each poll. */
  private final AtomicReference<URI> server = new AtomicReference<>();

  @TempDir Path dir;

  @Test
  void aConsumerOfTheFeedLosesNothingAcrossKillsAndItsReplayIsTheTable() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String when = "seed " + seed;
    Path data = dir.resolve("data");
    Path logs = Files.createDirectories(dir.resolve("logs"));
    Consumer consumer = new Consumer();

    for (int cycle = 0; cycle < CYCLES; cycle++) {
      try (ServerProcess process = ServerProcess.serve(data, logs, "feed-cycle" + cycle)) {
        server.set(process.uri());
        if (cycle == 0) {
          HttpResponse<String> created =
              send(
                  ServerProcess.request(
                      process.uri(),
                      "PUT",
                      "/v1/tables/" + TABLE,
                      "{\"changeFeed\":{\"enabled\":true}}"));
          assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
          consumer.start();
        }
        int finalCycle = cycle;
        ServerProcess.Load load =
            process.killUnderLoad(
                WRITERS,
                (uri, writer, stop, acks, cutOff) ->
                    write(uri, finalCycle, writer, seed, stop, acks, cutOff),
                40 + random.nextInt(80),
                WRITE_PHASE_LIMIT);
        assertThat(refused).as(when + ": writes refused").isEmpty();
        assertThat(load.acks()).as(when + ": acknowledged\n" + process.output()).isPositive();
        System.out.printf(
            "feed crash cycle %d: killed after %d acknowledged writes (%d cut off); consumer at %d%n",
            cycle, load.acks(), load.cutOff(), consumer.position());
      }
    }
    try (ServerProcess process = ServerProcess.serve(data, logs, "feed-final")) {
      server.set(process.uri());
      long latest = latest(process.uri());
      consumer.awaitPosition(latest, when + "\n" + process.output());
      consumer.stop();
      assertThat(consumer.failures).as(when + ": consumer").isEmpty();
      verify(consumer.entries, scan(process.uri()), when);
      System.out.printf(
          "feed crash: %d entries consumed, %d acknowledged writes, %d batches%n",
          consumer.entries.size(), acked.size(), ackedBatches.size());
    }
  }

  private void verify(List<Change> entries, List<Item> scanned, String when) {
    for (int i = 0; i < entries.size(); i++) {
      assertThat(entries.get(i).sequence()).as("%s: entry %d's sequence", when, i).isEqualTo(i + 1);
    }
    Map<String, Change> byEtag = new HashMap<>();
    Map<String, Item> replay = new LinkedHashMap<>();
    for (Change c : entries) {
      String key = c.partitionKey() + "/" + c.id();
      byEtag.put(key + "@" + c.etag() + (c.item() == null ? "-" : "+"), c);
      if (c.item() == null) {
        replay.remove(key);
      } else {
        assertThat(c.item().etag())
            .as("%s: entry %d's item", when, c.sequence())
            .isEqualTo(c.etag());
        replay.put(key, c.item());
      }
    }
    for (Acked a : acked) {
      String key = a.partitionKey() + "/" + a.id() + "@" + a.etag() + (a.delete() ? "-" : "+");
      assertThat(byEtag).as("%s: the entry of acknowledged %s", when, a).containsKey(key);
    }
    for (AckedBatch batch : ackedBatches) {
      List<Change> found = new ArrayList<>();
      for (Acked a : batch.writes()) {
        found.add(byEtag.get(a.partitionKey() + "/" + a.id() + "@" + a.etag() + "+"));
      }
      assertThat(found).as("%s: entries of batch %s", when, batch).doesNotContainNull();
      assertThat(found)
          .as("%s: one transaction for batch %s", when, batch)
          .allSatisfy(
              c -> {
                assertThat(c.transaction()).isEqualTo(found.get(0).transaction());
                assertThat(c.transactionSize()).isEqualTo(batch.writes().size());
              });
    }
    Map<String, Item> table = new LinkedHashMap<>();
    for (Item item : scanned) {
      table.put(item.partitionKey() + "/" + item.id(), item);
    }
    assertThat(replay).as("%s: the feed's replay against a scan", when).isEqualTo(table);
  }

  /**
   * One writer of a cycle: upserts (7 in 10), deletes of its items that exist (1 in 10) and batches
   * of 2 to 4 upserts (2 in 10), one request at a time, on its own keys.
   */
  private void write(
      URI uri,
      int cycle,
      int writer,
      long seed,
      AtomicBoolean stop,
      AtomicInteger acks,
      AtomicInteger cutOff) {
    Random random = new Random(seed * 31 + cycle * 7 + writer);
    String pk = "w" + writer;
    Map<String, String> etags = new HashMap<>(); // id -> ETag of the item as it now is
    for (long n = 0; !stop.get(); n++) {
      int dice = random.nextInt(10);
      try {
        if (dice < 7 || etags.isEmpty() && dice < 8) {
          String id = key(cycle, random);
          HttpResponse<String> r =
              send(
                  ServerProcess.request(
                      uri, "PUT", "/v1/tables/" + TABLE + "/items/" + pk + "/" + id, body(n)));
          if (r.statusCode() != 200) {
            refused.add("PUT " + id + ": " + r.statusCode() + " " + r.body());
            continue;
          }
          String etag = ItemJson.readStored(utf8(r.body()), Limits.DEFAULT).etag();
          etags.put(id, etag);
          acked.add(new Acked(pk, id, etag, false));
        } else if (dice < 8) {
          String id = new ArrayList<>(etags.keySet()).get(random.nextInt(etags.size()));
          HttpResponse<String> r =
              send(
                  ServerProcess.request(
                      uri, "DELETE", "/v1/tables/" + TABLE + "/items/" + pk + "/" + id, ""));
          if (r.statusCode() != 204) {
            refused.add("DELETE " + id + ": " + r.statusCode() + " " + r.body());
            continue;
          }
          acked.add(new Acked(pk, id, etags.remove(id), true));
        } else {
          List<String> ids = new ArrayList<>();
          int size = 2 + random.nextInt(3);
          while (ids.size() < size) {
            String id = key(cycle, random);
            if (!ids.contains(id)) {
              ids.add(id);
            }
          }
          List<String> ops = new ArrayList<>();
          for (String id : ids) {
            ops.add(
                "{\"op\":\"upsert\",\"table\":\"%s\",\"partitionKey\":\"%s\",\"id\":\"%s\",\"item\":%s}"
                    .formatted(TABLE, pk, id, body(n)));
          }
          HttpResponse<String> r =
              send(
                  ServerProcess.request(
                      uri,
                      "POST",
                      "/v1/batch",
                      "{\"operations\":[" + String.join(",", ops) + "]}"));
          if (r.statusCode() != 200) {
            refused.add("batch " + ids + ": " + r.statusCode() + " " + r.body());
            continue;
          }
          BatchResult result = BatchResultJson.read(utf8(r.body()), Limits.DEFAULT);
          List<Acked> writes = new ArrayList<>();
          for (int i = 0; i < ids.size(); i++) {
            String etag = result.items().get(i).etag();
            etags.put(ids.get(i), etag);
            writes.add(new Acked(pk, ids.get(i), etag, false));
          }
          acked.addAll(writes);
          ackedBatches.add(new AckedBatch(writes));
        }
        acks.incrementAndGet();
      } catch (IOException killed) {
        cutOff.incrementAndGet(); // never acknowledged: its entry may or may not be there
        return;
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static String key(int cycle, Random random) {
    return "c" + cycle + "-k" + random.nextInt(KEYS);
  }

  private static String body(long n) {
    return "{\"n\":" + n + ",\"text\":\"" + "x".repeat((int) (n % 40)) + "\"}";
  }

  /**
   * Follows the feed over HTTP with long-polls, processing each entry once, in order, and keeping
   * its position; a poll cut off by a kill (or refused while the server is down) is retried from
   * that same position against wherever the server is now.
   */
  private final class Consumer {
    final List<Change> entries = new ArrayList<>(); // guarded by this
    final Queue<String> failures = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread = new Thread(this::run, "feed-consumer");
    private volatile long position;

    void start() {
      thread.start();
    }

    long position() {
      return position;
    }

    private void run() {
      while (!stop.get()) {
        URI uri = server.get();
        HttpResponse<String> r;
        try {
          r =
              send(
                  HttpRequest.newBuilder(
                          uri.resolve(
                              "/v1/tables/"
                                  + TABLE
                                  + "/changes?limit=1000&wait=2s&after="
                                  + position))
                      .timeout(Duration.ofSeconds(20))
                      .GET()
                      .build());
        } catch (IOException killedOrDown) {
          pause();
          continue;
        } catch (InterruptedException interrupted) {
          return;
        }
        if (r.statusCode() != 200) {
          failures.add("poll after " + position + ": " + r.statusCode() + " " + r.body());
          pause();
          continue;
        }
        ChangePage page = ChangeJson.readPage(utf8(r.body()), Limits.DEFAULT);
        synchronized (this) {
          for (Change c : page.changes()) {
            if (c.sequence() != position + 1) {
              failures.add("after " + position + " came " + c.sequence());
            }
            entries.add(c); // processed: applied to the consumer's state
            position = c.sequence();
          }
        }
      }
    }

    void awaitPosition(long latest, String when) throws InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (position < latest) {
        assertThat(System.nanoTime() - deadline)
            .as("%s: consumer at %d of %d; %s", when, position, latest, failures)
            .isNegative();
        Thread.sleep(20);
      }
    }

    void stop() throws InterruptedException {
      stop.set(true);
      thread.join(Duration.ofSeconds(30).toMillis());
      assertThat(thread.isAlive()).as("the consumer stops").isFalse();
    }

    private void pause() {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.set(true);
      }
    }
  }

  private long latest(URI uri) throws Exception {
    HttpResponse<String> r =
        send(ServerProcess.request(uri, "GET", "/v1/tables/" + TABLE + "/changes?limit=1", ""));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return ChangeJson.readPage(utf8(r.body()), Limits.DEFAULT).latest();
  }

  private List<Item> scan(URI uri) throws Exception {
    List<Item> items = new ArrayList<>();
    String continuation = null;
    do {
      String path =
          "/v1/tables/"
              + TABLE
              + "/items?limit=1000"
              + (continuation == null
                  ? ""
                  : "&continuation=" + URLEncoder.encode(continuation, StandardCharsets.UTF_8));
      HttpResponse<String> r = send(ServerProcess.request(uri, "GET", path, ""));
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      Page page = PageJson.read(utf8(r.body()), Limits.DEFAULT);
      items.addAll(page.items());
      continuation = page.continuation();
    } while (continuation != null);
    return items;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
