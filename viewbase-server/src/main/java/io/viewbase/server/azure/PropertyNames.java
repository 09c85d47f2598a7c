package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.FilterDialect;
import io.viewbase.filter.Filters;

/**
 * How Azure property names map onto stored Viewbase names, on every write and every read, and how a
 * {@code $filter} written in Azure's names becomes the native filter the query runs.
 *
 * <pre>
 * Azure name                         | stored as       | why
 * -----------------------------------+-----------------+---------------------------------------------
 * id, partitionKey                   | $id, $partitionKey | Viewbase's identity fields have these names
 * _ttl                               | _ttl            | an item's own time-to-live, as natively
 * _x (any other name starting with '_') | $_x          | '_' starts Viewbase's system fields
 * $x (any name starting with '$')    | refused (400 PropertyNameInvalid), as on Azure, so no two
 *                                    |   Azure names ever share a stored name
 * anything else                      | unchanged       |
 * </pre>
 *
 * A stored {@code $x} that is not an escape (written through the native API) reads back as is. The
 * rule is {@link FilterDialect#AZURE}'s, so filters and entities agree on every name.
 */
final class PropertyNames {
  private PropertyNames() {}

  /**
   * The stored name of a property an Azure client names, refusing names no Azure client may use.
   */
  static String stored(String azureName) {
    if (azureName.startsWith(FilterDialect.ESCAPE)) {
      throw ViewbaseException.of(
          ErrorCode.InvalidPropertyName,
          "The property name is invalid: Azure property names "
              + "are identifiers and may not start with '$'",
          "property",
          azureName);
    }
    return FilterDialect.AZURE.storedName(azureName);
  }

  /** The Azure name of a stored property. */
  static String azure(String storedName) {
    return FilterDialect.AZURE.writtenName(storedName);
  }

  /**
   * A {@code $filter} in Azure's names, parsed: its tree holds stored names ({@code id eq 'x'}
   * reads {@code $id}), so {@link Filters#print} hands it on as native text with the same meaning;
   * null or blank is null. A filter that does not parse fails here, with positions in the client's
   * own text.
   */
  static Filter parseFilter(String azureFilter) {
    if (azureFilter == null || azureFilter.isBlank()) {
      return null;
    }
    return Filters.parse(azureFilter, FilterDialect.AZURE);
  }
}
