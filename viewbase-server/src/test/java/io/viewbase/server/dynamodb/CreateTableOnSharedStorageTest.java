package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * On storage that other servers share (Cassandra), a new view starts its backfill only once they
 * can have learnt of it, about 2 s after it is created, and is unreadable until then; a DynamoDB
 * table is usable as soon as CreateTable answers, its indexes included, so CreateTable answers once
 * their views are readable. Here on the memory store declared shared ({@link
 * SharedMemoryStorageProvider}), the suites run on a real node in viewbase-cassandra-it.
 */
class CreateTableOnSharedStorageTest {
  private static AttributeDefinition def(String name) {
    return AttributeDefinition.builder()
        .attributeName(name)
        .attributeType(ScalarAttributeType.S)
        .build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  @Test
  void indexesAnswerQueriesAsSoonAsCreateTableAnswers() {
    try (Database db =
            Viewbase.open(OpenOptions.inMemory().withStorage(SharedMemoryStorageProvider.NAME));
        DynamoDbServer server = DynamoDbServer.start(db, DynamoDbOptions.defaults().withPort(0));
        DynamoDbClient client =
            DynamoDbTablesContract.client(
                server.port(), DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET)) {
      CreateTableResponse created =
          client.createTable(
              b ->
                  b.tableName("Orders")
                      .billingMode(BillingMode.PAY_PER_REQUEST)
                      .attributeDefinitions(def("pk"), def("sk"), def("customer"), def("status"))
                      .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                      .globalSecondaryIndexes(
                          g ->
                              g.indexName("byCustomer")
                                  .keySchema(key("customer", KeyType.HASH))
                                  .projection(p -> p.projectionType(ProjectionType.ALL)))
                      .localSecondaryIndexes(
                          l ->
                              l.indexName("byStatus")
                                  .keySchema(key("pk", KeyType.HASH), key("status", KeyType.RANGE))
                                  .projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))));

      assertThat(created.tableDescription().globalSecondaryIndexes().get(0).indexStatusAsString())
          .isEqualTo("ACTIVE");
      client.putItem(
          b ->
              b.tableName("Orders")
                  .item(
                      Map.of(
                          "pk", AttributeValue.fromS("o1"),
                          "sk", AttributeValue.fromS("1"),
                          "customer", AttributeValue.fromS("ann"),
                          "status", AttributeValue.fromS("open"))));
      assertThat(
              client
                  .query(
                      b ->
                          b.tableName("Orders")
                              .indexName("byCustomer")
                              .keyConditionExpression("customer = :c")
                              .expressionAttributeValues(Map.of(":c", AttributeValue.fromS("ann"))))
                  .count())
          .isEqualTo(1);
      assertThat(
              client
                  .query(
                      b ->
                          b.tableName("Orders")
                              .indexName("byStatus")
                              .keyConditionExpression("pk = :p")
                              .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("o1"))))
                  .count())
          .isEqualTo(1);
    }
  }
}
