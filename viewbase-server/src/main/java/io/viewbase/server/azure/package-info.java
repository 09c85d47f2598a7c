/**
 * The Azure Table Storage dialect: the REST protocol the official Azure Tables SDKs speak,
 * translated onto a Viewbase {@link io.viewbase.api.Database}. {@link
 * io.viewbase.server.azure.AzureTablesServer} is the listener, {@link
 * io.viewbase.server.azure.AzureApi} the socket-free translation.
 */
package io.viewbase.server.azure;
