package io.viewbase.core;

/**
 * A write read a version newer than the one it was about to issue: the item was written by another
 * server, on a shared store, whose clock is ahead of this one. The version clock has caught up by
 * then; the writer decides again with a fresh version, so a version always exceeds the one it
 * replaces and an ETag never comes back. Control flow only: no stack trace, one instance.
 */
final class ClockBehind extends RuntimeException {
  static final ClockBehind INSTANCE = new ClockBehind();

  private ClockBehind() {
    super("the item's version is ahead of this server's clock", null, false, false);
  }
}
