package io.viewbase.cassandra.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewbaseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 8, acceptance 3: two Viewbase servers on one Cassandra keyspace, written concurrently
 * through both. Conditional updates of shared items lose no update, and racing claims of unique
 * view keys leave exactly one winner per key and a view that verifies clean.
 */
class TwoServersTest {
  private static final int THREADS_PER_SERVER = 3;

  private static TwoServers servers;

  @BeforeAll
  static void start() {
    servers = new TwoServers(SharedCassandra.freshName("two"));
  }

  @AfterAll
  static void stop() {
    if (servers != null) {
      servers.close();
    }
  }

  @Test
  void counterIncrementsWithEtagRetryThroughBothServersLoseNoUpdate() throws Exception {
    int counters = 2;
    int incrementsPerThread = 20;
    servers.client(0).createTable("Counters");
    for (int c = 0; c < counters; c++) {
      // Created through A, incremented through both: B learns of the table on its first request.
      servers.client(0).table("Counters").insert(Item.builder("c", "n" + c).put("n", 0L).build());
    }
    AtomicLongArray acknowledged = new AtomicLongArray(counters);
    List<Future<Integer>> threads = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_SERVER);
    for (int t = 0; t < 2 * THREADS_PER_SERVER; t++) {
      Table counterTable = servers.client(t % 2).table("Counters");
      int thread = t;
      threads.add(
          pool.submit(
              () -> {
                int retries = 0;
                for (int i = 0; i < incrementsPerThread; i++) {
                  int c = (thread + i) % counters;
                  while (true) {
                    Item current = counterTable.get("c", "n" + c).orElseThrow();
                    long n = count(current);
                    try {
                      counterTable.replace(
                          current.toBuilder().put("n", n + 1).build(), current.etag());
                      acknowledged.incrementAndGet(c);
                      break;
                    } catch (ViewbaseException e) {
                      assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed);
                      retries++;
                    }
                  }
                }
                return retries;
              }));
    }
    int retries = 0;
    for (Future<Integer> f : threads) {
      retries += f.get();
    }
    pool.shutdown();
    long total = 0;
    for (int c = 0; c < counters; c++) {
      for (int server = 0; server < 2; server++) {
        Item counter = servers.client(server).table("Counters").get("c", "n" + c).orElseThrow();
        assertThat(count(counter))
            .as("counter %d through server %d", c, server)
            .isEqualTo(acknowledged.get(c));
      }
      total += acknowledged.get(c);
    }
    assertThat(total).isEqualTo(2L * THREADS_PER_SERVER * incrementsPerThread);
    System.out.printf(
        "TwoServersTest: %d increments through two servers, %d etag retries%n", total, retries);
  }

  private static long count(Item counter) {
    Value n = counter.get("n").orElseThrow();
    return n instanceof Value.Int64 l ? l.value() : ((Value.Int32) n).value();
  }

  @Test
  void racingClaimsOfUniqueViewKeysThroughBothServersHaveExactlyOneWinnerEach() throws Exception {
    int keys = 4;
    int rounds = 3;
    servers.client(0).createTable("Members");
    servers.client(0).createView(ViewDefinition.of("MembersByEmail", "Members", "all", "{email}"));
    servers.awaitReadyOnBoth("MembersByEmail");
    Map<String, List<String>> winners = new HashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_SERVER);
    for (int round = 0; round < rounds; round++) {
      List<Future<List<String>>> threads = new ArrayList<>();
      for (int t = 0; t < 2 * THREADS_PER_SERVER; t++) {
        Table members = servers.client(t % 2).table("Members");
        String member = "r" + round + "t" + t;
        int r = round;
        threads.add(
            pool.submit(
                () -> {
                  List<String> won = new ArrayList<>();
                  for (int k = 0; k < keys; k++) {
                    String email = "r" + r + "k" + k + "@example.com";
                    try {
                      // Every thread inserts an item of its own that claims the same email.
                      members.insert(
                          Item.builder("m", member + "k" + k).put("email", email).build());
                      won.add(email);
                    } catch (ViewbaseException e) {
                      assertThat(e.code()).isEqualTo(ErrorCode.ViewKeyConflict);
                    }
                  }
                  return won;
                }));
      }
      for (Future<List<String>> f : threads) {
        for (String email : f.get()) {
          winners.computeIfAbsent(email, e -> new ArrayList<>()).add(email);
        }
      }
    }
    pool.shutdown();
    assertThat(winners).hasSize(keys * rounds);
    winners.forEach((email, won) -> assertThat(won).as(email).hasSize(1));
    Map<String, Integer> stored = new HashMap<>();
    try (ItemCursor cursor = servers.client(1).table("Members").cursor(Query.all())) {
      cursor.forEachRemaining(
          i -> stored.merge(((Value.Str) i.get("email").orElseThrow()).value(), 1, Integer::sum));
    }
    assertThat(stored)
        .as("items stored per email")
        .hasSize(keys * rounds)
        .allSatisfy((email, n) -> assertThat(n).isEqualTo(1));
    for (int server = 0; server < 2; server++) {
      assertThat(servers.client(server).verifyView("MembersByEmail", false).drift()).isZero();
    }
  }
}
