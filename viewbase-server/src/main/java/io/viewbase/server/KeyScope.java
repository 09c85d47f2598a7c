package io.viewbase.server;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Stability;
import io.viewbase.api.ViewbaseException;
import java.util.Locale;

/**
 * What an API key of the native API may do. Each scope includes the one above it:
 *
 * <pre>
 * scope | may                                                              | tables
 * ------+------------------------------------------------------------------+------------------
 * read  | GET items, queries, change feeds, table and view descriptions,   | all, or a list
 *       |   the table list (its own tables only, for a list), /metrics     |
 * write | read, and PUT/PATCH/DELETE of items and batches on its tables    | all, or a list
 * admin | everything: create, alter, drop tables and views, verify, expire, | all (no list)
 *       |   keys, and every route under /v1/admin/                         |
 * </pre>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum KeyScope {
  READ,
  WRITE,
  ADMIN;

  /** Whether a key of this scope may do what {@code needed} allows. */
  public boolean covers(KeyScope needed) {
    return compareTo(needed) >= 0;
  }

  /**
   * The scope's name on the wire and on the command line: {@code read}, {@code write}, {@code
   * admin}.
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The scope a wire name names; InvalidInput for any other text. */
  public static KeyScope ofWireName(String name) {
    for (KeyScope scope : values()) {
      if (scope.wireName().equals(name)) {
        return scope;
      }
    }
    throw ViewbaseException.of(
        ErrorCode.InvalidInput, "A key's scope is read, write or admin", "scope", name);
  }
}
