package io.viewbase.server;

import io.viewbase.api.Stability;
import java.time.Instant;
import java.util.List;

/**
 * An API key of the native API as the catalog keeps it: never its secret, only the secret's
 * SHA-256. The key a client sends is {@code vb_<id>_<secret>} ({@link ApiKeys}).
 *
 * @param id 12 lowercase hex digits, unique among the keys; logs may name it
 * @param secretSha256 the SHA-256 of the secret's ASCII bytes, 32 bytes; null in what a listing
 *     answers
 * @param name what the key is for, as its creator said (may be empty)
 * @param scope what it may do
 * @param tables the tables and views it may reach (compared case-insensitively); empty: all
 * @param created when it was made, to the second
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record ApiKey(
    String id,
    byte[] secretSha256,
    String name,
    KeyScope scope,
    List<String> tables,
    Instant created) {
  public ApiKey {
    tables = List.copyOf(tables);
  }

  /** Whether the key reaches this table or view: it lists none (all tables), or this one. */
  public boolean reaches(String table) {
    if (tables.isEmpty()) {
      return true;
    }
    for (String t : tables) {
      if (t.equalsIgnoreCase(table)) {
        return true;
      }
    }
    return false;
  }

  /** The key as a listing shows it: without the hash of its secret. */
  public ApiKey withoutSecret() {
    return new ApiKey(id, null, name, scope, tables, created);
  }

  /** Without the hash, which is a secret's digest and no business of a log. */
  @Override
  public String toString() {
    return "ApiKey[" + id + ", " + scope.wireName() + ", tables " + tables + "]";
  }
}
