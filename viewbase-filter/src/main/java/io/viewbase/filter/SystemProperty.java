package io.viewbase.filter;

import io.viewbase.api.Stability;

/**
 * A property every item has outside its user properties. Each has an Azure name and a native name,
 * both accepted in a filter; {@link Filters#system(String)} tells which one a name means.
 *
 * <table>
 *   <caption>Names and values</caption>
 *   <tr><th>constant</th><th>Azure name</th><th>native name</th><th>value in a comparison</th></tr>
 *   <tr><td>PARTITION_KEY</td><td>PartitionKey</td><td>partitionKey</td><td>the partition key, a string</td></tr>
 *   <tr><td>ID</td><td>RowKey</td><td>id</td><td>the id, a string</td></tr>
 *   <tr><td>TIMESTAMP</td><td>Timestamp</td><td>_timestamp</td><td>the time of the last write, a DateTime</td></tr>
 * </table>
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum SystemProperty {
  PARTITION_KEY("PartitionKey", "partitionKey"),
  ID("RowKey", "id"),
  TIMESTAMP("Timestamp", "_timestamp");

  private final String azureName;
  private final String nativeName;

  SystemProperty(String azureName, String nativeName) {
    this.azureName = azureName;
    this.nativeName = nativeName;
  }

  public String azureName() {
    return azureName;
  }

  public String nativeName() {
    return nativeName;
  }
}
