package io.viewbase.server.dynamodb;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * What the time-to-live and streams suites share: the SDK clients of a server, a table keyed by
 * {@code pk} (S) and {@code sk} (N) with a global index on {@code g}, and reading a stream.
 */
final class SdkTables {
  private SdkTables() {}

  static DynamoDbClient dynamo(int port) {
    return DynamoDbClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  static DynamoDbStreamsClient streams(int port) {
    return DynamoDbStreamsClient.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .credentialsProvider(credentials())
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  private static StaticCredentialsProvider credentials() {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(DynamoDbOptions.LOCAL_KEY_ID, DynamoDbOptions.LOCAL_SECRET));
  }

  /** Creates the table; with a stream of {@code viewType} unless it is null. */
  static void create(DynamoDbClient client, String name, StreamViewType viewType) {
    client.createTable(
        b -> {
          b.tableName(name)
              .billingMode(BillingMode.PAY_PER_REQUEST)
              .attributeDefinitions(
                  definition("pk", ScalarAttributeType.S),
                  definition("sk", ScalarAttributeType.N),
                  definition("g", ScalarAttributeType.S))
              .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
              .globalSecondaryIndexes(
                  GlobalSecondaryIndex.builder()
                      .indexName("byG")
                      .keySchema(key("g", KeyType.HASH))
                      .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                      .build());
          if (viewType != null) {
            b.streamSpecification(
                StreamSpecification.builder().streamEnabled(true).streamViewType(viewType).build());
          }
        });
  }

  private static AttributeDefinition definition(String name, ScalarAttributeType type) {
    return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  /** The table's stream ARN, as DescribeTable gives it. */
  static String streamArn(DynamoDbClient client, String table) {
    return client.describeTable(b -> b.tableName(table)).table().latestStreamArn();
  }

  /** The stream's one shard. */
  static String shardId(DynamoDbStreamsClient streams, String arn) {
    return streams
        .describeStream(b -> b.streamArn(arn))
        .streamDescription()
        .shards()
        .get(0)
        .shardId();
  }

  static String iterator(
      DynamoDbStreamsClient streams, String arn, ShardIteratorType type, String sequence) {
    String shard = shardId(streams, arn);
    return streams
        .getShardIterator(
            b -> b.streamArn(arn).shardId(shard).shardIteratorType(type).sequenceNumber(sequence))
        .shardIterator();
  }

  /** Every record from TRIM_HORIZON to the latest, page after page. */
  static List<Record> all(DynamoDbStreamsClient streams, String arn) {
    return readToEnd(streams, iterator(streams, arn, ShardIteratorType.TRIM_HORIZON, null));
  }

  /** Every record from an iterator to the latest: pages until one is empty. */
  static List<Record> readToEnd(DynamoDbStreamsClient streams, String iterator) {
    List<Record> records = new ArrayList<>();
    String next = iterator;
    while (true) {
      String at = next;
      GetRecordsResponse page = streams.getRecords(b -> b.shardIterator(at));
      records.addAll(page.records());
      next = page.nextShardIterator();
      if (page.records().isEmpty()) {
        return records;
      }
    }
  }
}
