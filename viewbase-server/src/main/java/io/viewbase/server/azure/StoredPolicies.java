package io.viewbase.server.azure;

import java.util.Optional;

/**
 * Finds a table's stored access policy by its identifier, for SAS tokens that name one ({@code
 * si}).
 */
@FunctionalInterface
interface StoredPolicies {
  Optional<AccessPolicy> find(String table, String id);
}
