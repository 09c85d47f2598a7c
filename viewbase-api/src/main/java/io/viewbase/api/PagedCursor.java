package io.viewbase.api;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Iterates every item of a query by fetching one page at a time through the table's own {@link
 * Table#query}; it holds at most one page and no storage resources between pages, so an abandoned
 * cursor leaks nothing. Works over any {@link Table}, embedded or remote.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class PagedCursor implements ItemCursor {
  private final Table table;
  private Query next;
  private Iterator<Item> current = java.util.Collections.emptyIterator();
  private boolean closed;

  public PagedCursor(Table table, Query query) {
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
    current = java.util.Collections.emptyIterator();
  }
}
