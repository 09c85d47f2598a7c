package io.viewbase.server;

/**
 * Passed down the pipeline in place of a request whose body exceeds the limit, so that its 413
 * answer takes its turn behind earlier requests of the same connection.
 *
 * @param keepAlive whether the connection can go on (the rest of the body is being discarded)
 */
public record OversizedRequest(boolean keepAlive) {
}
