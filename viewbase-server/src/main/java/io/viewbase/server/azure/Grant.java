package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.filter.Filter;
import io.viewbase.filter.Filters;

/**
 * What an authenticated request may do: everything (the account key, or anonymous mode), or what
 * its shared access signature grants. Each operation asks before it touches the database.
 */
sealed interface Grant permits Grant.Full, Grant.Sas {
  Grant FULL = new Full();

  /**
   * Fails with 403 unless this grant allows the operation on the table (null for service and
   * table-list operations).
   */
  void check(Permission permission, String table);

  /** Fails with 403 unless this grant allows the operation on this entity. */
  void checkEntity(Permission permission, String table, String partitionKey, String rowKey);

  /**
   * A query's filter (null: none) narrowed to the entities this grant may read: the filter itself
   * for most grants, else the conjunction of the two parsed trees.
   */
  Filter restrict(Filter filter);

  /** The account key, or anonymous mode: everything is allowed. */
  final class Full implements Grant {
    private Full() {}

    @Override
    public void check(Permission permission, String table) {}

    @Override
    public void checkEntity(
        Permission permission, String table, String partitionKey, String rowKey) {}

    @Override
    public Filter restrict(Filter filter) {
      return filter;
    }
  }

  /**
   * A verified SAS: an account SAS ({@code resourceTypes} set, {@code table} null) or a service SAS
   * for one table, optionally limited to a key range.
   *
   * @param permissions the {@code sp} letters in force (from the token or its stored policy)
   * @param resourceTypes an account SAS's {@code srt}, or null for a service SAS
   * @param table a service SAS's table ({@code tn}), or null for an account SAS
   * @param range a service SAS's key range ({@code spk, srk, epk, erk}), or {@link KeyRange#ALL}
   */
  record Sas(String permissions, String resourceTypes, String table, KeyRange range)
      implements Grant {
    boolean isAccount() {
      return resourceTypes != null;
    }

    @Override
    public void check(Permission permission, String onTable) {
      if (isAccount()) {
        if (resourceTypes.indexOf(permission.resourceType()) < 0) {
          throw ViewbaseException.of(
              ErrorCode.AuthorizationResourceTypeMismatch,
              "The account SAS's signed resource types (srt) do not include the one the operation needs",
              "resourceType",
              String.valueOf(permission.resourceType()),
              "srt",
              resourceTypes);
        }
        if (!permission.grantedByAccount(permissions)) {
          throw ViewbaseException.of(
              ErrorCode.AuthorizationPermissionMismatch,
              "The account SAS does not grant the permission the operation needs",
              "needs",
              permission.describe(true),
              "grants",
              permissions);
        }
        return;
      }
      if (!permission.allowedForServiceSas()) {
        throw new ViewbaseException(
            ErrorCode.AuthorizationResourceTypeMismatch,
            "A table SAS cannot list, create or delete tables, or read or set their access policies");
      }
      if (onTable == null || !onTable.equalsIgnoreCase(table)) {
        throw ViewbaseException.of(
            ErrorCode.AuthenticationFailed,
            "The SAS is for another table",
            "sasTable",
            table,
            "table",
            onTable);
      }
      if (!permission.grantedByService(permissions)) {
        throw ViewbaseException.of(
            ErrorCode.AuthorizationPermissionMismatch,
            "The SAS does not grant the permission the operation needs",
            "needs",
            permission.describe(false),
            "grants",
            permissions);
      }
    }

    @Override
    public void checkEntity(
        Permission permission, String onTable, String partitionKey, String rowKey) {
      check(permission, onTable);
      if (!range.contains(partitionKey, rowKey)) {
        throw new ViewbaseException(
            ErrorCode.AuthorizationPermissionMismatch,
            "The entity's keys lie outside the SAS's key range");
      }
    }

    @Override
    public Filter restrict(Filter filter) {
      return Filters.and(filter, range.asFilter());
    }
  }
}
