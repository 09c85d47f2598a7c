package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.viewbase.storage.spi.StorageException;

/**
 * Driver failures as {@link StorageException}s. A cluster that cannot answer right now (no node
 * reachable, too few replicas alive, a timeout) is "unavailable", so core reports it as such and
 * clients may retry; anything else (a refused statement, a protocol error) is an internal failure.
 */
final class CassandraErrors {
  private CassandraErrors() {
  }

  static StorageException translate(String action, DriverException e) {
    boolean unavailable = e instanceof AllNodesFailedException || e instanceof UnavailableException
        || e instanceof DriverTimeoutException || e instanceof QueryConsistencyException;
    return new StorageException("Cassandra failed to " + action + ": " + e.getMessage(), e, unavailable);
  }

  static StorageException closed() {
    return new StorageException("the Cassandra store is closed", null, true);
  }

  /** Whether a failed lightweight transaction may still have applied (its Paxos round timed out). */
  static boolean isCasTimeout(Throwable e) {
    return e instanceof WriteTimeoutException w && w.getWriteType() == DefaultWriteType.CAS;
  }

  /** Whether a failed logged batch reached the batchlog, so that Cassandra will still apply all of it. */
  static boolean reachedBatchlog(Throwable e) {
    return e instanceof WriteTimeoutException w && w.getWriteType() == DefaultWriteType.BATCH;
  }
}
