package io.viewbase.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Item;
import io.viewbase.api.OpenOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RocksDbTtlTest extends TtlContract {
  @Override
  OpenOptions options(Path directory) {
    return OpenOptions.at(directory);
  }

  @Test
  void theMarkOfATableWhoseItemsHadATtlSurvivesARestart() {
    people.insert(person("p", "1", "Ann", 60));
    db.close();
    db = open();
    people = db.table("People");
    assertThat(db.expiry().hasItemTtl(db.catalogForTests().require("People"))).isTrue();
    clock.advance(Duration.ofMinutes(2));
    Item again = people.insert(person("p", "1", "Ann again", null)); // must read: not a 409
    assertThat(again.properties()).doesNotContainKey("_ttl");
  }
}
