package io.viewbase.core;

/**
 * What the catalog stores under a name in its {@code tables} partition: a table, or a view (which
 * is a table of its own, with a definition and a build state). {@link CatalogCodec} turns each into
 * its stored bytes and back.
 */
sealed interface CatalogRecord permits TableRecord, ViewRecord {
  /** The name, id and creation time: what every entry of the catalog has. */
  TableRecord table();
}
