/**
 * The Java client of a Viewbase server: {@link io.viewbase.client.RemoteDatabase} implements the
 * same {@link io.viewbase.api.Database} interface as the embedded engine over the native HTTP API
 * v1, so code moves from embedded to remote unchanged.
 */
package io.viewbase.client;
