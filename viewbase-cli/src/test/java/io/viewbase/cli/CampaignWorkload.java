package io.viewbase.cli;

import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.json.BatchResultJson;
import io.viewbase.json.ItemJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The crash campaign's load and its client models. The data:
 *
 * <pre>
 * table / view        keys                           written by
 * Accounts            w{n}/k0..k7 (email, tag)       writer n only: native PUT/DELETE (some
 *   (change feed)                                    conditional), native batches, Azure upserts
 *                                                    and Azure $batch
 * Ledger              w{n}/L0..L3 (tag)              writer n only, in native batches with Accounts
 *                     shared/s0..s2 (n, tag)         every writer: If-Match counter increments
 * AccountsByEmail     all/{email}: unique            the server (a view of Accounts)
 * AccountsCopy        {partitionKey}/{id}            the server; created and dropped mid-load
 * </pre>
 *
 * <p>A writer owns its keys and sends one request at a time, so its model of them is exact while
 * the server answers: before each request it predicts the answer (acknowledged, or refused with a
 * status: a view-key conflict it provoked, a stale ETag, a batch made to fail), and a different
 * answer is a violation. The first request without an answer (the kill) ends the writer's cycle;
 * its effect is kept as {@code pending}: after the restart the writer's keys must show either the
 * model or the model with that whole effect applied, nothing in between and nothing else.
 *
 * <p>Every write carries a tag ({@code w{n}-{seq}}) that no other write carries, so an item names
 * the write that made it.
 */
final class CampaignWorkload {
  static final String ACCOUNTS = "Accounts";
  static final String LEDGER = "Ledger";
  static final String BY_EMAIL = "AccountsByEmail";
  static final String COPY = "AccountsCopy";
  static final String SHARED = "shared";
  static final int KEYS = 8;
  static final int LEDGER_KEYS = 4;
  static final int EMAILS = 12;
  static final int SHARED_KEYS = 3;

  /** The unique view: every account's email is a key of its own. */
  static final String BY_EMAIL_DEFINITION =
      "{\"source\":\"" + ACCOUNTS + "\",\"partitionBy\":\"all\",\"idBy\":\"{email}\"}";

  /** The view created and dropped mid-load: a copy of Accounts' tags. */
  static final String COPY_DEFINITION = "{\"source\":\"" + ACCOUNTS + "\",\"select\":[\"tag\"]}";

  private CampaignWorkload() {}

  /** A key's content as its writer knows it: the tag of the write that made it, and its email. */
  record State(String tag, String email) {
    /** The effect of a delete. */
    static final State ABSENT = new State(null, null);
  }

  /** Where this cycle's server answers, in both APIs. */
  record Endpoints(URI nativeApi, TableClient azure) {}

  /** Figures of the whole campaign. */
  static final class Counts {
    final AtomicLong operations = new AtomicLong();
    final AtomicLong acknowledged = new AtomicLong();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong unknown = new AtomicLong();
  }

  static String key(String table, String partitionKey, String id) {
    return table + "/" + partitionKey + "/" + id;
  }

  /** One writer and its exact model of its own keys. */
  static final class Writer {
    final int index;
    final String pk;

    /** Key ("table/pk/id") to its state; absent keys are not here. */
    final Map<String, State> states = new HashMap<>();

    /** Key to the ETag of its current version, where the writer knows it. */
    final Map<String, String> etags = new HashMap<>();

    /** Accounts key to what its feed entries must be, in order: tags, "-" for a delete. */
    final Map<String, List<String>> history = new HashMap<>();

    /** The effect of the request the kill cut off; null when none. */
    Map<String, State> pending;

    private long seq;

    Writer(int index) {
      this.index = index;
      this.pk = "w" + index;
    }

    /** Applies an acknowledged (or, after a restart, observed) effect to the model. */
    void apply(Map<String, State> effect) {
      for (Map.Entry<String, State> e : effect.entrySet()) {
        String key = e.getKey();
        State state = e.getValue();
        if (state.tag() == null) {
          states.remove(key);
        } else {
          states.put(key, state);
        }
        etags.remove(key);
        if (key.startsWith(ACCOUNTS + "/")) {
          history
              .computeIfAbsent(key, k -> new ArrayList<>())
              .add(state.tag() == null ? "-" : state.tag());
        }
      }
    }

