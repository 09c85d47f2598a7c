package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.Query;
import java.util.List;
import java.util.function.Function;

/**
 * The request-path fuzz targets' contract for one input, whatever carries the request (a socket or
 * an in-process connection): every answer below 500 (501 NotImplemented, documented, aside), and a
 * refused request (every answer 4xx) leaves the checked table's items as they were. Public for the
 * dialects' targets in their own packages.
 */
public final class RequestContract {
  private RequestContract() {}

  /**
   * Checks one request against {@code table}, made again by {@code seed} first when an accepted
   * input dropped it (a DELETE of the table is a valid request).
   */
  public static void check(
      Database db,
      String table,
      Runnable seed,
      byte[] request,
      Function<byte[], List<Integer>> exchange) {
    if (db.listTables().stream().noneMatch(t -> t.name().equals(table))) {
      seed.run();
    }
    List<Item> before = db.table(table).query(Query.all()).items();
    List<Integer> statuses = exchange.apply(request);
    for (int status : statuses) {
      assertThat(status < 500 || status == 501).as("statuses %s", statuses).isTrue();
    }
    if (!statuses.isEmpty() && statuses.stream().allMatch(s -> s >= 400)) {
      assertThat(db.table(table).query(Query.all()).items())
          .as(table + " after a refused request")
          .isEqualTo(before);
    }
  }
}
