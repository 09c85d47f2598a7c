/**
 * DynamoDB's expression languages over items of {@link
 * io.viewbase.server.dynamodb.model.AttributeValue}s: condition and filter expressions ({@link
 * io.viewbase.server.dynamodb.expr.Condition}), key condition expressions ({@link
 * io.viewbase.server.dynamodb.expr.KeyCondition}), update expressions ({@link
 * io.viewbase.server.dynamodb.expr.Update}) and projection expressions ({@link
 * io.viewbase.server.dynamodb.expr.Projection}), each parsed by {@link
 * io.viewbase.server.dynamodb.expr.Expressions} with the request's {@link
 * io.viewbase.server.dynamodb.expr.Placeholders}; and the legacy parameters (Expected,
 * AttributeUpdates, KeyConditions, QueryFilter, ScanFilter, AttributesToGet) converted into the
 * same forms by {@link io.viewbase.server.dynamodb.expr.LegacyParameters}.
 *
 * <p>Parsing is one pass over at most 4 KB of text with a bounded recursion depth, so hostile input
 * costs at most linear time. Every refusal is a {@link io.viewbase.api.ViewbaseException} with code
 * InvalidInput and DynamoDB's ValidationException message, verbatim where it is known.
 */
package io.viewbase.server.dynamodb.expr;
