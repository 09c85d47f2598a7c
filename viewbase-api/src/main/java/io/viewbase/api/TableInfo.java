package io.viewbase.api;

import java.time.Instant;

/**
 * What the catalog knows of a table or view.
 *
 * @param name the name with the case given at creation
 * @param kind {@code table} or {@code view}
 * @param source for a view, its source table; null for a table
 * @param state {@code ready} for tables; a view's build state ({@code building}, {@code ready},
 *     {@code failed})
 * @param created when it was created
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record TableInfo(String name, String kind, String source, String state, Instant created) {
  public static final String TABLE = "table";
  public static final String VIEW = "view";
}
