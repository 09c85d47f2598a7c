package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Query;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RocksDbViewKindsTest extends ViewKindsContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.at(directory));
  }

  @Test
  void kindsAndRetentionSurviveARestart() {
    people.insert(item("p", "1"));
    ViewDefinition history =
        ViewDefinition.history("PeopleHistory", "People")
            .withRetention(new ViewDefinition.Retention(3, Duration.ofHours(1)));
    db.createView(history);
    db.createView(ViewDefinition.partitions("Counts", "People"));
    ViewContract.awaitBuilt(db, "PeopleHistory");
    ViewContract.awaitBuilt(db, "Counts");
    db.close();
    db = open(dir);
    assertThat(db.viewStatus("PeopleHistory").definition()).isEqualTo(history);
    assertThat(db.viewStatus("Counts").definition().kind())
        .isEqualTo(ViewDefinition.Kind.PARTITIONS);
    assertThat(db.viewStatus("Counts").state()).isEqualTo(ViewStatus.READY);
    db.table("People").insert(item("p", "2"));
    assertThat(count(db.table("Counts"), "all", "p")).isEqualTo(2);
    assertThat(all(db.table("PeopleHistory"), Query.all())).hasSize(2);
    assertThat(db.verifyView("Counts", false).drift()).isZero();
    assertThat(db.verifyView("PeopleHistory", false).drift()).isZero();
  }
}
