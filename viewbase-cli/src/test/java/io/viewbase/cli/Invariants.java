package io.viewbase.cli;

import static io.viewbase.cli.CampaignWorkload.ACCOUNTS;
import static io.viewbase.cli.CampaignWorkload.BY_EMAIL;
import static io.viewbase.cli.CampaignWorkload.COPY;
import static io.viewbase.cli.CampaignWorkload.LEDGER;
import static io.viewbase.cli.CampaignWorkload.SHARED;

import io.viewbase.api.Change;
import io.viewbase.api.ChangePage;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.cli.CampaignWorkload.SharedCounters;
import io.viewbase.cli.CampaignWorkload.State;
import io.viewbase.cli.CampaignWorkload.ViewAdmin;
import io.viewbase.cli.CampaignWorkload.Writer;
import io.viewbase.json.ChangeJson;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What must hold after every restart of the crash campaign, checked against the clients' models:
 *
 * <pre>
 * invariant                                   how
 * acknowledged writes present, or superseded  each writer's keys equal its model, or its model
 *   by a later acknowledged one; nothing        with the whole effect of the one request the kill
 *   visible that no write explains; no batch    cut off; no item outside the writers' keys
 *   half visible
 * conditional counters                        n at least the highest acknowledged n; its tag the
 *                                             acknowledged (or cut-off) write of that n
 * every view equal to its recomputation       verify reports no drift, and the view read item by
 *                                             item equals the one recomputed here from a scan
 * a view created or dropped mid-load          absent, or building and then ready and correct, as
 *                                             the last acknowledged request allows; never failed
 * the change feed consistent with the data    dense sequences; each key's entries are exactly
 *                                             its writer's effects, in order; their replay is the
 *                                             table
 * </pre>
 *
 * Once checked, the cut-off requests are resolved (the models take what the server shows), so the
 * next cycle goes on from exact models. The feed is read incrementally: its replay is kept here.
 */