    /** Sends requests until {@code stop} or the first one left without an answer. */
    void run(
        Endpoints at,
        Random random,
        AtomicBoolean stop,
        Counts counts,
        SharedCounters shared,
        Queue<String> violations) {
      while (!stop.get() && violations.isEmpty()) {
        int dice = random.nextInt(100);
        boolean answered;
        try {
          if (dice < 25) {
            answered = nativePut(at.nativeApi(), random, counts, violations);
          } else if (dice < 35) {
            answered = nativeDelete(at.nativeApi(), random, counts, violations);
          } else if (dice < 50) {
            answered = nativeBatch(at.nativeApi(), random, counts, violations);
          } else if (dice < 65) {
            answered = azureUpsert(at.azure(), random, counts, violations);
          } else if (dice < 78) {
            answered = azureBatch(at.azure(), random, counts, violations);
          } else {
            answered = shared.increment(at.nativeApi(), tag(), random, counts);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (!answered) {
          return;
        }
      }
    }

    private String tag() {
      return pk + "-" + seq++;
    }

    private String accountKey(int k) {
      return key(ACCOUNTS, pk, "k" + k);
    }

    private String email(int e) {
      return pk + "e" + e + "@campaign.test";
    }

    /** Emails of this writer's accounts, but the given keys'. */
    private Set<String> emailsInUse(Set<String> except) {
      Set<String> used = new HashSet<>();
      for (Map.Entry<String, State> e : states.entrySet()) {
        if (e.getValue().email() != null && !except.contains(e.getKey())) {
          used.add(e.getValue().email());
        }
      }
      return used;
    }

    /** An email no account of this writer holds: a view-key move when the key had another. */
    private String freeEmail(Random random, Set<String> used) {
      List<String> free = new ArrayList<>();
      for (int e = 0; e < EMAILS; e++) {
        if (!used.contains(email(e))) {
          free.add(email(e));
        }
      }
      return free.get(random.nextInt(free.size()));
    }

    /** The email of another of this writer's accounts (a unique-view conflict), or null. */
    private String takenEmail(Random random, String key) {
      List<String> taken = new ArrayList<>(emailsInUse(Set.of(key)));
      taken.sort(null);
      return taken.isEmpty() ? null : taken.get(random.nextInt(taken.size()));
    }

    /**
     * A native PUT of an account: upsert, or replace at the known ETag, or at a stale one (412), or
     * with another account's email (409 ViewKeyConflict).
     */
    private boolean nativePut(URI uri, Random random, Counts counts, Queue<String> violations)
        throws InterruptedException {
      String key = accountKey(random.nextInt(KEYS));
      State now = states.get(key);
      String conflict = random.nextInt(6) == 0 ? takenEmail(random, key) : null;
      String email =
          conflict != null
              ? conflict
              : now != null && random.nextBoolean()
                  ? now.email()
                  : freeEmail(random, emailsInUse(Set.of(key)));
      String tag = tag();
      List<String> headers = new ArrayList<>();
      int expected = conflict != null ? 409 : 200;
      String etag = etags.get(key);
      if (conflict == null && etag != null && random.nextInt(3) == 0) {
        String stale = otherEtag(key, etag);
        if (stale != null && random.nextInt(4) == 0) {
          headers.add("If-Match");
          headers.add(stale);
          expected = 412;
        } else {
          headers.add("If-Match");
          headers.add(etag);
        }
      } else if (conflict == null && now == null && random.nextBoolean()) {
        headers.add("If-None-Match");
        headers.add("*");
        expected = 201;
      }
      String body = "{\"email\":\"" + email + "\",\"tag\":\"" + tag + "\"}";
      Map<String, State> effect = Map.of(key, new State(tag, email));
      String what = "PUT " + key + " " + body + " " + headers;
      HttpResponse<String> r;
      try {
        r = CampaignHttp.send(uri, "PUT", path(key), body, headers.toArray(new String[0]));
      } catch (IOException cutOff) {
        return cutOff(expected < 300 ? effect : Map.of(), counts);
      }
      if (!judge(what, expected, r.statusCode(), r.body(), counts, violations)) {
        return true;
      }
      apply(effect);
      etags.put(key, ItemJson.readStored(CampaignHttp.utf8(r.body()), Limits.DEFAULT).etag());
      return true;
    }

    /** A native DELETE: at the known ETag (204), or of an absent account (404). */
    private boolean nativeDelete(URI uri, Random random, Counts counts, Queue<String> violations)
        throws InterruptedException {
      String key = accountKey(random.nextInt(KEYS));
      State now = states.get(key);
      String etag = etags.get(key);
      if (now != null && etag == null) {
        return true; // the ETag is not known (an Azure write made it): nothing to send
      }
      int expected = now == null ? 404 : 204;
      Map<String, State> effect = Map.of(key, State.ABSENT);
      String[] headers = etag == null ? new String[0] : new String[] {"If-Match", etag};
      HttpResponse<String> r;
      try {
        r = CampaignHttp.send(uri, "DELETE", path(key), "", headers);
      } catch (IOException cutOff) {
        return cutOff(now == null ? Map.of() : effect, counts);
      }
      if (judge("DELETE " + key, expected, r.statusCode(), r.body(), counts, violations)) {
        apply(effect);
      }
      return true;
    }

    /**
     * A native batch over two partitions of two tables (Accounts and Ledger), upserts keeping every
     * email unique; one in four carries a check that must fail, so the whole batch must be absent.
     */
    private boolean nativeBatch(URI uri, Random random, Counts counts, Queue<String> violations)
        throws InterruptedException {
      Map<String, State> effect = new LinkedHashMap<>();
      List<String> ops = new ArrayList<>();
      int accounts = 1 + random.nextInt(3);
      Set<String> touched = new HashSet<>();
      while (touched.size() < accounts) {
        touched.add(accountKey(random.nextInt(KEYS)));
      }
      Set<String> used = emailsInUse(Set.of()); // the touched accounts keep theirs
      for (String key : touched) {
        State now = states.get(key);
        String email = now != null ? now.email() : freeEmail(random, used);
        used.add(email);
        String tag = tag();
        effect.put(key, new State(tag, email));
        ops.add(upsertOp(key, "{\"email\":\"" + email + "\",\"tag\":\"" + tag + "\"}"));
      }
      String ledger = key(LEDGER, pk, "L" + random.nextInt(LEDGER_KEYS));
      String ledgerTag = tag();
      effect.put(ledger, new State(ledgerTag, null));
      ops.add(upsertOp(ledger, "{\"tag\":\"" + ledgerTag + "\"}"));
      int expected = 200;
      if (random.nextInt(4) == 0) {
        // Fails on purpose: a check that an existing account is absent (409), or a delete of an
        // absent one (404).
        String victim = accountKey(random.nextInt(KEYS));
        boolean exists = states.containsKey(victim) && !touched.contains(victim);
        boolean absent = !states.containsKey(victim) && !touched.contains(victim);
        if (exists || absent) {
          ops.add(random.nextInt(ops.size() + 1), failingOp(victim, exists));
          expected = exists ? 409 : 404;
        }
      }
      String body = "{\"operations\":[" + String.join(",", ops) + "]}";
      HttpResponse<String> r;
      try {
        r = CampaignHttp.send(uri, "POST", "/v1/batch", body);
      } catch (IOException cutOff) {
        return cutOff(expected == 200 ? effect : Map.of(), counts);
      }
      if (!judge("batch " + body, expected, r.statusCode(), r.body(), counts, violations)) {
        return true;
      }
      apply(effect);
      BatchResult result = BatchResultJson.read(CampaignHttp.utf8(r.body()), Limits.DEFAULT);
      int i = 0;
      for (String key : effect.keySet()) {
        Item item = result.items().get(i++);
        etags.put(key, item.etag());
      }
      return true;
    }

    /** An Azure upsert (insert-or-replace) of an account, sometimes with a taken email (409). */
    private boolean azureUpsert(
        TableClient azure, Random random, Counts counts, Queue<String> violations) {
      int k = random.nextInt(KEYS);
      String key = accountKey(k);
      State now = states.get(key);
      String conflict = random.nextInt(6) == 0 ? takenEmail(random, key) : null;
      String email =
          conflict != null
              ? conflict
              : now != null && random.nextBoolean()
                  ? now.email()
                  : freeEmail(random, emailsInUse(Set.of(key)));
      String tag = tag();
      TableEntity entity =
          new TableEntity(pk, "k" + k).addProperty("email", email).addProperty("tag", tag);
      Map<String, State> effect = Map.of(key, new State(tag, email));
      int expected = conflict != null ? 409 : 204;
      int status;
      String detail;
      try {
        status =
            azure
                .upsertEntityWithResponse(entity, TableEntityUpdateMode.REPLACE, null, Context.NONE)
                .getStatusCode();
        detail = "";
      } catch (TableServiceException refused) {
        status = refused.getResponse().getStatusCode();
        detail = refused.getMessage();
      } catch (RuntimeException cutOff) {
        return cutOff(conflict == null ? effect : Map.of(), counts);
      }
      if (judge(
          "Azure upsert " + key + " " + email, expected, status, detail, counts, violations)) {
        apply(effect);
      }
      return true;
    }

    /**
     * An Azure {@code $batch} of two or three accounts of this writer's partition; one in three
     * adds a merge into an absent account, so the whole transaction must fail and be absent.
     */
    private boolean azureBatch(
        TableClient azure, Random random, Counts counts, Queue<String> violations) {
      Map<String, State> effect = new LinkedHashMap<>();
      List<TableTransactionAction> actions = new ArrayList<>();
      Set<Integer> ks = new HashSet<>();
      int size = 2 + random.nextInt(2);
      while (ks.size() < size) {
        ks.add(random.nextInt(KEYS));
      }
      Set<String> touched = new HashSet<>();
      for (int k : ks) {
        touched.add(accountKey(k));
      }
      Set<String> used = emailsInUse(Set.of()); // the touched accounts keep theirs
      for (int k : ks) {
        String key = accountKey(k);
        State now = states.get(key);
        String email = now != null ? now.email() : freeEmail(random, used);
        used.add(email);
        String tag = tag();
        effect.put(key, new State(tag, email));
        actions.add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE,
                new TableEntity(pk, "k" + k).addProperty("email", email).addProperty("tag", tag)));
      }
      boolean fail = false;
      if (random.nextInt(3) == 0) {
        for (int k = 0; k < KEYS && !fail; k++) {
          if (!ks.contains(k) && !states.containsKey(accountKey(k))) {
            actions.add(
                random.nextInt(actions.size() + 1),
                new TableTransactionAction(
                    TableTransactionActionType.UPDATE_MERGE,
                    new TableEntity(pk, "k" + k).addProperty("tag", tag())));
            fail = true;
          }
        }
      }
      String what = "Azure $batch " + effect.keySet() + (fail ? " + a merge into an absent" : "");
      try {
        azure.submitTransaction(actions);
      } catch (TableTransactionFailedException refused) {
        if (fail) {
          counts.operations.incrementAndGet();
          counts.refused.incrementAndGet();
        } else {
          judge(what, 202, -1, refused.getMessage(), counts, violations);
        }
        return true;
      } catch (TableServiceException refused) {
        judge(
            what, fail ? 404 : 202, refused.getResponse().getStatusCode(), "", counts, violations);
        return true;
      } catch (RuntimeException cutOff) {
        return cutOff(fail ? Map.of() : effect, counts);
      }
      if (judge(what, fail ? 404 : 202, 202, "", counts, violations)) {
        apply(effect);
      }
      return true;
    }

