package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paging is stable under concurrent writes: while a writer inserts and deletes other items, a query
 * paged to the end returns no item twice and every item that existed throughout.
 */
class PagingUnderWritesTest {
  @TempDir Path dir;

  @Test
  void pagesReturnNoItemTwiceAndSkipNoneThatExistedThroughout() throws Exception {
    try (Database db = Viewbase.open(OpenOptions.at(dir).withSync(false))) {
      db.createTable("Things");
      Table things = db.table("Things");
      Set<String> stable = new HashSet<>();
      for (int i = 0; i < 3000; i++) {
        String pk = "p" + (i % 7);
        String id = String.format("s%05d", i);
        things.insert(Item.builder(pk, id).put("n", i).put("kind", "stable").build());
        stable.add(pk + "/" + id);
      }
      AtomicBoolean running = new AtomicBoolean(true);
      Thread writer =
          new Thread(
              () -> {
                Random random = new Random(7);
                while (running.get()) {
                  String pk = "p" + random.nextInt(9);
                  String id = String.format("v%05d", random.nextInt(4000));
                  if (random.nextBoolean()) {
                    things.upsert(
                        Item.builder(pk, id).put("n", -1).put("kind", "volatile").build());
                  } else {
                    try {
                      things.delete(pk, id, null);
                    } catch (RuntimeException absent) {
                      // deleting an item that is not there: fine for this writer
                    }
                  }
                }
              });
      writer.start();
      try {
        for (String filter :
            new String[] {null, "kind eq 'stable' or n lt 0", "PartitionKey ge 'p2'"}) {
          List<String> seen = new ArrayList<>();
          Query q = Query.all().withFilter(filter).withLimit(97);
          for (int pages = 0; pages < 10_000; pages++) {
            Page page = things.query(q);
            page.items().forEach(i -> seen.add(i.partitionKey() + "/" + i.id()));
            if (!page.hasMore()) {
              break;
            }
            q = q.withContinuation(page.continuation());
          }
          assertThat(seen).as("filter %s", filter).doesNotHaveDuplicates();
          Set<String> expected = new HashSet<>(stable);
          if (filter != null && filter.startsWith("PartitionKey")) {
            expected.removeIf(k -> k.compareTo("p2") < 0);
          }
          assertThat(seen).as("filter %s", filter).containsAll(expected);
        }
      } finally {
        running.set(false);
        writer.join();
      }
    }
  }
}
