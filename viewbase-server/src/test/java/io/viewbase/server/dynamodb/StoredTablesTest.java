package io.viewbase.server.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.server.dynamodb.DynamoDbTable.Stream;
import io.viewbase.server.dynamodb.DynamoDbTable.TimeToLive;
import io.viewbase.server.dynamodb.DynamoDbTable.TtlStatus;
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
}
