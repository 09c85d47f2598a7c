package io.viewbase.storage.rocksdb;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The versions of recently written or checked keys, so that a conditional commit need not read
 * RocksDB to learn them. Exact, not a guess: every write to the database goes through the group
 * commit leader, which is the only user of this cache, and the leader records each key's version
 * after the write that set it. Bounded: the least recently used keys are forgotten, and a key that
 * is not here is read from RocksDB (and remembered).
 *
 * <p>Not thread-safe: only the current leader touches it, and leadership passes under a lock, which
 * orders one leader's updates before the next leader's reads.
 */
final class VersionCache {
  /** What the cache answers for a key it knows to be absent (versions are positive). */
  static final long ABSENT = Long.MIN_VALUE;

  private final LinkedHashMap<ByteBuffer, Long> entries;

  VersionCache(int capacity) {
    this.entries =
        new LinkedHashMap<>(capacity * 4 / 3 + 1, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<ByteBuffer, Long> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The key's version, {@link #ABSENT}, or null when the cache does not know. */
  Long get(byte[] key) {
    return entries.get(ByteBuffer.wrap(key));
  }

  void put(byte[] key, long version) {
    entries.put(ByteBuffer.wrap(key), version);
  }

  /** Updates the key's version if the cache holds the key; adds nothing. */
  void updateIfPresent(byte[] key, long version) {
    entries.replace(ByteBuffer.wrap(key), version);
  }

  void clear() {
    entries.clear();
  }
}
