package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.viewbase.storage.spi.StorageException;

/**
 * Driver failures as {@link StorageException}s, by what a caller can do about them:
 *
 * <pre>
 * driver failure                                  | kind        | core reports
 * ------------------------------------------------+-------------+--------------------------
 * no node answered (AllNodesFailed, NoNode...)    | UNREACHABLE | StorageUnreachable
 * too few replicas alive (Unavailable)            | UNREACHABLE | StorageUnreachable
 * a timeout, the driver's or a replica's (read,   | TIMED_OUT   | Timeout: a write may
 *   write, CAS), or a replica's failure           |             | still apply
 * the connection the request was sent on died     | TIMED_OUT   | Timeout: the coordinator
 *   (ClosedConnection, Heartbeat: a node killed)  |             |   may have applied it
 * anything else (a refused statement, a protocol  | FAILED      | InternalError
 *   error)                                        |             |
 * </pre>
 */
final class CassandraErrors {
  private CassandraErrors() {}

  static StorageException translate(String action, DriverException e) {
    StorageException.Kind kind =
        e instanceof AllNodesFailedException || e instanceof UnavailableException
            ? StorageException.Kind.UNREACHABLE
            : e instanceof DriverTimeoutException
                    || e instanceof QueryConsistencyException
                    || e instanceof ClosedConnectionException
                    || e instanceof HeartbeatException
                ? StorageException.Kind.TIMED_OUT
                : StorageException.Kind.FAILED;
    return new StorageException("Cassandra failed to " + action + ": " + e.getMessage(), e, kind);
  }

  static StorageException closed() {
    return new StorageException(
        "the Cassandra store is closed", null, StorageException.Kind.CLOSED);
  }

  /**
   * Whether a failed lightweight transaction may still have applied (its Paxos round timed out).
   */
  static boolean isCasTimeout(Throwable e) {
    return e instanceof WriteTimeoutException w && w.getWriteType() == DefaultWriteType.CAS;
  }

  /**
   * Whether a failed logged batch reached the batchlog, so that Cassandra will still apply all of
   * it.
   */
  static boolean reachedBatchlog(Throwable e) {
    return e instanceof WriteTimeoutException w && w.getWriteType() == DefaultWriteType.BATCH;
  }
}
