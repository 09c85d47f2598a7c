package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A unique index is a view keyed by the unique attributes alone: the database refuses a duplicate.
 */
class UniqueIndexTest {
  record User(String userId, String email) {}

  static final Entity<User> USERS =
      Entity.define("user", User.class)
          .service("platform")
          .attribute(Attribute.string("userId").required())
          .attribute(Attribute.string("email").required())
          .index(Index.primary("byId").namespace("user").pk("userId"))
          .index(
              Index.secondary("byEmail")
                  .namespace("users", "email")
                  .sk("email")
                  .casing(Casing.LOWER)
                  .unique())
          .build();

  static final int THREADS = 16;
  static final int ATTEMPTS_PER_THREAD = 8;
  static final List<String> EMAILS =
      List.of("ann@example.com", "bob@example.com", "cy@example.com");

  @Test
  void concurrentCreatesWithTheSameEmailsHaveExactlyOneWinnerPerEmail(@TempDir Path dir)
      throws Exception {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ServiceTable platform =
          Service.define("platform")
              .entity(USERS)
              .build()
              .open(db, "Platform", Duration.ofSeconds(30));
      EntityClient<User> users = platform.entity(USERS);
      Map<String, List<String>> winners = new ConcurrentHashMap<>();
      List<ViewbaseException> losers = java.util.Collections.synchronizedList(new ArrayList<>());
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          futures.add(
              pool.submit(
                  () -> {
                    start.await();
                    for (int i = 0; i < ATTEMPTS_PER_THREAD; i++) {
                      String email = EMAILS.get((thread + i) % EMAILS.size());
                      // Case differs between writers: the index is case-insensitive.
                      String written =
                          thread % 2 == 0 ? email : email.toUpperCase(java.util.Locale.ROOT);
                      String userId = "u-" + thread + "-" + i;
                      try {
                        users.create(new User(userId, written));
                        winners
                            .computeIfAbsent(
                                email,
                                k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add(userId);
                      } catch (ViewbaseException e) {
                        losers.add(e);
                      }
                    }
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> f : futures) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }

      assertThat(winners.keySet()).containsExactlyInAnyOrderElementsOf(EMAILS);
      winners.values().forEach(w -> assertThat(w).hasSize(1));
      assertThat(losers).hasSize(THREADS * ATTEMPTS_PER_THREAD - EMAILS.size());
      assertThat(losers)
          .allSatisfy(
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.ViewKeyConflict);
                assertThat(e.getMessage())
                    .isEqualTo("Another 'user' already has this email (unique index 'byEmail')");
                assertThat(e.context())
                    .containsEntry("entity", "user")
                    .containsEntry("index", "byEmail");
              });
      long stored;
      try (var cursor = db.table("Platform").cursor(io.viewbase.api.Query.all())) {
        stored =
            java.util.stream.StreamSupport.stream(
                    java.util.Spliterators.spliteratorUnknownSize(cursor, 0), false)
                .count();
      }
      assertThat(stored).isEqualTo(EMAILS.size());
      var report = db.verifyView(platform.viewName(USERS, "byEmail"), false);
      assertThat(report.drift()).isZero();
      assertThat(report.checked()).isEqualTo(EMAILS.size());
      for (String email : EMAILS) {
        assertThat(users.query("byEmail", Map.of("email", email)).all())
            .singleElement()
            .satisfies(u -> assertThat(u.userId()).isEqualTo(winners.get(email).get(0)));
      }
    }
  }

  @Test
  void changingAnEmailToATakenOneIsRefusedAndChangesNothing(@TempDir Path dir) {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      ServiceTable platform =
          Service.define("platform")
              .entity(USERS)
              .build()
              .open(db, "Platform", Duration.ofSeconds(30));
      EntityClient<User> users = platform.entity(USERS);
      users.create(new User("u1", "ann@example.com"));
      Stored<User> bob = users.create(new User("u2", "bob@example.com"));

      var error =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              ViewbaseException.class,
              () -> users.patch(Map.of("userId", "u2"), Changes.set("email", "ANN@example.com")));

      assertThat(error.code()).isEqualTo(ErrorCode.ViewKeyConflict);
      assertThat(users.read(Map.of("userId", "u2")).orElseThrow().etag()).isEqualTo(bob.etag());
      assertThat(users.query("byEmail", Map.of("email", "bob@example.com")).all()).hasSize(1);
    }
  }
}
