/**
 * The Viewbase HTTP server: the native JSON API v1 over any {@link io.viewbase.api.Database}.
 * {@link io.viewbase.server.NativeApi} translates requests into database calls as plain code;
 * {@link io.viewbase.server.ViewbaseServer} is the thin Netty adapter around it.
 */
package io.viewbase.server;