    /**
     * Another key's ETag that is not this one's: keys written by one batch share their commit's
     * ETag.
     */
    private String otherEtag(String key, String etag) {
      for (Map.Entry<String, String> e : etags.entrySet()) {
        if (!e.getKey().equals(key) && !e.getValue().equals(etag)) {
          return e.getValue();
        }
      }
      return null;
    }

    /** Counts the answer; false (and a violation) when it is not the predicted one. */
    private static boolean judge(
        String what,
        int expected,
        int status,
        String body,
        Counts counts,
        Queue<String> violations) {
      counts.operations.incrementAndGet();
      if (status != expected) {
        violations.add(what + ": expected " + expected + ", answered " + status + " " + body);
        return false;
      }
      if (status >= 200 && status < 300) {
        counts.acknowledged.incrementAndGet();
        return true;
      }
      counts.refused.incrementAndGet();
      return false;
    }

    private boolean cutOff(Map<String, State> effect, Counts counts) {
      counts.operations.incrementAndGet();
      counts.unknown.incrementAndGet();
      pending = effect;
      return false;
    }

    private static String path(String key) {
      String[] parts = key.split("/");
      return "/v1/tables/" + parts[0] + "/items/" + parts[1] + "/" + parts[2];
    }

    private static String upsertOp(String key, String item) {
      String[] parts = key.split("/");
      return "{\"op\":\"upsert\",\"table\":\"%s\",\"partitionKey\":\"%s\",\"id\":\"%s\",\"item\":%s}"
          .formatted(parts[0], parts[1], parts[2], item);
    }

