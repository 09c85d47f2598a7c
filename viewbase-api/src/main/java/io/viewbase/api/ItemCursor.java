package io.viewbase.api;

import java.util.Iterator;

/**
 * Every item a query matches, fetched a page at a time as it is iterated. It may hold native
 * resources (a storage iterator, a connection): close it, with try-with-resources.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public interface ItemCursor extends Iterator<Item>, AutoCloseable {
  @Override
  void close();
}
