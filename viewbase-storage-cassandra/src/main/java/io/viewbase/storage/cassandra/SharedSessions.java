package io.viewbase.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The driver sessions of this process, one per distinct {@link CassandraSettings}, shared by every
 * store opened with those settings. A session holds connection pools, cluster metadata and prepared
 * statements, and opening one takes a second or more, so stores opened again and again on the same
 * cluster (a server reopening a database, tests) reuse it. The session closes with the last store
 * that uses it.
 */
final class SharedSessions {
  private static final Map<CassandraSettings, Shared> OPEN = new HashMap<>();

  private SharedSessions() {}

  /**
   * A session and its statements for these settings, opened with {@code opener} if none is open.
   */
  static synchronized Lease acquire(
      CassandraSettings settings, Function<CassandraSettings, Lease> opener) {
    Shared shared = OPEN.get(settings);
    if (shared == null) {
      Lease opened = opener.apply(settings);
      shared = new Shared(opened.session(), opened.statements());
      OPEN.put(settings, shared);
    }
    shared.users++;
    return new Lease(shared.session, shared.statements, settings);
  }

  private static synchronized void release(Lease lease) {
    Shared shared = OPEN.get(lease.settings());
    if (shared == null || shared.session != lease.session()) {
      return;
    }
    if (--shared.users == 0) {
      OPEN.remove(lease.settings());
      shared.session.close();
    }
  }

  /** One store's use of a shared session; {@link #release()} it once. */
  record Lease(CqlSession session, CassandraStatements statements, CassandraSettings settings) {
    void release() {
      SharedSessions.release(this);
    }
  }

  private static final class Shared {
    final CqlSession session;
    final CassandraStatements statements;
    int users;

    Shared(CqlSession session, CassandraStatements statements) {
      this.session = session;
      this.statements = statements;
    }
  }
}
