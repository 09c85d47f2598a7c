package io.viewbase.server.azure.sdk;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.util.Context;
import com.azure.core.util.HttpClientOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.viewbase.server.ServerOptions;
import io.viewbase.server.ViewbaseServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Invariants that must hold however clients race, with both dialects writing the same table of one
 * database at once: the official Azure SDK on the dialect's port and {@code java.net.http} on the
 * native API's, each client with its own HTTP client (its own connections).
 *
 * <pre>
 * test                         | clients race to                           | must hold
 * -----------------------------+-------------------------------------------+---------------------------------
 * conditional increments       | read a counter, replace it with If-Match, | each counter = the increments
 *                              |   retry on 412                            |   acknowledged on it, exactly
 * one unique view key          | insert different items with one {email}   | one insert acknowledged, the rest
 *                              |                                           |   409 ViewKeyConflict (Azure:
 *                              |                                           |   EntityAlreadyExists); the view
 *                              |                                           |   holds the winner only
 * bank                         | move money by atomic batches: Azure       | every consistent read sums to the
 *                              |   $batch within a partition, native       |   starting total; no balance < 0
 *                              |   /v1/batch across partitions             |
 * </pre>
 *
 * <p>A consistent read of every balance is a native batch of {@code check} operations carrying the
 * ETags just read: it commits only if none of them changed, so the balances read were all current
 * at one instant (the batch's commit point). Figures (operations, retries, conflicts) are printed,
 * and docs/reliability.md reports them.
 */
class ConcurrencyInvariantsAcrossDialectsTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CLIENTS = 64;
  private static final int COUNTERS = 4;
  private static final int INCREMENTS_PER_CLIENT = 12;

  private static ViewbaseServer nativeServer;

  @BeforeAll
  static void startNativeApi() {
    nativeServer = ViewbaseServer.start(azure.db(), ServerOptions.defaults().withPort(0));
  }

  @AfterAll
  static void stopNativeApi() {
    if (nativeServer != null) {
      nativeServer.close();
    }
  }

  @Test
  void conditionalIncrementsFromBothDialectsAddUpToTheAcknowledgedOnes() throws Exception {
    String table = azure.newTable("Counters").getTableName();
    for (int c = 0; c < COUNTERS; c++) {
      azure.table(table).createEntity(new TableEntity("c", "n" + c).addProperty("count", 0));
    }
    AtomicLongArray acknowledged = new AtomicLongArray(COUNTERS);
    AtomicLong retries = new AtomicLong();
    List<Callable<Void>> clients = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      int client = i;
      clients.add(
          () -> {
            Random random = new Random(client);
            Incrementer incrementer =
                client % 2 == 0 ? new SdkIncrementer(table) : new NativeIncrementer(table);
            for (int k = 0; k < INCREMENTS_PER_CLIENT; k++) {
              int counter = random.nextInt(COUNTERS);
              while (!incrementer.tryIncrement("n" + counter)) {
                retries.incrementAndGet();
              }
              acknowledged.incrementAndGet(counter);
            }
            return null;
          });
    }
    long started = System.nanoTime();
    runAll(clients);
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    long total = 0;
    for (int c = 0; c < COUNTERS; c++) {
      JsonNode item = nativeGet(nativeHttp(), table, "c", "n" + c).body;
      assertThat(item.get("count").asLong()).as("counter n%d", c).isEqualTo(acknowledged.get(c));
      assertThat(azure.table(table).getEntity("c", "n" + c).getProperty("count"))
          .as("counter n%d through the SDK", c)
          .isEqualTo((int) acknowledged.get(c));
      total += acknowledged.get(c);
    }
    assertThat(total).isEqualTo((long) CLIENTS * INCREMENTS_PER_CLIENT);
    System.out.printf(
        "conditional increments: %d clients (half Azure SDK, half native), %d counters, %d"
            + " increments acknowledged, %d retries on 412, %d ms%n",
        CLIENTS, COUNTERS, total, retries.get(), millis);
  }

  @Test
  void racingInsertsOfOneUniqueViewKeyLeaveExactlyOneWinner() throws Exception {
    String source = azure.newTable("Users").getTableName();
    String view = source + "ByEmail";
    Answer created =
        nativeSend(
            nativeHttp(),
            "PUT",
            "/v1/views/" + view,
            "{\"source\":\""
                + source
                + "\",\"partitionBy\":\"all\",\"idBy\":\"{email}\",\"select\":[\"owner\"]}",
            null);
    assertThat(created.status).as("view creation: %s", created.body).isIn(201, 202);
    awaitViewReady(view);

    int rounds = 4;
    int refused = 0;
    for (int round = 0; round < rounds; round++) {
      String email = "same" + round + "@example.com";
      List<String> outcomes = new ArrayList<>();
      List<Callable<String>> clients = new ArrayList<>();
      for (int i = 0; i < CLIENTS / 2; i++) {
        String id = "r" + round + "c" + i;
        clients.add(
            i % 2 == 0
                ? () -> sdkInsert(source, id, email)
                : () -> nativeInsert(nativeHttp(), source, id, email));
      }
      for (Future<String> f : runAllReturning(clients)) {
        outcomes.add(f.get());
      }
      List<String> winners = outcomes.stream().filter(o -> o.startsWith("won:")).toList();
      assertThat(winners).as("acknowledged inserts of %s among %s", email, outcomes).hasSize(1);
      assertThat(outcomes.stream().filter(o -> !o.startsWith("won:")))
          .as("the refused inserts")
          .allMatch(o -> o.equals("409 EntityAlreadyExists") || o.equals("409 ViewKeyConflict"));
      refused += outcomes.size() - 1;
      String winner = winners.get(0).substring("won:".length());

      Answer entry = nativeGet(nativeHttp(), view, "all", email);
      assertThat(entry.status).isEqualTo(200);
      assertThat(entry.body.get("owner").asText())
          .as("the view's owner of %s", email)
          .isEqualTo(winner);
      // Each loser wrote nothing: the source holds one item with this email.
      Answer page =
          nativeSend(nativeHttp(), "GET", "/v1/tables/" + source + "/items/u", null, null);
      long holders = 0;
      for (JsonNode item : page.body.get("items")) {
        if (email.equals(item.get("email").asText())) {
          holders++;
        }
      }
      assertThat(holders).as("source items holding %s", email).isEqualTo(1);
    }
    Answer viewPage =
        nativeSend(nativeHttp(), "GET", "/v1/tables/" + view + "/items/all", null, null);
    assertThat(viewPage.body.get("items")).hasSize(rounds);
    System.out.printf(
        "unique view key: %d rounds of %d racing inserts, %d acknowledged, %d refused with 409%n",
        rounds, CLIENTS / 2, rounds, refused);
  }

  @Test
  void bankTransfersByBothBatchKindsKeepTheTotal() throws Exception {
    int partitions = 4;
    int perPartition = 5;
    int start = 100;
    int transfersPerClient = 15;
    int transferClients = 16;
    String table = azure.newTable("Bank").getTableName();
    List<String[]> accounts = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      for (int a = 0; a < perPartition; a++) {
        accounts.add(new String[] {"p" + p, "a" + a});
        azure
            .table(table)
            .createEntity(new TableEntity("p" + p, "a" + a).addProperty("balance", start));
      }
    }
    long total = (long) start * accounts.size();
    AtomicLong transfers = new AtomicLong();
    AtomicLong conflicts = new AtomicLong();
    AtomicLong refusedForFunds = new AtomicLong();
    AtomicLong consistentReads = new AtomicLong();
    AtomicLong staleReads = new AtomicLong();
    AtomicBoolean writing = new AtomicBoolean(true);

    List<Callable<Void>> clients = new ArrayList<>();
    for (int i = 0; i < transferClients; i++) {
      int client = i;
      clients.add(
          () -> {
            Random random = new Random(1000 + client);
            Transferer transferer =
                client % 2 == 0 ? new SdkTransferer(table) : new NativeTransferer(table);
            for (int k = 0; k < transfersPerClient; k++) {
              int p = random.nextInt(partitions);
              int a = random.nextInt(perPartition);
              int b = (a + 1 + random.nextInt(perPartition - 1)) % perPartition;
              // Azure batches stay in one partition; native ones cross partitions.
              int q = transferer instanceof SdkTransferer ? p : random.nextInt(partitions);
              int amount = 1 + random.nextInt(30);
              while (true) {
                int outcome = transferer.tryTransfer("p" + p, "a" + a, "p" + q, "a" + b, amount);
                if (outcome == Transferer.DONE) {
                  transfers.incrementAndGet();
                  break;
                }
                if (outcome == Transferer.NO_FUNDS) {
                  refusedForFunds.incrementAndGet();
                  break;
                }
                conflicts.incrementAndGet();
              }
            }
            return null;
          });
    }
    for (int r = 0; r < 2; r++) {
      clients.add(
          () -> {
            java.net.http.HttpClient http = nativeHttp();
            // At least one read after the writers stop, so every reader checks the final state.
            boolean last = false;
            while (!last) {
              last = !writing.get();
              long sum = consistentSum(http, table, accounts, staleReads);
              assertThat(sum).as("a consistent sum of every balance").isEqualTo(total);
              consistentReads.incrementAndGet();
            }
            return null;
          });
    }
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(clients.size());
    try {
      List<Future<Void>> futures = new ArrayList<>();
      for (Callable<Void> c : clients) {
        futures.add(pool.submit(c));
      }
      for (int i = 0; i < transferClients; i++) {
        futures.get(i).get(120, TimeUnit.SECONDS);
      }
      writing.set(false);
      for (Future<Void> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

    long sum = 0;
    for (String[] account : accounts) {
      long balance =
          nativeGet(nativeHttp(), table, account[0], account[1]).body.get("balance").asLong();
      assertThat(balance).as("balance of %s/%s", account[0], account[1]).isNotNegative();
      sum += balance;
    }
    assertThat(sum).isEqualTo(total);
    assertThat(transfers.get()).isPositive();
    System.out.printf(
        "bank: %d accounts, %d transfers committed (half Azure $batch, half native /v1/batch), %d"
            + " retried after a 412, %d refused for funds; %d consistent sums (%d reads retried),"
            + " %d ms%n",
        accounts.size(),
        transfers.get(),
        conflicts.get(),
        refusedForFunds.get(),
        consistentReads.get(),
        staleReads.get(),
        millis);
  }

  // ---- the counter clients ----

  /** One client's read-then-conditional-replace of a counter. */
  interface Incrementer {
    /** True when the increment was acknowledged, false when a 412 says another write won. */
    boolean tryIncrement(String id) throws Exception;
  }

  /** Increments through the Azure SDK, with a client (and HTTP client) of its own. */
  final class SdkIncrementer implements Incrementer {
    private final TableClient client;

    SdkIncrementer(String table) {
      client = ownSdkClient(table);
    }

    @Override
    public boolean tryIncrement(String id) {
      TableEntity current = client.getEntity("c", id);
      int count = (Integer) current.getProperty("count");
      current.addProperty("count", count + 1);
      try {
        client.updateEntityWithResponse(
            current, TableEntityUpdateMode.REPLACE, true, null, Context.NONE);
        return true;
      } catch (TableServiceException e) {
        assertThat(e.getResponse().getStatusCode()).as("%s", e.getMessage()).isEqualTo(412);
        return false;
      }
    }
  }

  /** Increments through the native API, with an HTTP client of its own. */
  final class NativeIncrementer implements Incrementer {
    private final java.net.http.HttpClient http = nativeHttp();
    private final String table;

    NativeIncrementer(String table) {
      this.table = table;
    }

    @Override
    public boolean tryIncrement(String id) throws Exception {
      Answer current = nativeGet(http, table, "c", id);
      assertThat(current.status).isEqualTo(200);
      int count = current.body.get("count").asInt();
      Answer put =
          nativeSend(
              http,
              "PUT",
              "/v1/tables/" + table + "/items/c/" + id,
              "{\"count\":" + (count + 1) + "}",
              current.etag);
      assertThat(put.status).as("%s", put.body).isIn(200, 412);
      return put.status == 200;
    }
  }

  // ---- the bank clients ----

  /** One client's attempt at a checked transfer, as one atomic batch. */
  interface Transferer {
    int DONE = 0;
    int CONFLICT = 1;
    int NO_FUNDS = 2;

    int tryTransfer(String fromPk, String fromId, String toPk, String toId, int amount)
        throws Exception;
  }

  /** Transfers within a partition through the SDK's {@code submitTransaction} ($batch). */
  final class SdkTransferer implements Transferer {
    private final TableClient client;

    SdkTransferer(String table) {
      client = ownSdkClient(table);
    }

    @Override
    public int tryTransfer(String fromPk, String fromId, String toPk, String toId, int amount) {
      TableEntity from = client.getEntity(fromPk, fromId);
      TableEntity to = client.getEntity(toPk, toId);
      int fromBalance = (Integer) from.getProperty("balance");
      if (fromBalance < amount) {
        return NO_FUNDS;
      }
      from.addProperty("balance", fromBalance - amount);
      to.addProperty("balance", (Integer) to.getProperty("balance") + amount);
      try {
        client.submitTransaction(
            List.of(
                new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, from, true),
                new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, to, true)));
        return DONE;
      } catch (TableTransactionFailedException e) {
        assertThat(String.valueOf(e.getValue().getErrorCode()))
            .as("%s", e.getMessage())
            .isEqualTo("UpdateConditionNotSatisfied");
        return CONFLICT;
      }
    }
  }

  /** Transfers across partitions through the native {@code POST /v1/batch}. */
  final class NativeTransferer implements Transferer {
    private final java.net.http.HttpClient http = nativeHttp();
    private final String table;

    NativeTransferer(String table) {
      this.table = table;
    }

    @Override
    public int tryTransfer(String fromPk, String fromId, String toPk, String toId, int amount)
        throws Exception {
      Answer from = nativeGet(http, table, fromPk, fromId);
      Answer to = nativeGet(http, table, toPk, toId);
      int fromBalance = from.body.get("balance").asInt();
      if (fromBalance < amount) {
        return NO_FUNDS;
      }
      ObjectNode batch = JSON.createObjectNode();
      ArrayNode ops = batch.putArray("operations");
      ops.add(replace(fromPk, fromId, fromBalance - amount, from.etag));
      ops.add(replace(toPk, toId, to.body.get("balance").asInt() + amount, to.etag));
      Answer answer = nativeSend(http, "POST", "/v1/batch", batch.toString(), null);
      assertThat(answer.status).as("%s", answer.body).isIn(200, 412);
      return answer.status == 200 ? DONE : CONFLICT;
    }

    private ObjectNode replace(String pk, String id, int balance, String etag) {
      ObjectNode op = JSON.createObjectNode();
      op.put("op", "replace").put("table", table).put("partitionKey", pk).put("id", id);
      op.putObject("item").put("balance", balance);
      op.put("ifMatch", etag);
      return op;
    }
  }

  /**
   * Reads every balance, then confirms with a batch of {@code check}s on the ETags read that none
   * changed in between; retried until one confirms.
   */
  private static long consistentSum(
      java.net.http.HttpClient http, String table, List<String[]> accounts, AtomicLong stale)
      throws Exception {
    while (true) {
      long sum = 0;
      ObjectNode batch = JSON.createObjectNode();
      ArrayNode ops = batch.putArray("operations");
      for (String[] account : accounts) {
        Answer read = nativeGet(http, table, account[0], account[1]);
        long balance = read.body.get("balance").asLong();
        assertThat(balance).as("balance of %s/%s", account[0], account[1]).isNotNegative();
        sum += balance;
        ops.addObject()
            .put("op", "check")
            .put("table", table)
            .put("partitionKey", account[0])
            .put("id", account[1])
            .put("ifMatch", read.etag);
      }
      Answer check = nativeSend(http, "POST", "/v1/batch", batch.toString(), null);
      assertThat(check.status).as("%s", check.body).isIn(200, 412);
      if (check.status == 200) {
        return sum;
      }
      stale.incrementAndGet();
    }
  }

  // ---- the unique-key clients ----

  private String sdkInsert(String table, String id, String email) {
    try {
      ownSdkClient(table)
          .createEntity(
              new TableEntity("u", id).addProperty("email", email).addProperty("owner", id));
      return "won:" + id;
    } catch (TableServiceException e) {
      return e.getResponse().getStatusCode() + " " + e.getValue().getErrorCode();
    }
  }

  private static String nativeInsert(
      java.net.http.HttpClient http, String table, String id, String email) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(nativeUri("/v1/tables/" + table + "/items/u/" + id))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .header("If-None-Match", "*")
            .PUT(
                HttpRequest.BodyPublishers.ofString(
                    "{\"email\":\"" + email + "\",\"owner\":\"" + id + "\"}"))
            .build();
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 201) {
      return "won:" + id;
    }
    return r.statusCode() + " " + JSON.readTree(r.body()).path("error").path("code").asText();
  }

  private static void awaitViewReady(String view) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Answer status = nativeSend(nativeHttp(), "GET", "/v1/views/" + view, null, null);
      String state = status.body.path("state").asText();
      if (state.equals("ready")) {
        return;
      }
      assertThat(state).as("view state").isEqualTo("building");
      assertThat(System.nanoTime()).as("view ready in time").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  // ---- plumbing ----

  /** A status, its JSON body and its ETag header. */
  record Answer(int status, JsonNode body, String etag) {}

  private static TableClient ownSdkClient(String table) {
    HttpClient http =
        HttpClient.createDefault(
            new HttpClientOptions()
                .setConnectTimeout(Duration.ofSeconds(2))
                .setResponseTimeout(Duration.ofSeconds(30)));
    return new TableClientBuilder()
        .endpoint(azure.service().getServiceEndpoint())
        .credential(new AzureNamedKeyCredential(AzureSdkServer.ACCOUNT, AzureSdkServer.KEY))
        .tableName(table)
        .retryOptions(AzureSdkServer.noRetries())
        .httpClient(http)
        .buildClient();
  }

  private static java.net.http.HttpClient nativeHttp() {
    return java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(2))
        .build();
  }

  private static URI nativeUri(String path) {
    return URI.create("http://127.0.0.1:" + nativeServer.port() + path);
  }

  private static Answer nativeGet(java.net.http.HttpClient http, String table, String pk, String id)
      throws IOException, InterruptedException {
    return nativeSend(http, "GET", "/v1/tables/" + table + "/items/" + pk + "/" + id, null, null);
  }

  private static Answer nativeSend(
      java.net.http.HttpClient http, String method, String path, String body, String ifMatch)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(nativeUri(path)).timeout(Duration.ofSeconds(30));
    if (ifMatch != null) {
      request.header("If-Match", ifMatch);
    }
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(body));
    }
    HttpResponse<String> r =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    JsonNode json = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
    return new Answer(r.statusCode(), json, r.headers().firstValue("ETag").orElse(null));
  }

  /** Starts every client at once (a latch) and waits for all; a failure in one fails the test. */
  private static <T> void runAll(List<? extends Callable<T>> clients) throws Exception {
    for (Future<T> f : runAllReturning(clients)) {
      f.get();
    }
  }

  private static <T> List<Future<T>> runAllReturning(List<? extends Callable<T>> clients)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients.size());
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (Callable<T> c : clients) {
        futures.add(
            pool.submit(
                () -> {
                  go.await();
                  return c.call();
                }));
      }
      go.countDown();
      for (Future<T> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
      return futures;
    } finally {
      pool.shutdownNow();
    }
  }
}
