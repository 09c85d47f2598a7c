package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.ViewDefinition;
import io.viewbase.api.ViewStatus;
import io.viewbase.api.Viewbase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RocksDbViewTest extends ViewContract {
  @Override
  protected Database open(Path directory) {
    return Viewbase.open(OpenOptions.at(directory));
  }

  @Test
  void viewDefinitionsAndStateSurviveARestart() {
    people.insert(Item.builder("p", "1").put("email", "a@x").build());
    db.createView(
        ViewDefinition.of("ByEmail", "People", "all", "{email|lower}").withWhere("email ne 'z'"));
    awaitBuilt(db, "ByEmail");
    db.close();
    db = open(dir);
    assertThat(db.viewStatus("ByEmail").state()).isEqualTo(ViewStatus.READY);
    assertThat(db.viewStatus("ByEmail").definition().idBy()).isEqualTo("{email|lower}");
    db.table("People").insert(Item.builder("p", "2").put("email", "B@X").build());
    assertThat(db.table("ByEmail").get("all", "b@x")).isPresent();
    assertThat(db.verifyView("ByEmail", false).drift()).isZero();
  }
}
