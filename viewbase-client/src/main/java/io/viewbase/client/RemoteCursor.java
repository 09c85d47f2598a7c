package io.viewbase.client;

import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Every item of a query, fetched a page per request as iteration reaches the end of the last one.
 * It holds one page and no connection between requests, so an abandoned cursor costs nothing.
 */
final class RemoteCursor implements ItemCursor {
  private final Table table;
  private Query next;
  private Iterator<Item> current = Collections.emptyIterator();
  private boolean closed;

  RemoteCursor(Table table, Query query) {
    this.table = table;
    this.next = query;
  }

  @Override
  public boolean hasNext() {
    // A page may come back empty with a continuation (a filter that matched nothing in its span).
    while (!closed && !current.hasNext() && next != null) {
      Page page = table.query(next);
      current = page.items().iterator();
      next = page.continuation() == null ? null : next.withContinuation(page.continuation());
    }
    return !closed && current.hasNext();
  }

  @Override
  public Item next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.next();
  }

  @Override
  public void close() {
    closed = true;
    next = null;
    current = Collections.emptyIterator();
  }
}
