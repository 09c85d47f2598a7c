/**
 * DynamoDB's data model, independent of any server: {@link
 * io.viewbase.server.dynamodb.model.AttributeValue} (the ten types and their rules), the bounded
 * JSON reader and writer the protocol uses ({@link io.viewbase.server.dynamodb.model.JsonTree}),
 * DynamoDB JSON ({@link io.viewbase.server.dynamodb.model.AttributeValues}), item size as DynamoDB
 * counts it ({@link io.viewbase.server.dynamodb.model.ItemSize}) and the order of key values
 * ({@link io.viewbase.server.dynamodb.model.KeyOrder}).
 *
 * <p>Every refusal is a {@link io.viewbase.api.ViewbaseException}: {@code InvalidInput} carries
 * DynamoDB's own ValidationException message, verbatim where it is known; {@code InvalidJson}
 * stands for DynamoDB's SerializationException (JSON that does not parse, or a member of the wrong
 * JSON type).
 */
package io.viewbase.server.dynamodb.model;
