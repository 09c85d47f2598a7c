package io.viewbase.server.dynamodb;

import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The names of a DynamoDB table's stream as the dialect gives them: the stream's ARN, the id of its
 * one shard, and its records' sequence numbers, each derived from what the table's description and
 * change feed hold, so that every server names them alike.
 *
 * <pre>
 * name             | form                                                   | from
 * -----------------+--------------------------------------------------------+----------------------
 * stream ARN       | arn:aws:dynamodb:REGION:ACCOUNT:table/NAME/stream/LABEL | the request's region,
 *                  |                                                        |   the account, the label
 * shard id         | shardId-{label's epoch milliseconds, 20 digits}-{8 hex} | the label, the table id
 * sequence number  | 10^20 + the change feed's sequence number: 21 digits,  | the feed entry
 *                  |   "100000000000000000042" for entry 42                 |
 * </pre>
 *
 * Sequence numbers are decimal strings of at least 21 digits, as DynamoDB's, ordered as numbers
 * (and, being all 21 digits long until entry 9 × 10^20, as strings too).
 */
final class StreamNames {
  private static final BigInteger BASE = BigInteger.TEN.pow(20);
  private static final BigInteger MAX = BASE.add(BigInteger.valueOf(Long.MAX_VALUE));
  private static final DateTimeFormatter LABEL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS", Locale.ROOT);

  private StreamNames() {}

  /**
   * What a stream ARN names.
   *
   * @param table the DynamoDB table's name
   * @param label the stream's label
   */
  record Arn(String table, String label) {}

  /** The ARN of a table's stream, in the request's region. */
  static String arn(CallContext call, DynamoDbTable table) {
    return call.tableArn(table.name()) + "/stream/" + table.stream().label();
  }

  /** The table and label a stream ARN names, or empty for a string that is not one. */
  static Optional<Arn> parse(String arn) {
    String[] parts = arn.split(":", 6);
    if (parts.length != 6
        || !parts[0].equals("arn")
        || !parts[2].equals("dynamodb")
        || !parts[5].startsWith("table/")) {
      return Optional.empty();
    }
    String rest = parts[5].substring("table/".length());
    int at = rest.indexOf("/stream/");
    if (at < 0) {
      return Optional.empty();
    }
    String table = rest.substring(0, at);
    String label = rest.substring(at + "/stream/".length());
    if (!TableNames.DYNAMODB.matcher(table).matches() || label.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Arn(table, label));
  }

  /** The id of a table's stream's one shard. */
  static String shardId(DynamoDbTable table) {
    long millis;
    try {
      millis =
          LocalDateTime.parse(table.stream().label(), LABEL)
              .toInstant(ZoneOffset.UTC)
              .toEpochMilli();
    } catch (DateTimeParseException e) {
      millis = 0;
    }
    String id = table.tableId().replace("-", "");
    return String.format(Locale.ROOT, "shardId-%020d-%s", millis, id.substring(0, 8));
  }

  /** The sequence number of change-feed entry {@code feedSequence}. */
  static String sequenceNumber(long feedSequence) {
    return BASE.add(BigInteger.valueOf(feedSequence)).toString();
  }

  /** The change-feed entry a sequence number names, or empty for a string that names none. */
  static OptionalLong feedSequence(String sequenceNumber) {
    if (sequenceNumber.isEmpty() || !sequenceNumber.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return OptionalLong.empty();
    }
    BigInteger n = new BigInteger(sequenceNumber);
    if (n.compareTo(BASE) <= 0 || n.compareTo(MAX) > 0) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(n.subtract(BASE).longValueExact());
  }
}
