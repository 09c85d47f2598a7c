package io.viewbase.server;

import io.viewbase.api.Stability;

/**
 * Passed down the pipeline in place of a request whose body exceeds the limit, so that its 413
 * answer takes its turn behind earlier requests of the same connection.
 *
 * @param keepAlive whether the connection can go on: never, since {@link BodyLimit} reads no more
 *     of a body over the limit (the answer says {@code Connection: close})
 */
@Stability(Stability.Level.INTERNAL)
public record OversizedRequest(boolean keepAlive) {}
