package io.viewbase.core;

/** The write operations of {@link io.viewbase.api.Table}, as the write path decides them. */
enum WriteKind {
  INSERT,
  REPLACE,
  UPSERT,
  MERGE,
  UPSERT_MERGE,
  DELETE
}
