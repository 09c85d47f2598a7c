package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Value;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bank test: 16 threads move money between 1,000 accounts in batches that replace both accounts
 * at the ETags they read, for a fixed time (60 s by default, {@code -Dviewbase.bank.seconds}).
 * Throughout, a consistent read of all accounts (one page, one storage snapshot) must sum to the
 * initial total; at the end, replaying the log of acknowledged transfers on the initial balances
 * must give every account's stored balance exactly (no acknowledged batch lost, none half-applied).
 */
class BankTest {
  private static final int ACCOUNTS = 1000;
  private static final int INITIAL = 1000;
  private static final int THREADS = 16;

  @TempDir Path dir;

  record Transfer(int from, int to, int amount) {}

  private static String id(int account) {
    return String.format("acct%04d", account);
  }

  private static int balance(Item item) {
    return ((Value.Int32) item.properties().get("balance")).value();
  }

  private static long total(Table accounts) {
    Page all = accounts.query(Query.partition("bank").withLimit(ACCOUNTS));
    assertThat(all.items()).hasSize(ACCOUNTS);
    return all.items().stream().mapToLong(BankTest::balance).sum();
  }

  @Test
  void concurrentTransfersKeepTheTotalExactAndReplayToTheStoredBalances() throws Exception {
    long seconds = Long.getLong("viewbase.bank.seconds", 60);
    long seed = Long.getLong("viewbase.seed", System.nanoTime());
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      db.createTable("Accounts");
      Table accounts = db.table("Accounts");
      Batch.Builder open = Batch.builder();
      for (int a = 0; a < ACCOUNTS; a++) {
        open.insert("Accounts", Item.builder("bank", id(a)).put("balance", INITIAL).build());
        if (open.build().size() == Batch.MAX_OPERATIONS) {
          db.commit(open.build());
          open = Batch.builder();
        }
      }
      long expectedTotal = (long) ACCOUNTS * INITIAL;
      assertThat(total(accounts)).isEqualTo(expectedTotal);

      ConcurrentLinkedQueue<Transfer> log = new ConcurrentLinkedQueue<>();
      AtomicBoolean running = new AtomicBoolean(true);
      AtomicLong conflicts = new AtomicLong();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        Random random = new Random(seed + t);
        workers.add(
            pool.submit(
                () -> {
                  while (running.get()) {
                    int from = random.nextInt(ACCOUNTS);
                    int to = random.nextInt(ACCOUNTS);
                    if (from == to) {
                      continue;
                    }
                    Item a = accounts.get("bank", id(from)).orElseThrow();
                    Item b = accounts.get("bank", id(to)).orElseThrow();
                    int amount = 1 + random.nextInt(Math.max(1, Math.min(50, balance(a))));
                    if (balance(a) < amount) {
                      continue;
                    }
                    try {
                      db.commit(
                          Batch.builder()
                              .replace(
                                  "Accounts",
                                  Item.builder("bank", id(from))
                                      .put("balance", balance(a) - amount)
                                      .build(),
                                  a.etag())
                              .replace(
                                  "Accounts",
                                  Item.builder("bank", id(to))
                                      .put("balance", balance(b) + amount)
                                      .build(),
                                  b.etag())
                              .build());
                      log.add(new Transfer(from, to, amount));
                    } catch (ViewbaseException e) {
                      assertThat(e.code()).isEqualTo(ErrorCode.PreconditionFailed);
                      conflicts.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      Future<Integer> auditor =
          pool.submit(
              () -> {
                int audits = 0;
                while (running.get()) {
                  assertThat(total(accounts)).as("seed %d", seed).isEqualTo(expectedTotal);
                  audits++;
                }
                return audits;
              });
      Thread.sleep(seconds * 1000);
      running.set(false);
      for (Future<?> w : workers) {
        w.get();
      }
      int audits = auditor.get();
      pool.shutdown();

      int[] replay = new int[ACCOUNTS];
      java.util.Arrays.fill(replay, INITIAL);
      for (Transfer t : log) {
        replay[t.from()] -= t.amount();
        replay[t.to()] += t.amount();
      }
      for (int a = 0; a < ACCOUNTS; a++) {
        assertThat(balance(accounts.get("bank", id(a)).orElseThrow()))
            .as("account %d, seed %d", a, seed)
            .isEqualTo(replay[a]);
      }
      assertThat(total(accounts)).isEqualTo(expectedTotal);
      assertThat(log).isNotEmpty();
      System.out.printf(
          "bank test: %d transfers committed, %d refused on a stale ETag, %d audits, seed %d%n",
          log.size(), conflicts.get(), audits, seed);
    }
  }
}
