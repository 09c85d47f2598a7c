package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableNamesTest {
  @Test
  void aNameThatIsAlreadyAViewbaseNameIsItsOwnFirstCandidate() {
    List<String> names = TableNames.tableCandidates("Orders");

    assertThat(names).hasSize(2).first().isEqualTo("Orders");
    assertThat(names.get(1)).startsWith("Orders").hasSize("Orders".length() + 8);
  }

  @Test
  void aNameWithDynamoDbCharactersHasAReadableStemAndAHash() {
    List<String> names = TableNames.tableCandidates("my-table.v2");

    assertThat(names).hasSize(1);
    assertThat(names.get(0)).matches("mytablev2[a-z2-7]{8}");
    assertThat(TableNames.VIEWBASE.matcher(names.get(0)).matches()).isTrue();
  }

  @Test
  void namesDifferingInCaseOnlyHaveDifferentHashedCandidates() {
    assertThat(TableNames.tableCandidates("Users").get(1))
        .isNotEqualToIgnoringCase(TableNames.tableCandidates("users").get(1));
  }

  @Test
  void everyCandidateIsAViewbaseNameWhateverTheDynamoDbName() {
    for (String name :
        List.of("___", "123", "a.b", "0-9_x", "x".repeat(255), "._-", "Table_With_Underscores")) {
      for (String candidate : TableNames.tableCandidates(name)) {
        assertThat(TableNames.VIEWBASE.matcher(candidate).matches()).as(name).isTrue();
      }
      for (String candidate : TableNames.viewCandidates(name, "Tbl", name)) {
        assertThat(TableNames.VIEWBASE.matcher(candidate).matches()).as(name).isTrue();
      }
    }
  }

  @Test
  void anIndexViewIsNamedAfterItsTableAndIndexThenHashed() {
    List<String> names = TableNames.viewCandidates("Orders", "Orders", "byCustomer");

    assertThat(names.get(0)).isEqualTo("OrdersByCustomer");
    assertThat(names.get(1)).matches("OrdersByCustomer[a-z2-7]{8}");
    assertThat(TableNames.viewCandidates("Orders", "Orders", "gsi1pk-gsi1sk-index").get(0))
        .isEqualTo("OrdersGsi1pkgsi1skindex");
  }

  @Test
  void theHashIsStable() {
    assertThat(TableNames.hash("my-table.v2")).isEqualTo(TableNames.hash("my-table.v2")).hasSize(8);
  }
}
