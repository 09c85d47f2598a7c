package io.viewbase.cassandra.it;

import io.viewbase.api.Item;
import io.viewbase.api.Value;
import java.util.Set;
import java.util.TreeSet;

/**
 * One item of the ring load as its only writer knows it: the last revision the database
 * acknowledged, and the revisions whose writes failed without saying whether they were applied.
 *
 * <p>Every write of the item stores a new revision number (and moves its unique view key), so the
 * stored revision tells which write the database kept. After the load the item must hold its last
 * acknowledged revision, or a later one whose outcome was unknown; anything else is a lost
 * acknowledged write. A key whose write had an unknown outcome is retired: its writer stops writing
 * it, since it no longer knows its ETag.
 *
 * <p>Only the worker that owns a key touches it during the load; the test reads it after joining
 * the workers.
 */
final class RingKey {
  private final String partitionKey;
  private final String id;
  private final Set<Integer> unknown = new TreeSet<>();
  private int ackedRevision = -1;
  private int lastRevision = -1;
  private String etag;
  private String email;
  private boolean retired;

  RingKey(String partitionKey, String id) {
    this.partitionKey = partitionKey;
    this.id = id;
  }

  String partitionKey() {
    return partitionKey;
  }

  String id() {
    return id;
  }

  /** The next write of this key: a new revision and a new unique email. */
  Item nextWrite() {
    lastRevision++;
    return Item.builder(partitionKey, id)
        .put("revision", lastRevision)
        .put("email", emailOf(lastRevision))
        .put("note", "written by the ring load")
        .build();
  }

  /** The write of {@code revision} was acknowledged with this stored item. */
  void acknowledged(Item stored) {
    ackedRevision = revisionOf(stored);
    etag = stored.etag();
    email = stored.get("email").map(v -> ((Value.Str) v).value()).orElseThrow();
  }

  /** The write of the last revision failed without telling whether it was applied. */
  void unknownOutcome() {
    unknown.add(lastRevision);
    retired = true;
  }

  /** The write of the last revision was refused and is certainly not applied. */
  void refused() {
    retired = true;
  }

  boolean isAcknowledged() {
    return ackedRevision >= 0;
  }

  boolean isRetired() {
    return retired;
  }

  int ackedRevision() {
    return ackedRevision;
  }

  String etag() {
    return etag;
  }

  String email() {
    return email;
  }

  /** Whether the database may hold {@code revision} (null: no item) for this key after the load. */
  boolean allows(Integer revision) {
    if (revision == null) {
      return ackedRevision < 0;
    }
    return revision == ackedRevision || (revision > ackedRevision && unknown.contains(revision));
  }

  @Override
  public String toString() {
    return partitionKey
        + "/"
        + id
        + " (acknowledged revision "
        + ackedRevision
        + ", unknown outcomes "
        + unknown
        + ")";
  }

  static int revisionOf(Item item) {
    return ((Value.Int32) item.get("revision").orElseThrow()).value();
  }

  private String emailOf(int revision) {
    return id + "-r" + revision + "@ring.test";
  }
}