    private static String failingOp(String key, boolean exists) {
      String[] parts = key.split("/");
      return "{\"op\":\"%s\",\"table\":\"%s\",\"partitionKey\":\"%s\",\"id\":\"%s\"}"
          .formatted(exists ? "check" : "delete", parts[0], parts[1], parts[2]);
    }
  }

  /**
   * Counters every writer increments with If-Match (read, then replace at that ETag with n + 1): of
   * two increments from the same version only one may be acknowledged, so an acknowledged n names
   * exactly one write. After a restart a counter shows its highest acknowledged n or a later one
   * cut off by the kill.
   */
  static final class SharedCounters {
    /** Counter id to n to the tag of the acknowledged write that set it. */
    final Map<String, Map<Long, String>> acknowledged = new ConcurrentHashMap<>();

    /** Counter id to n to tags of writes cut off by the kill. */
    final Map<String, Map<Long, Set<String>>> unknown = new ConcurrentHashMap<>();

    final Queue<String> violations;

    SharedCounters(Queue<String> violations) {
      this.violations = violations;
    }

    /** One increment; false when a request went unanswered. */
    boolean increment(URI uri, String tag, Random random, Counts counts)
        throws InterruptedException {
      String id = "s" + random.nextInt(SHARED_KEYS);
      String path = "/v1/tables/" + LEDGER + "/items/" + SHARED + "/" + id;
      HttpResponse<String> read;
      try {
        read = CampaignHttp.send(uri, "GET", path, "");
      } catch (IOException cutOff) {
        return false; // a read: nothing to account for
      }
      long n;
      String[] condition;
      if (read.statusCode() == 200) {
        Item item = ItemJson.readStored(CampaignHttp.utf8(read.body()), Limits.DEFAULT);
        n = CampaignHttp.number(item, "n") + 1;
        condition = new String[] {"If-Match", item.etag()};
      } else if (read.statusCode() == 404) {
        n = 1;
        condition = new String[] {"If-None-Match", "*"};
      } else {
        violations.add("GET " + path + ": " + read.statusCode() + " " + read.body());
        return false;
      }
      String body = "{\"n\":" + n + ",\"tag\":\"" + tag + "\"}";
      HttpResponse<String> r;
      counts.operations.incrementAndGet();
      try {
        r = CampaignHttp.send(uri, "PUT", path, body, condition);
      } catch (IOException cutOff) {
        counts.unknown.incrementAndGet();
        unknown
            .computeIfAbsent(id, k -> new ConcurrentHashMap<>())
            .computeIfAbsent(n, k -> ConcurrentHashMap.newKeySet())
            .add(tag);
        return false;
      }
      int status = r.statusCode();
      if (status == 200 || status == 201) {
        counts.acknowledged.incrementAndGet();
        String before =
            acknowledged.computeIfAbsent(id, k -> new ConcurrentHashMap<>()).putIfAbsent(n, tag);
        if (before != null) {
          violations.add(
              "counter "
                  + id
                  + ": two acknowledged writes set n="
                  + n
                  + ": "
                  + before
                  + ", "
                  + tag);
        }
      } else if (status == 412 || status == 409) {
        counts.refused.incrementAndGet(); // another writer came first
      } else {
        violations.add("PUT " + path + " " + body + ": " + status + " " + r.body());
      }
      return true;
    }
  }

