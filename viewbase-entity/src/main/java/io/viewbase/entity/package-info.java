/**
 * Typed entities over a Viewbase table, in the style of ElectroDB: a {@link
 * io.viewbase.entity.Service} of {@link io.viewbase.entity.Entity entities} with composite keys,
 * partition namespaces, collections and unique indexes, where every secondary index is a view the
 * database derives from the whole stored item. Works over any {@link io.viewbase.api.Database},
 * embedded or remote. See docs/entities.md.
 */
package io.viewbase.entity;
