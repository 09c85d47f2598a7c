package io.viewbase.entity;

import io.viewbase.api.Item;
import io.viewbase.api.Stability;

/**
 * An entity item as stored: its value, its ETag (for conditional writes), and the raw item.
 *
 * @param value the item as the caller's type
 * @param etag its current ETag
 * @param item the stored item, with its keys and every stored field
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record Stored<T>(T value, String etag, Item item) {}
