package io.viewbase.storage.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The test node's own operations, beyond serving CQL. */
class CassandraNodeTest {

  @Test
  void flushWritesTheKeyspacesMemtablesToSSTables() throws IOException {
    CassandraNode node = CassandraTestCluster.node();
    CqlSession session = CassandraTesting.admin();
    ddl(
        session,
        "CREATE KEYSPACE IF NOT EXISTS flush_test WITH replication = "
            + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
    ddl(session, "CREATE TABLE IF NOT EXISTS flush_test.t (k int PRIMARY KEY, v text)");
    session.execute("INSERT INTO flush_test.t (k, v) VALUES (1, 'one')");
    long before = sstables(node.dataDirectory().resolve("flush_test"));

    node.flush("flush_test");

    assertThat(sstables(node.dataDirectory().resolve("flush_test"))).isEqualTo(before + 1);
    assertThat(session.execute("SELECT v FROM flush_test.t WHERE k = 1").one().getString("v"))
        .isEqualTo("one");
  }

  private static long sstables(Path keyspace) throws IOException {
    try (Stream<Path> files = Files.walk(keyspace)) {
      return files.filter(f -> f.getFileName().toString().endsWith("-Data.db")).count();
    }
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(60)));
  }
}
