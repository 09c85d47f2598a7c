package io.viewbase.server.azure;

import java.time.Instant;

/**
 * A stored access policy of a table: a {@code SignedIdentifier} that a service SAS names with
 * {@code si} to take its start, expiry and permissions from the server instead of the token.
 *
 * @param id the identifier, at most 64 characters
 * @param start when it becomes valid, or null
 * @param expiry when it stops being valid, or null
 * @param permissions the {@code raud} letters it grants, or null
 */
record AccessPolicy(String id, Instant start, Instant expiry, String permissions) {}
