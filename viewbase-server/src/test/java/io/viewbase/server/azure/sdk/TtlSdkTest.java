package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import io.viewbase.api.TableOptions;
import io.viewbase.api.Value;
import io.viewbase.server.MovableClock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Time-to-live through the official Azure SDK (docs/ttl.md, docs/azure.md): a table's default ttl
 * applies to entities the SDK writes, an entity's own {@code _ttl} property sets its own, and an
 * expired entity is absent to every read and write, as it is natively.
 */
class TtlSdkTest {
  static final MovableClock CLOCK = new MovableClock();

  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer(CLOCK);

  private List<String> rowKeys(TableClient table, String filter) {
    return table.listEntities(new ListEntitiesOptions().setFilter(filter), null, null).stream()
        .map(TableEntity::getRowKey)
        .toList();
  }

  @Test
  void theTableDefaultTtlAppliesToEntitiesWrittenThroughTheSdk() {
    TableClient table = azure.newTable("TtlDefault");
    azure
        .db()
        .alterTable(
            table.getTableName(),
            TableOptions.DEFAULT.withTtl(Duration.ofSeconds(CLOCK.secondsFromNow(3600))));
    table.upsertEntity(new TableEntity("p", "a").addProperty("name", "Ann"));
    table.createEntity(
        new TableEntity("p", "b")
            .addProperty("name", "Bo")
            .addProperty("_ttl", CLOCK.secondsFromNow(3 * 3600)));
    assertThat(rowKeys(table, null)).containsExactly("a", "b");

    CLOCK.advance(Duration.ofHours(2));
    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "a"));
    assertThat(rowKeys(table, null)).containsExactly("b");
    assertThat(rowKeys(table, "PartitionKey eq 'p' and RowKey eq 'a'")).isEmpty();
    assertThat(rowKeys(table, "name eq 'Ann'")).isEmpty();
    assertFails(
        404,
        "ResourceNotFound",
        () -> table.updateEntity(new TableEntity("p", "a"), TableEntityUpdateMode.MERGE));
    table.createEntity(new TableEntity("p", "a").addProperty("name", "Ann again")); // not a 409
    // the test clock is hours ahead now: give the table's items a day from its now
    azure
        .db()
        .alterTable(
            table.getTableName(),
            TableOptions.DEFAULT.withTtl(Duration.ofSeconds(CLOCK.secondsFromNow(86_400))));
    assertThat(table.getEntity("p", "a").getProperty("name")).isEqualTo("Ann again");
  }

  @Test
  void anEntitysOwnTtlPropertyIsStoredAsTheNativeTtlAndEndsItsLife() {
    TableClient table = azure.newTable("TtlOwn");
    String name = table.getTableName();
    table.upsertEntity(
        new TableEntity("p", "seconds").addProperty("_ttl", CLOCK.secondsFromNow(60)));
    table.upsertEntity(
        new TableEntity("p", "int64").addProperty("_ttl", (long) CLOCK.secondsFromNow(60)));
    table.upsertEntity(
        new TableEntity("p", "at")
            .addProperty(
                "_ttl", OffsetDateTime.ofInstant(CLOCK.instant().plusSeconds(60), ZoneOffset.UTC)));
    table.upsertEntity(
        new TableEntity("p", "kept").addProperty("_ttl", CLOCK.secondsFromNow(86_400)));
    int seconds = (Integer) table.getEntity("p", "seconds").getProperty("_ttl");
    // the native property _ttl, not the escape $_ttl other '_' names get
    assertThat(azure.db().table(name).get("p", "seconds").orElseThrow().properties())
        .containsEntry("_ttl", Value.of(seconds))
        .doesNotContainKey("$_ttl");

    CLOCK.advance(Duration.ofMinutes(2));
    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "seconds"));
    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "int64"));
    assertFails(404, "ResourceNotFound", () -> table.getEntity("p", "at"));
    assertThat(rowKeys(table, null)).containsExactly("kept");
    assertThat(azure.db().expire(name)).isEqualTo(3);
    assertThat(rowKeys(table, null)).containsExactly("kept");
  }

  @Test
  void aTtlThatIsNoPositiveWholeNumberOfSecondsIsRefusedWithInvalidInput() {
    TableClient table = azure.newTable("TtlBad");
    assertFails(
        400,
        "InvalidInput",
        () -> table.upsertEntity(new TableEntity("p", "a").addProperty("_ttl", 0)));
    assertFails(
        400,
        "InvalidInput",
        () -> table.upsertEntity(new TableEntity("p", "a").addProperty("_ttl", "soon")));
    assertFails(
        400,
        "InvalidInput",
        () -> table.upsertEntity(new TableEntity("p", "a").addProperty("_ttl", 1.5)));
    assertThat(rowKeys(table, null)).isEmpty();
  }
}
