package io.viewbase.server.dynamodb;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.dynamodb.DynamoDbTable.TimeToLive;
import io.viewbase.server.dynamodb.DynamoDbTable.TtlStatus;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DynamoDB's time to live: UpdateTimeToLive and DescribeTimeToLive. The specification is kept in
 * the table's description ({@link DynamoDbTable#ttl}); while it is enabled every write through the
 * dialect sets the item's Viewbase {@code _ttl} from the attribute it names ({@link TtlAttribute}),
 * and a background pass ({@link TtlPasses}) brings the items written before in line.
 *
 * <pre>
 * UpdateTimeToLive          | TTL now                        | answer
 * --------------------------+--------------------------------+--------------------------------------
 * Enabled true, A           | disabled                       | ENABLING, a pass setting _ttl; {A, true}
 *                           | enabled or enabling, on A      | ValidationException "TimeToLive is
 *                           |                                |   already enabled"
 *                           | enabled or enabling, on B      | ValidationException "TimeToLive is active
 *                           |                                |   on a different AttributeName: current
 *                           |                                |   AttributeName is B"
 *                           | disabling                      | ValidationException "Time to live has
 *                           |                                |   been modified multiple times within a
 *                           |                                |   fixed interval"
 * Enabled false, A          | enabled on A                   | DISABLING, a pass removing _ttl; {false}
 *                           | enabled or enabling, on B      | "…active on a different AttributeName…"
 *                           | enabling on A                  | "…modified multiple times…"
 *                           | disabled or disabling          | ValidationException "TimeToLive is
 *                           |                                |   already disabled"
 * </pre>
 *
 * DynamoDB also refuses a second change within an hour of the first; Viewbase refuses one only
 * while the pass of the first runs (DescribeTimeToLive says ENABLING or DISABLING), and accepts it
 * once the status is ENABLED or DISABLED.
 */
final class TtlOperations {
  private final DynamoDbTables tables;
  private final TtlPasses passes;

  TtlOperations(DynamoDbTables tables, TtlPasses passes) {
    this.tables = tables;
    this.passes = passes;
  }

  /** The operations by name. */
  Map<String, DynamoDbOperation> operations() {
    Map<String, DynamoDbOperation> ops = new LinkedHashMap<>();
    ops.put("UpdateTimeToLive", (body, call) -> updateTimeToLive(RequestTree.of(body)));
    ops.put("DescribeTimeToLive", (body, call) -> describeTimeToLive(RequestTree.of(body)));
    return ops;
  }

  Object describeTimeToLive(RequestTree r) {
    String name = r.string("TableName");
    Violations v = new Violations();
    TableRequests.checkTableName(v, name, "tableName");
    v.check();
    TimeToLive ttl = tables.describe(name).ttl();
    Map<String, Object> d = new LinkedHashMap<>();
    if (ttl == null) {
      d.put("TimeToLiveStatus", "DISABLED");
    } else {
      d.put("TimeToLiveStatus", ttl.status().name());
      d.put("AttributeName", ttl.attribute());
    }
    return Map.of("TimeToLiveDescription", d);
  }

  Object updateTimeToLive(RequestTree r) {
    String name = r.string("TableName");
    RequestTree spec = r.structure("TimeToLiveSpecification");
    Violations v = new Violations();
    TableRequests.checkTableName(v, name, "tableName");
    v.notNull(spec, "timeToLiveSpecification");
    if (spec != null) {
      v.notNull(spec.bool("Enabled"), "timeToLiveSpecification.enabled");
      v.notNull(spec.string("AttributeName"), "timeToLiveSpecification.attributeName");
      v.length(spec.string("AttributeName"), "timeToLiveSpecification.attributeName", 0, 255);
    }
    v.check();
    String attribute = spec.string("AttributeName");
    if (attribute.isEmpty()) {
      throw invalid("TimeToLiveSpecification.AttributeName must be non empty");
    }
    AttributeNames.property(attribute); // refuses a name Viewbase cannot store, as a write would
    boolean enable = spec.bool("Enabled");
    DynamoDbTable changed = tables.update(name, t -> t.withTtl(next(t.ttl(), enable, attribute)));
    passes.start(changed.name());
    Map<String, Object> answer = new LinkedHashMap<>();
    if (enable) {
      answer.put("AttributeName", attribute);
    }
    answer.put("Enabled", enable);
    return Map.of("TimeToLiveSpecification", answer);
  }

  /** The specification after a change (the table above), or the refusal. */
  private static TimeToLive next(TimeToLive now, boolean enable, String attribute) {
    boolean active = now != null && now.status() != TtlStatus.DISABLING;
    if (active && !now.attribute().equals(attribute)) {
      throw invalid(
          "TimeToLive is active on a different AttributeName: current AttributeName is "
              + now.attribute());
    }
    if (enable) {
      if (active) {
        throw invalid("TimeToLive is already enabled");
      }
      if (now != null) {
        throw modifiedTooOften();
      }
      return new TimeToLive(attribute, TtlStatus.ENABLING);
    }
    if (!active) {
      throw invalid("TimeToLive is already disabled");
    }
    if (now.status() == TtlStatus.ENABLING) {
      throw modifiedTooOften();
    }
    return new TimeToLive(attribute, TtlStatus.DISABLING);
  }

  private static ViewbaseException modifiedTooOften() {
    return invalid("Time to live has been modified multiple times within a fixed interval");
  }

  private static ViewbaseException invalid(String message) {
    return ViewbaseException.of(ErrorCode.ValidationFailure, message);
  }
}
