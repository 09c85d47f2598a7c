package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.server.dynamodb.DynamoDbTable.Stream;
import io.viewbase.server.dynamodb.DynamoDbTable.TimeToLive;
import io.viewbase.server.dynamodb.DynamoDbTable.TtlStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoredTablesTest {
  /** A description as this dialect stored it before time to live and stream positions. */
  private static final String BEFORE_TTL =
      "{\"Version\":1,\"TableName\":\"t-1\",\"ViewbaseTable\":\"t1\",\"TableId\":\"0e6c2f9a-1b7e-4bb2-9c1e-0f00d1b2c3d4\","
          + "\"CreationDateTime\":1767225600123,"
          + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
          + "\"GlobalSecondaryIndexes\":[],\"LocalSecondaryIndexes\":[],\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"KEYS_ONLY\"},"
          + "\"LatestStreamLabel\":\"2026-01-01T00:00:00.123\",\"DeletionProtectionEnabled\":false,\"Tags\":[]}";

  @Test
  void aDescriptionStoredBeforeTimeToLiveReadsAsDisabledWithItsStreamFromTheStart() {
    DynamoDbTable t = StoredTables.decode(BEFORE_TTL);
    assertThat(t.ttl()).isNull();
    assertThat(t.stream()).isEqualTo(new Stream(true, "KEYS_ONLY", "2026-01-01T00:00:00.123", 0));
  }

  @Test
  void timeToLiveAndTheStreamsStartRoundTrip() {
    DynamoDbTable t =
        StoredTables.decode(BEFORE_TTL)
            .withStream(new Stream(true, "NEW_IMAGE", "2026-02-01T00:00:00.000", 41))
            .withTtl(new TimeToLive("expires", TtlStatus.ENABLING));
    DynamoDbTable read = StoredTables.decode(StoredTables.encode(t));
    assertThat(read).isEqualTo(t);
    assertThat(StoredTables.decode(StoredTables.encode(t.withTtl(null))).ttl()).isNull();
  }

  /** A description as this dialect stored it before multi-attribute keys: one HASH, one RANGE. */
  private static final String SINGLE_ATTRIBUTE_INDEX =
      "{\"Version\":1,\"TableName\":\"t-2\",\"ViewbaseTable\":\"t2\",\"TableId\":\"x\","
          + "\"CreationDateTime\":1767225600123,"
          + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
          + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
          + "{\"AttributeName\":\"g\",\"AttributeType\":\"S\"},"
          + "{\"AttributeName\":\"n\",\"AttributeType\":\"N\"}],"
          + "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":"
          + "[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"n\",\"KeyType\":\"RANGE\"}],"
          + "\"Projection\":{\"ProjectionType\":\"ALL\"},\"ViewName\":\"t2ByG\",\"CreationDateTime\":1767225600123}],"
          + "\"LocalSecondaryIndexes\":[],\"BillingMode\":\"PAY_PER_REQUEST\","
          + "\"DeletionProtectionEnabled\":false,\"Tags\":[]}";

  @Test
  void aSingleAttributeIndexStoredBeforeReadsAsOneHashAndOneRange() {
    DynamoDbTable t = StoredTables.decode(SINGLE_ATTRIBUTE_INDEX);
    DynamoDbTable.KeySchema key = t.index("byG").orElseThrow().key();
    assertThat(key)
        .isEqualTo(
            new DynamoDbTable.KeySchema(
                new DynamoDbTable.KeyAttribute("g", DynamoDbTable.AttributeType.S),
                new DynamoDbTable.KeyAttribute("n", DynamoDbTable.AttributeType.N)));
    assertThat(StoredTables.decode(StoredTables.encode(t))).isEqualTo(t);
  }

  @Test
  void aMultiAttributeIndexKeyRoundTripsInItsOrder() {
    DynamoDbTable t = StoredTables.decode(SINGLE_ATTRIBUTE_INDEX);
    DynamoDbTable.Index byG = t.index("byG").orElseThrow();
    DynamoDbTable.KeySchema multi =
        new DynamoDbTable.KeySchema(
            List.of(
                new DynamoDbTable.KeyAttribute("n", DynamoDbTable.AttributeType.N),
                new DynamoDbTable.KeyAttribute("g", DynamoDbTable.AttributeType.S)),
            List.of(
                new DynamoDbTable.KeyAttribute("pk", DynamoDbTable.AttributeType.S),
                new DynamoDbTable.KeyAttribute("g2", DynamoDbTable.AttributeType.B)));
    java.util.Map<String, DynamoDbTable.AttributeType> definitions =
        new java.util.LinkedHashMap<>(t.attributes());
    definitions.put("g2", DynamoDbTable.AttributeType.B);
    DynamoDbTable changed =
        t.withGlobalIndexes(
            List.of(
                new DynamoDbTable.Index(
                    "byG", multi, byG.projection(), null, byG.viewName(), byG.created())),
            definitions);
    DynamoDbTable read = StoredTables.decode(StoredTables.encode(changed));
    assertThat(read).isEqualTo(changed);
    assertThat(read.index("byG").orElseThrow().key().names()).containsExactly("n", "g", "pk", "g2");
  }
}
