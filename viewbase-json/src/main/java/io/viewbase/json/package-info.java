/**
 * Items, pages, table descriptions, view definitions and status, verify reports and errors as JSON,
 * read and written with Jackson's streaming API. Typed values that JSON lacks (int64 beyond 2^53,
 * datetime, guid, binary, non-finite doubles) carry Azure-style {@code "name@odata.type"}
 * annotations, so every {@link io.viewbase.api.Value} survives a round trip. Shared by the server,
 * the client and the CLI.
 */
package io.viewbase.json;
