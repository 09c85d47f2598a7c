package io.viewbase.core;

import io.viewbase.api.Item;
import io.viewbase.api.ItemCursor;
import io.viewbase.api.Page;
import io.viewbase.api.Query;
import io.viewbase.api.Table;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Iterates every item of a query by fetching one page at a time through the table's own
 * {@link Table#query}; it holds at most one page and no storage resources between pages, so an
 * abandoned cursor leaks nothing. Works over any {@link Table}, embedded or remote.
 */
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
  }
}
