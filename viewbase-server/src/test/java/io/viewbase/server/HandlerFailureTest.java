package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.TableInfo;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.ErrorJson;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A failure no code expects, on every path a native request takes (served on the event loop, a
 * single-item write started there and completed later, the worker pool), is answered once with a
 * 500 InternalError, and the connection serves its next request.
 *
 * <p>No input reaches such a failure through a real database: the engine bounds every recursion
 * (JSON nesting 32, filter nesting 100, key templates flat) and its error contexts hold strings and
 * numbers. So the database here is a stand-in whose table {@code Faulty} fails each call with the
 * test's fault: a StackOverflowError, or an error whose context cannot be rendered (rendering it
 * overflows the stack while the answer is being made, after the database has returned).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HandlerFailureTest {
  /** A context value whose text cannot be made: the answer's rendering fails, not the database. */
  private static final Object UNPRINTABLE =
      new Object() {
        @Override
        public String toString() {
          throw new StackOverflowError("a context value that cannot be printed");
        }
      };

  private Database real;
  private FaultyDatabase db;
  private ViewbaseServer server;

  @BeforeAll
  void start() {
    real = Viewbase.open(OpenOptions.inMemory());
    db = new FaultyDatabase(real);
    server =
        ViewbaseServer.start(
            db, ServerOptions.defaults().withPort(0).withWorkerThreads(2).withIoThreads(1));
  }

  @AfterAll
  void stop() {
    server.close();
    real.close();
  }

  static Stream<Arguments> faultsOnEveryPath() {
    List<String> requests =
        List.of(
            "GET /v1/tables/Faulty/items/p/i", // point read, on the event loop
            "GET /v1/tables", // catalog read, on the event loop
            "PUT /v1/tables/Faulty/items/p/i {}", // async write that fails as it starts
            "PATCH /v1/tables/Faulty/items/p/i {}", // async write whose future fails
            "DELETE /v1/tables/Faulty/items/p/i", // async delete whose future fails
            "GET /v1/tables/Faulty/items/p", // query, on the worker pool
            "POST /v1/batch {\"operations\":[]}"); // batch, on the worker pool
    return Stream.of("StackOverflowError", "unrenderable error")
        .flatMap(fault -> requests.stream().map(request -> Arguments.of(fault, request)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("faultsOnEveryPath")
  void aFailureNoCodeExpectsIsAnswered500OnceAndTheConnectionGoesOn(String fault, String request) {
    db.fault =
        fault.equals("StackOverflowError")
            ? () -> new StackOverflowError("deep")
            : () ->
                ViewbaseException.of(
                    ErrorCode.ItemNotFound, "Item not found", "partitionKey", UNPRINTABLE);
    try (RawConnection connection = new RawConnection(server.port())) {
      RawConnection.Response answer = connection.send(raw(request)).read();

      assertThat(answer.status()).as(answer.head() + answer.body()).isEqualTo(500);
      assertThat(ErrorJson.read(answer.body().getBytes()).orElseThrow().code())
          .isEqualTo(ErrorCode.InternalError);
      assertThat(answer.body()).doesNotContain("deep", "Overflow", "printed");
      // exactly one answer: the next request's is the next thing on the connection
      assertThat(connection.get("/v1/health").status()).isEqualTo(200);
      assertThat(connection.get("/metrics").body())
          .contains("viewbase_http_requests_in_flight{dialect=\"native\"} 1.0\n");
    } finally {
      db.fault = null;
    }
  }

  /** "METHOD PATH [BODY]" as an HTTP/1.1 request. */
  private static String raw(String request) {
    String[] parts = request.split(" ", 3);
    String body = parts.length > 2 ? parts[2] : "";
    return parts[0]
        + " "
        + parts[1]
        + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        + "Content-Length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  /**
   * A real database but for the table {@code Faulty} and the catalog, which fail while a fault is
   * set.
   */
  private static final class FaultyDatabase extends DelegatingDatabase {
    volatile Supplier<Throwable> fault;

    FaultyDatabase(Database real) {
      super(real);
    }

    /** Throws the current fault (an Error or an unchecked exception). */
    private RuntimeException fail() {
      Throwable t = fault.get();
      if (t instanceof Error e) {
        throw e;
      }
      throw (RuntimeException) t;
    }

    private <T> CompletableFuture<T> failed() {
      return CompletableFuture.failedFuture(fault.get());
    }

    @Override
    public List<TableInfo> listTables() {
      if (fault != null) {
        throw fail();
      }
      return real.listTables();
    }

    @Override
    public Table table(String name) {
      return name.equals("Faulty") ? new FaultyTable() : real.table(name);
    }

    @Override
    public BatchResult commit(Batch batch) {
      throw fail();
    }

    /** Fails every call: synchronously, or (the asynchronous writes but one) through its future. */
    private final class FaultyTable implements Table {
      @Override
      public String name() {
        return "Faulty";
      }

      @Override
      public Optional<Item> get(String partitionKey, String id) {
        throw fail();
      }

      @Override
      public Item insert(Item item) {
        throw fail();
      }

      @Override
      public Item replace(Item item, String ifMatch) {
        throw fail();
      }

      @Override
      public Item upsert(Item item) {
        throw fail();
      }

      @Override
      public Item merge(Item item, String ifMatch) {
        throw fail();
      }

      @Override
      public Item upsertMerge(Item item) {
        throw fail();
      }

      @Override
      public void delete(String partitionKey, String id, String ifMatch) {
        throw fail();
      }

      @Override
      public CompletableFuture<Item> upsertAsync(Item item) {
        throw fail();
      }

      @Override
      public CompletableFuture<Item> upsertMergeAsync(Item item) {
        return failed();
      }

      @Override
      public CompletableFuture<Void> deleteAsync(String partitionKey, String id, String ifMatch) {
        return failed();
      }

      @Override
      public Page query(Query query) {
        throw fail();
      }

      @Override
      public ItemCursor cursor(Query query) {
        throw fail();
      }
    }
  }
}
