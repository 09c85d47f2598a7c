/**
 * The Amazon DynamoDB dialect: the JSON 1.0 protocol the AWS SDKs, the AWS CLI and libraries such
 * as ElectroDB speak, translated onto a Viewbase {@link io.viewbase.api.Database}. {@link
 * io.viewbase.server.dynamodb.DynamoDbServer} is the listener; {@link
 * io.viewbase.server.dynamodb.DynamoDbApi} the socket-free translation, which serves each operation
 * from a registry ({@link io.viewbase.server.dynamodb.DynamoDbOperation}); a DynamoDB table is a
 * Viewbase table whose description is a catalog setting ({@link
 * io.viewbase.server.dynamodb.DynamoDbTables}), and each of its indexes a copy view.
 */
package io.viewbase.server.dynamodb;
