package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import io.viewbase.storage.spi.Condition;
import io.viewbase.storage.spi.ConditionFailedException;
import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.StorageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * A batch across partitions. Cassandra cannot make a conditional batch span partitions, so the
 * conditions are checked and held by claims, and the writes go in one logged batch:
 *
 * <ol>
 *   <li><b>claim</b>: for each mutation with a condition, in batch order, one lightweight
 *       transaction sets the key's {@code claim} to this commit's owner id (with a TTL) if the
 *       condition holds and nobody else claims it. A condition that fails releases the claims taken
 *       so far and throws {@link ConditionFailedException} with that mutation's index.
 *   <li><b>apply</b>: one logged batch writes every mutation and clears every claim. Cassandra's
 *       batchlog makes it all-or-nothing, eventually; it is not isolated, so a reader may see some
 *       partitions written before others.
 * </ol>
 *
 * A claimed key refuses every other conditional write (it sees {@code claim != null}), so no
 * condition checked in step 1 can be broken before step 2; unconditional writes do not wait. A
 * claim that finds the key held by another commit waits a little ({@link Contention}) and then
 * fails as a conflict, reporting the version it found even though that version met the condition. A
 * committer that dies between the steps leaves claims that expire after the claim TTL; until then,
 * conditional writes to those keys fail as conflicts.
 */
final class ClaimedCommit {
  private ClaimedCommit() {}

  static void commit(CassandraStore store, List<Mutation> batch) throws ConditionFailedException {
    CassandraStatements statements = store.statements();
    Duration ttl = store.settings().claimTtl();
    int ttlSeconds = (int) Math.max(1, (ttl.toMillis() + 999) / 1000);
    String owner = UUID.randomUUID().toString();
    Set<Mutation> claimed = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Mutation> claimOrder = new ArrayList<>();
    long started = System.nanoTime();
    try {
      for (int i = 0; i < batch.size(); i++) {
        Mutation m = batch.get(i);
        if (m.condition().kind() != Condition.Kind.NONE) {
          try {
            claim(store, m, i, owner, ttlSeconds);
          } catch (StorageException unknownOutcome) {
            claimOrder.add(m); // the claim may have been set: release it too
            throw unknownOutcome;
          }
          claimOrder.add(m);
          claimed.add(m);
        }
      }
    } catch (ConditionFailedException | RuntimeException e) {
      release(store, claimOrder, owner);
      throw e;
    }
    // Claims expire: a commit that has spent half their life claiming must not write on the
    // strength of conditions another writer may already be free to break.
    if (System.nanoTime() - started > ttl.toNanos() / 2) {
      release(store, claimOrder, owner);
      throw new StorageException(
          "a commit across partitions took longer than half the claim TTL ("
              + ttl
              + ") to claim its keys; nothing was written",
          null,
          StorageException.Kind.CONTENDED);
    }
    BatchStatementBuilder logged = BatchStatement.builder(BatchType.LOGGED);
    for (Mutation m : batch) {
      BoundStatement write = claimed.contains(m) ? statements.applyClaimed(m) : statements.plain(m);
      if (write != null) {
        logged.addStatement(write);
      }
    }
    try {
      store.execute(logged.build(), "write a logged batch");
    } catch (StorageException e) {
      // In the batchlog, the batch will be applied and clear the claims itself; releasing them
      // now would let another writer in before that replay.
      if (!CassandraErrors.reachedBatchlog(e.getCause())) {
        release(store, claimOrder, owner);
      }
      throw e;
    }
  }

  private static void claim(
      CassandraStore store, Mutation m, int index, String owner, int ttlSeconds)
      throws ConditionFailedException {
    BoundStatement claim = store.statements().claim(m, owner, ttlSeconds);
    for (int attempt = 1; ; attempt++) {
      ResultSet result;
      try {
        result = store.execute(claim, "claim a key");
      } catch (StorageException e) {
        // A Paxos round that timed out may still have set the claim; trying again is safe,
        // since a claim that is already ours counts as taken.
        if (CassandraErrors.isCasTimeout(e.getCause()) && attempt < Contention.ATTEMPTS) {
          continue;
        }
        throw e;
      }
      if (result.wasApplied()) {
        return;
      }
      Found found = Found.of(result.one());
      if (owner.equals(found.claim())) {
        return;
      }
      if (!m.condition().isMetBy(found.version()) || attempt >= Contention.ATTEMPTS) {
        throw new ConditionFailedException(index, m.condition(), found.version());
      }
      Contention.pause(attempt);
    }
  }

  /**
   * Drops this commit's claims; best effort, since an unreleased claim expires with its TTL anyway.
   */
  private static void release(CassandraStore store, List<Mutation> claimed, String owner) {
    for (Mutation m : claimed) {
      try {
        store.execute(store.statements().releaseOwn(m, owner), "release a claim");
      } catch (RuntimeException e) {
        // the TTL will drop it
      }
    }
  }
}
