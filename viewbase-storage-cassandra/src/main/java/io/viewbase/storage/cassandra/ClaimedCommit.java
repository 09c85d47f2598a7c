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
 *
 * <p>An append ({@link Mutation.Append}) claims its sequence's row in step 1, at the batch index of
 * its first append, on the condition that the row still holds the number this store expects ({@link
 * Sequences}); a row that holds another number tells it, and the claim is tried again with that
 * one. The logged batch writes the entries under the numbers that follow and the new last number,
 * but keeps the claim: it is released only once the batch is acknowledged, so no other commit can
 * take the next number while this batch's entries are on fewer replicas than a quorum, and a reader
 * never sees a number before a smaller one. A batch that times out after reaching the batchlog
 * writes its sequences' partitions again (entries and number: the same cells, which the claim keeps
 * anyone else from writing) and releases their claims once that is acknowledged; one that times out
 * before leaves the claims to their TTL, since Cassandra may still replay it.
 */
final class ClaimedCommit {
  private ClaimedCommit() {}

  static void commit(CassandraStore store, List<Mutation> batch, List<Sequences.Appends> appends)
      throws ConditionFailedException {
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
        Sequences.Appends sequence = firstAppendAt(appends, i);
        if (sequence != null) {
          claimOrder.add(m); // a claim of unknown outcome is released too
          claimSequence(store, sequence, owner, ttlSeconds);
        } else if (m.condition().kind() != Condition.Kind.NONE) {
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
      appends.forEach(Sequences.Appends::forget);
      release(store, claimOrder, owner);
      throw e;
    }
    // Claims expire: a commit that has spent half their life claiming must not write on the
    // strength of conditions another writer may already be free to break.
    if (System.nanoTime() - started > ttl.toNanos() / 2) {
      appends.forEach(Sequences.Appends::forget);
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
      if (m instanceof Mutation.Append) {
        continue; // written per sequence, below
      }
      BoundStatement write = claimed.contains(m) ? statements.applyClaimed(m) : statements.plain(m);
      if (write != null) {
        logged.addStatement(write);
      }
    }
    for (Sequences.Appends a : appends) {
      logged.addStatements(statements.entries(a));
      logged.addStatement(statements.setNumber(a));
    }
    try {
      store.execute(logged.build(), "write a logged batch");
    } catch (StorageException e) {
      if (CassandraErrors.reachedBatchlog(e.getCause())) {
        // In the batchlog, the batch will be applied and clear the claims of keys itself;
        // releasing them now would let another writer in before that replay. Its sequences are
        // written again here, so that their claims need not wait for the TTL.
        rewriteSequences(store, appends, owner);
      } else if (e.kind() == StorageException.Kind.TIMED_OUT) {
        // The batchlog may still hold it: the claims of sequences stay until their TTL, so that
        // a late replay cannot write under numbers that others took meanwhile.
        appends.forEach(Sequences.Appends::forget);
        release(
            store,
            claimOrder.stream().filter(m -> !(m instanceof Mutation.Append)).toList(),
            owner);
      } else {
        appends.forEach(Sequences.Appends::forget);
        release(store, claimOrder, owner);
      }
      throw e;
    }
    appends.forEach(a -> a.learn(a.last()));
    releaseSequences(store, appends, owner);
  }

  /** The sequence whose first append in the batch is mutation {@code index}, or null. */
  private static Sequences.Appends firstAppendAt(List<Sequences.Appends> appends, int index) {
    for (Sequences.Appends a : appends) {
      if (a.firstIndex == index) {
        return a;
      }
    }
    return null;
  }

  /**
   * Claims a sequence's row for this commit if it holds the number expected; learns the number and
   * tries again while another number is found, waits while another commit holds the row, and gives
   * up as contended after {@link Contention#SEQUENCE_PATIENCE}.
   */
  private static void claimSequence(
      CassandraStore store, Sequences.Appends a, String owner, int ttlSeconds) {
    a.expected = a.known() >= 0 ? a.known() : store.lastNumber(a.partition, a.key);
    long patience = System.nanoTime() + Contention.SEQUENCE_PATIENCE.toNanos();
    for (int attempt = 1; ; ) {
      ResultSet result;
      try {
        result =
            store.execute(
                store.statements().claimSequence(a, owner, ttlSeconds), "claim a sequence");
      } catch (StorageException e) {
        // as for keys: a claim that is already ours counts as taken, so trying again is safe
        if (CassandraErrors.isCasTimeout(e.getCause()) && System.nanoTime() < patience) {
          continue;
        }
        throw e;
      }
      if (result.wasApplied()) {
        return;
      }
      Found found = Found.of(result.one());
      if (owner.equals(found.claim())) {
        return; // an earlier try applied; the number cannot have moved under our claim
      }
      long last = Sequences.lastNumber(found);
      boolean moved = last != a.expected;
      a.expected = last;
      a.learn(last);
      if (System.nanoTime() > patience) {
        throw Contention.sequenceHeld();
      }
      if (!moved) {
        Contention.pause(Math.min(attempt++, Contention.ATTEMPTS - 1)); // held by another commit
      }
    }
  }

  /**
   * Writes the sequences' partitions of a batch that reached the batchlog again (the same cells its
   * replay will write, with an older timestamp) and releases their claims once that is
   * acknowledged; if that fails too, the claims expire with their TTL.
   */
  private static void rewriteSequences(
      CassandraStore store, List<Sequences.Appends> appends, String owner) {
    for (Sequences.Appends a : appends) {
      try {
        BatchStatementBuilder again = BatchStatement.builder(BatchType.UNLOGGED);
        again.addStatements(store.statements().entries(a));
        again.addStatement(store.statements().setNumber(a));
        store.execute(again.build(), "write a sequence again");
        a.learn(a.last());
        store.execute(store.statements().releaseOwn(a, owner), "release a sequence");
      } catch (RuntimeException e) {
        a.forget(); // its claim keeps it until the TTL
      }
    }
  }

  /**
   * Releases the claims of the batch's sequences after the batch: best effort, since the commit has
   * succeeded, and a claim left behind keeps the sequence only until its TTL.
   */
  private static void releaseSequences(
      CassandraStore store, List<Sequences.Appends> appends, String owner) {
    for (Sequences.Appends a : appends) {
      try {
        store.execute(store.statements().releaseOwn(a, owner), "release a sequence");
      } catch (RuntimeException e) {
        // the TTL will drop it
      }
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
