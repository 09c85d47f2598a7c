package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RocksDbDatabaseTest extends DatabaseContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.at(directory));
  }

  @Test
  void reopenKeepsTablesItemsAndContinuationTokens() {
    people.insert(person("p", "1", "Ann"));
    for (int i = 0; i < 10; i++) {
      people.upsert(person("q", "id" + i, "n"));
    }
    String token = people.query(Query.partition("q").withLimit(4)).continuation();
    db.close();
    db = open(dir);
    assertThat(db.table("PEOPLE").get("p", "1")).isPresent();
    assertThat(db.table("people").query(Query.partition("q").withLimit(4).withContinuation(token)).items())
        .hasSize(4);
  }

  @Test
  void aRepeatedMappedReadOfAnUnchangedItemReusesTheResultUntilAWrite() {
    NameAtEtag mapping = new NameAtEtag();
    people.insert(person("p", "1", "Ann"));

    String first = people.get("p", "1", mapping).orElseThrow();
    String again = people.get("p", "1", new NameAtEtag()).orElseThrow(); // an equal mapping

    assertThat(again).isSameAs(first);
    assertThat(mapping.calls.get()).isEqualTo(1);
    Item written = people.upsert(person("p", "1", "Bo"));
    assertThat(people.get("p", "1", mapping)).contains(mapping.map(written));
  }

  @Test
  void aSecondOpenOfTheSameDirectoryFailsWithStorageUnavailable() {
    assertCode(() -> open(dir), ErrorCode.StorageUnavailable);
  }

  @Test
  void unknownBackendFailsNamingTheArtifact() {
    assertCode(() -> Viewbase.open(OpenOptions.at(dir).withStorage("cassandra")), ErrorCode.StorageBackendMissing);
  }
}
