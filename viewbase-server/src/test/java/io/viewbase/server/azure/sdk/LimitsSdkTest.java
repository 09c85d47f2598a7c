package io.viewbase.server.azure.sdk;

import static io.viewbase.server.azure.sdk.SdkErrors.assertFails;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Azure's limits on keys, properties and entities, as the official Java SDK meets them; a refused
 * write stores nothing.
 */
class LimitsSdkTest {
  @RegisterExtension static final AzureSdkServer azure = new AzureSdkServer();

  private static TableClient table;

  @BeforeAll
  static void createTable() {
    table = azure.newTable("Limits");
  }

  private static void assertAbsent(String pk, String rk) {
    assertThat(
            table.listEntities(
                new ListEntitiesOptions()
                    .setFilter("PartitionKey eq '" + pk + "' and RowKey eq '" + rk + "'"),
                null,
                null))
        .isEmpty();
  }

  @Test
  void keysWithCharactersAzureForbidsAreRefusedWithInvalidInput() {
    for (String bad : new String[] {"a/b", "a\\b", "a#b", "a?b", "a\u0001b", "a\u007fb"}) {
      assertFails(400, "InvalidInput", () -> table.createEntity(new TableEntity("p", bad)));
      assertFails(400, "InvalidInput", () -> table.upsertEntity(new TableEntity(bad, "r")));
    }
  }

  @Test
  void twoHundredFiftyTwoCustomPropertiesAreAcceptedAndOneMoreIsRefused() {
    TableEntity most = new TableEntity("props", "most");
    TableEntity tooMany = new TableEntity("props", "tooMany");
    for (int i = 0; i < 252; i++) {
      most.addProperty("p" + i, i);
      tooMany.addProperty("p" + i, i);
    }
    tooMany.addProperty("oneMore", 1);

    table.createEntity(most);
    assertFails(400, "TooManyProperties", () -> table.createEntity(tooMany));

    assertThat(table.getEntity("props", "most").getProperty("p251")).isEqualTo(251);
    assertAbsent("props", "tooMany");
  }

  @Test
  void aPropertyNameOf255CharactersIsAcceptedAndALongerOneRefusedWithPropertyNameTooLong() {
    String longest = "n".repeat(255);
    table.createEntity(new TableEntity("names", "longest").addProperty(longest, 1));

    assertFails(
        400,
        "PropertyNameTooLong",
        () ->
            table.createEntity(new TableEntity("names", "tooLong").addProperty(longest + "n", 1)));
    assertFails(
        400,
        "PropertyNameTooLong",
        () ->
            table.upsertEntity(new TableEntity("names", "longest").addProperty(longest + "n", 2)));

    assertThat(table.getEntity("names", "longest").getProperty(longest)).isEqualTo(1);
    assertThat(table.getEntity("names", "longest").getProperties())
        .doesNotContainKey(longest + "n");
    assertAbsent("names", "tooLong");
  }

  @Test
  void aFilterOfAThousandConditionsIsServedAndOneMoreIsRefusedWithInvalidInput() {
    table.createEntity(new TableEntity("many", "r7"));
    StringBuilder thousand = new StringBuilder("RowKey eq 'r0'");
    for (int i = 1; i < 1000; i++) {
      thousand.append(" or RowKey eq 'r").append(i).append('\'');
    }
    String tooMany = thousand + " or RowKey eq 'r1000'";

    assertThat(
            table
                .listEntities(new ListEntitiesOptions().setFilter(thousand.toString()), null, null)
                .stream()
                .map(TableEntity::getRowKey))
        .containsExactly("r7");
    SdkErrors.assertUnmappedFails(
        400,
        "InvalidInput",
        () ->
            table.listEntities(new ListEntitiesOptions().setFilter(tooMany), null, null).stream()
                .count());
  }

  @Test
  void stringPropertyOverThirtyTwoKCharactersIsRefusedWithPropertyValueTooLarge() {
    table.createEntity(new TableEntity("strings", "fits").addProperty("s", "x".repeat(32_767)));
    assertFails(
        400,
        "PropertyValueTooLarge",
        () ->
            table.createEntity(
                new TableEntity("strings", "over").addProperty("s", "x".repeat(32_769))));

    assertThat((String) table.getEntity("strings", "fits").getProperty("s")).hasSize(32_767);
    assertAbsent("strings", "over");
  }

  @Test
  void binaryPropertyOverSixtyFourKibIsRefusedWithPropertyValueTooLarge() {
    table.createEntity(new TableEntity("binaries", "fits").addProperty("b", new byte[65_536]));
    assertFails(
        400,
        "PropertyValueTooLarge",
        () ->
            table.createEntity(
                new TableEntity("binaries", "over").addProperty("b", new byte[65_537])));

    assertThat((byte[]) table.getEntity("binaries", "fits").getProperty("b")).hasSize(65_536);
    assertAbsent("binaries", "over");
  }

  @Test
  void entityOverOneMibIsRefusedWithEntityTooLarge() {
    TableEntity big = new TableEntity("big", "over");
    for (int i = 0; i < 17; i++) {
      big.addProperty("b" + i, new byte[64 * 1024]);
    }

    assertFails(400, "EntityTooLarge", () -> table.createEntity(big));
    assertAbsent("big", "over");
  }

  /**
   * Azure counts strings in UTF-16: 17 strings of 32,000 ASCII characters are 1,088,000 bytes to
   * Azure (over 1 MiB) though half that in UTF-8; 16 of them are 1,024,000 bytes and fit.
   */
  @Test
  void entityOverOneMibCountedInUtf16IsRefusedWithEntityTooLarge() {
    TableEntity over = new TableEntity("utf16", "over");
    TableEntity fits = new TableEntity("utf16", "fits");
    for (int i = 0; i < 17; i++) {
      over.addProperty("s" + i, "x".repeat(32_000));
      if (i < 16) {
        fits.addProperty("s" + i, "x".repeat(32_000));
      }
    }

    assertFails(400, "EntityTooLarge", () -> table.createEntity(over));
    assertFails(400, "EntityTooLarge", () -> table.upsertEntity(over));
    table.createEntity(fits);

    assertAbsent("utf16", "over");
    assertThat(table.getEntity("utf16", "fits").getProperties()).containsKey("s15");
  }

  @Test
  void mergeThatWouldGrowAnEntityOverOneMibIsRefusedAndKeepsTheEntity() {
    TableEntity half = new TableEntity("big", "merged");
    TableEntity otherHalf = new TableEntity("big", "merged");
    for (int i = 0; i < 9; i++) {
      half.addProperty("a" + i, new byte[64 * 1024]);
      otherHalf.addProperty("b" + i, new byte[64 * 1024]);
    }
    table.createEntity(half);
    String etag = table.getEntity("big", "merged").getETag();

    assertFails(400, "EntityTooLarge", () -> table.upsertEntity(otherHalf));
    assertThat(table.getEntity("big", "merged").getETag()).isEqualTo(etag);
  }
}