final class Invariants {
  private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"(\\w+)\"");
  private static final Pattern DRIFT = Pattern.compile("\"drift\"\\s*:\\s*(\\d+)");
  private static final Duration VIEW_READY_TIMEOUT = Duration.ofSeconds(60);

  private final Queue<String> violations;
  private long feedPosition;
  private final Map<String, List<String>> feedHistory = new HashMap<>();
  private final Map<String, String> replay = new HashMap<>();
  private long lost;

  Invariants(Queue<String> violations) {
    this.violations = violations;
  }

  /** Acknowledged writes (keys whose acknowledged state) found missing so far: must stay 0. */
  long lost() {
    return lost;
  }

  /** Checks everything against the server at {@code uri}; violations go to the queue. */
  void check(URI uri, List<Writer> writers, SharedCounters shared, ViewAdmin admin)
      throws Exception {
    List<Item> accounts = CampaignHttp.scan(uri, ACCOUNTS);
    List<Item> ledger = CampaignHttp.scan(uri, LEDGER);
    Map<String, Map<String, State>> observed = new TreeMap<>();
    Map<String, String> etags = new HashMap<>();
    Map<String, Item> counters = new HashMap<>();
    for (Item item : accounts) {
      String key = CampaignWorkload.key(ACCOUNTS, item.partitionKey(), item.id());
      observed
          .computeIfAbsent(item.partitionKey(), k -> new TreeMap<>())
          .put(key, new State(CampaignHttp.text(item, "tag"), CampaignHttp.text(item, "email")));
      etags.put(key, item.etag());
    }
    for (Item item : ledger) {
      if (item.partitionKey().equals(SHARED)) {
        counters.put(item.id(), item);
        continue;
      }
      String key = CampaignWorkload.key(LEDGER, item.partitionKey(), item.id());
      observed
          .computeIfAbsent(item.partitionKey(), k -> new TreeMap<>())
          .put(key, new State(CampaignHttp.text(item, "tag"), null));
      etags.put(key, item.etag());
    }
    for (Writer writer : writers) {
      checkWriter(writer, observed.getOrDefault(writer.pk, Map.of()), etags);
      observed.remove(writer.pk);
    }
    if (!observed.isEmpty()) {
      violations.add("items no write explains: " + observed);
    }
    checkCounters(shared, counters);
    checkFeed(uri, writers, accounts);
    Map<String, String> byEmail = recomputeByEmail(accounts);
    checkView(uri, BY_EMAIL, byEmail, true);
    checkCopy(uri, admin, accounts);
  }

  private void checkWriter(Writer writer, Map<String, State> seen, Map<String, String> etags) {
    Map<String, State> model = new TreeMap<>(writer.states);
    if (!seen.equals(model)) {
      Map<String, State> withPending = null;
      if (writer.pending != null) {
        withPending = new TreeMap<>(model);
        for (Map.Entry<String, State> e : writer.pending.entrySet()) {
          if (e.getValue().tag() == null) {
            withPending.remove(e.getKey());
          } else {
            withPending.put(e.getKey(), e.getValue());
          }
        }
      }
      if (withPending != null && seen.equals(withPending)) {
        writer.apply(writer.pending); // the cut-off request had landed, whole
      } else {
        for (Map.Entry<String, State> e : model.entrySet()) {
          if (!e.getValue().equals(seen.get(e.getKey()))
              && (writer.pending == null || !writer.pending.containsKey(e.getKey()))) {
            lost++;
          }
        }
        violations.add(
            "writer "
                + writer.pk
                + ": the server shows "
                + seen
                + "\n  the model is "
                + model
                + "\n  the request cut off would make it "
                + withPending);
      }
    }
    writer.pending = null;
    writer.etags.clear();
    for (String key : writer.states.keySet()) {
      writer.etags.put(key, etags.get(key));
    }
  }

  private void checkCounters(SharedCounters shared, Map<String, Item> counters) {
    Set<String> ids = new TreeSet<>(shared.acknowledged.keySet());
    ids.addAll(shared.unknown.keySet());
    ids.addAll(counters.keySet());
    for (String id : ids) {
      Map<Long, String> acked = shared.acknowledged.getOrDefault(id, Map.of());
      long highest = acked.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
      Item item = counters.get(id);
      if (item == null) {
        if (highest > 0) {
          lost++;
          violations.add("counter " + id + ": gone; acknowledged up to n=" + highest);
        }
        continue;
      }
      long n = CampaignHttp.number(item, "n");
      String tag = CampaignHttp.text(item, "tag");
      Set<String> cutOff = shared.unknown.getOrDefault(id, Map.of()).getOrDefault(n, Set.of());
      if (n < highest) {
        lost++;
        violations.add("counter " + id + ": n=" + n + ", but n=" + highest + " was acknowledged");
      } else if (acked.containsKey(n) ? !acked.get(n).equals(tag) : !cutOff.contains(tag)) {
        violations.add(
            "counter " + id + ": n=" + n + " by " + tag + ", which no write explains: " + acked);
      } else if (!acked.containsKey(n)) {
        shared
            .acknowledged
            .computeIfAbsent(id, k -> new java.util.concurrent.ConcurrentHashMap<>())
            .put(n, tag);
      }
    }
    shared.unknown.clear();
  }

  private void checkFeed(URI uri, List<Writer> writers, List<Item> accounts) throws Exception {
    long latest;
    do {
      HttpResponse<String> r =
          CampaignHttp.send(
              uri,
              "GET",
              "/v1/tables/" + ACCOUNTS + "/changes?limit=1000&after=" + feedPosition,
              "");
      if (r.statusCode() != 200) {
        violations.add("change feed after " + feedPosition + ": " + r.statusCode() + r.body());
        return;
      }
      ChangePage page = ChangeJson.readPage(CampaignHttp.utf8(r.body()), Limits.DEFAULT);
      latest = page.latest();
      for (Change c : page.changes()) {
        if (c.sequence() != feedPosition + 1
            || c.transaction() > c.sequence()
            || c.sequence() >= c.transaction() + c.transactionSize()) {
          violations.add("feed entry " + c + " after " + feedPosition);
        }
        feedPosition = c.sequence();
        String key = CampaignWorkload.key(ACCOUNTS, c.partitionKey(), c.id());
        String tag = c.item() == null ? null : CampaignHttp.text(c.item(), "tag");
        feedHistory.computeIfAbsent(key, k -> new ArrayList<>()).add(tag == null ? "-" : tag);
        if (tag == null) {
          replay.remove(key);
        } else {
          replay.put(key, tag);
        }
      }
      if (page.changes().isEmpty()) {
        break;
      }
    } while (feedPosition < latest);
    if (feedPosition != latest) {
      violations.add("change feed: read up to " + feedPosition + ", latest " + latest);
    }
    Map<String, List<String>> expected = new TreeMap<>();
    for (Writer writer : writers) {
      expected.putAll(writer.history);
    }
    if (!new TreeMap<>(feedHistory).equals(expected)) {
      for (String key : new TreeSet<>(union(expected.keySet(), feedHistory.keySet()))) {
        List<String> want = expected.getOrDefault(key, List.of());
        List<String> got = feedHistory.getOrDefault(key, List.of());
        if (!want.equals(got)) {
          violations.add("feed of " + key + ": entries " + got + ", writes " + want);
        }
      }
    }
    Map<String, String> table = new HashMap<>();
    for (Item item : accounts) {
      table.put(
          CampaignWorkload.key(ACCOUNTS, item.partitionKey(), item.id()),
          CampaignHttp.text(item, "tag"));
    }
    if (!table.equals(replay)) {
      violations.add("the feed's replay " + new TreeMap<>(replay) + " is not the table " + table);
    }
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> all = new TreeSet<>(a);
    all.addAll(b);
    return all;
  }

  /** The unique view recomputed: email to "source pk/id@tag"; a duplicate email is a violation. */
  private Map<String, String> recomputeByEmail(List<Item> accounts) {
    Map<String, String> view = new TreeMap<>();
    for (Item item : accounts) {
      String email = CampaignHttp.text(item, "email");
      String entry = item.partitionKey() + "/" + item.id() + "@" + CampaignHttp.text(item, "tag");
      String before = view.put(email, entry);
      if (before != null) {
        violations.add("unique email " + email + " held by " + before + " and " + entry);
      }
    }
    return view;
  }

  /**
   * Awaits the view ready, has the server verify it (no drift) and compares it with {@code
   * recomputed}; false when the view does not exist (a violation if {@code required}).
   */
  private boolean checkView(URI uri, String view, Map<String, String> recomputed, boolean required)
      throws Exception {
    long deadline = System.nanoTime() + VIEW_READY_TIMEOUT.toNanos();
    while (true) {
      HttpResponse<String> status = CampaignHttp.send(uri, "GET", "/v1/views/" + view, "");
      if (status.statusCode() == 404 && !required) {
        return false;
      }
      Matcher state = STATE.matcher(status.body());
      if (status.statusCode() != 200 || !state.find()) {
        violations.add("view " + view + ": " + status.statusCode() + " " + status.body());
        return true;
      }
      if (state.group(1).equals("ready")) {
        break;
      }
      if (!state.group(1).equals("building") || System.nanoTime() > deadline) {
        violations.add("view " + view + " is not ready: " + status.body());
        return true;
      }
      Thread.sleep(20);
    }
    HttpResponse<String> report =
        CampaignHttp.send(uri, "POST", "/v1/views/" + view + "/verify", "");
    Matcher drift = DRIFT.matcher(report.body());
    if (report.statusCode() != 200 || !drift.find() || !drift.group(1).equals("0")) {
      violations.add("verify " + view + ": " + report.statusCode() + " " + report.body());
    }
    Map<String, String> read = new TreeMap<>();
    for (Item entry : CampaignHttp.scan(uri, view)) {
      String key = view.equals(BY_EMAIL) ? entry.id() : entry.partitionKey() + "/" + entry.id();
      String value =
          view.equals(BY_EMAIL) ? entry.sourcePartitionKey() + "/" + entry.sourceId() + "@" : "";
      read.put(key, value + CampaignHttp.text(entry, "tag"));
    }
    if (!read.equals(recomputed)) {
      violations.add("view " + view + " reads " + read + "\n  recomputed " + recomputed);
    }
    return true;
  }

  private void checkCopy(URI uri, ViewAdmin admin, List<Item> accounts) throws Exception {
    Map<String, String> copy = new TreeMap<>();
    for (Item item : accounts) {
      copy.put(item.partitionKey() + "/" + item.id(), CampaignHttp.text(item, "tag"));
    }
    boolean exists = checkView(uri, COPY, copy, false);
    if (admin.exists != null && admin.exists != exists) {
      violations.add(
          "view "
              + COPY
              + (exists ? " exists, but its drop" : " is gone, but its creation")
              + " was acknowledged");
    }
    admin.exists = exists;
  }
}
