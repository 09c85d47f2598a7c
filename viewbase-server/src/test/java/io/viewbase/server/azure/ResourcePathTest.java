package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.viewbase.api.ViewbaseException;
import org.junit.jupiter.api.Test;

/**
 * Reading what a request path addresses: path-style and production-style, keys with quotes and
 * escapes.
 */
class ResourcePathTest {
  @Test
  void pathStyleNamesTheAccountFirstAndSignsItTwice() {
    ResourcePath p = ResourcePath.parse("/devstoreaccount1/Tables", "127.0.0.1:10002");

    assertThat(p.account()).isEqualTo("devstoreaccount1");
    assertThat(p.kind()).isEqualTo(ResourcePath.Kind.TABLES);
    assertThat(p.signedPath()).isEqualTo("/devstoreaccount1/devstoreaccount1/Tables");
    assertThat(p.baseUrl()).isEqualTo("http://127.0.0.1:10002/devstoreaccount1");
  }

  @Test
  void productionStyleTakesTheAccountFromTheHost() {
    ResourcePath p = ResourcePath.parse("/People()", "myacct.table.localhost:10002");

    assertThat(p.account()).isEqualTo("myacct");
    assertThat(p.kind()).isEqualTo(ResourcePath.Kind.ENTITIES);
    assertThat(p.table()).isEqualTo("People");
    assertThat(p.signedPath()).isEqualTo("/myacct/People()");
  }

  @Test
  void entityKeysUndoubleQuotesAndPercentEncodingAndTolerateASpace() {
    ResourcePath p =
        ResourcePath.parse("/a/T(PartitionKey=%27O''Brien%20%26%20co%27,%20RowKey='100%25')", null);

    assertThat(p.kind()).isEqualTo(ResourcePath.Kind.ENTITY);
    assertThat(p.partitionKey()).isEqualTo("O'Brien & co");
    assertThat(p.rowKey()).isEqualTo("100%");
  }

  @Test
  void tableAndBatchAddresses() {
    assertThat(ResourcePath.parse("/a/Tables('People')", null).table()).isEqualTo("People");
    assertThat(ResourcePath.parse("/a/$batch", null).kind()).isEqualTo(ResourcePath.Kind.BATCH);
    assertThat(ResourcePath.parse("/a", null).kind()).isEqualTo(ResourcePath.Kind.SERVICE);
  }

  @Test
  void malformedKeysAreInvalidInput() {
    ViewbaseException f =
        catchThrowableOfType(
            () -> ResourcePath.parse("/a/T(PartitionKey='p')", null), ViewbaseException.class);

    assertThat(f.code().azure().status()).isEqualTo(400);
    assertThat(AzureErrors.message(f)).contains("(PartitionKey='p')");
  }
}