  /**
   * The client that creates and drops {@link #COPY} mid-load. Whether the view exists: TRUE or
   * FALSE as the last acknowledged request left it, null when the last request went unanswered.
   */
  static final class ViewAdmin {
    Boolean exists = Boolean.FALSE;

    /** One create or drop; the server may die under it. */
    void act(URI uri, Counts counts, Queue<String> violations) throws InterruptedException {
      boolean create = !Boolean.TRUE.equals(exists);
      counts.operations.incrementAndGet();
      HttpResponse<String> r;
      try {
        r =
            create
                ? CampaignHttp.send(uri, "PUT", "/v1/views/" + COPY, COPY_DEFINITION)
                : CampaignHttp.send(uri, "DELETE", "/v1/views/" + COPY, "");
      } catch (IOException cutOff) {
        counts.unknown.incrementAndGet();
        exists = null;
        return;
      }
      int status = r.statusCode();
      if (create && (status == 201 || status == 202)) {
        counts.acknowledged.incrementAndGet();
        exists = Boolean.TRUE;
      } else if (!create && status == 204) {
        counts.acknowledged.incrementAndGet();
        exists = Boolean.FALSE;
      } else {
        violations.add((create ? "create " : "drop ") + COPY + ": " + status + " " + r.body());
      }
    }
  }

  /** A queue for violations, shared by every client of a campaign. */
  static Queue<String> violations() {
    return new ConcurrentLinkedQueue<>();
  }
}
