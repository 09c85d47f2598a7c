package io.viewbase.server.azure;

/**
 * The entities a service SAS may touch: from {@code (spk, srk)} to {@code (epk, erk)}, both ends
 * inclusive, ordered by partition key and then row key. A null bound is open.
 */
record KeyRange(String startPartitionKey, String startRowKey, String endPartitionKey, String endRowKey) {
  static final KeyRange ALL = new KeyRange(null, null, null, null);

  boolean contains(String partitionKey, String rowKey) {
    if (startPartitionKey != null) {
      int c = partitionKey.compareTo(startPartitionKey);
      if (c < 0 || (c == 0 && startRowKey != null && rowKey.compareTo(startRowKey) < 0)) {
        return false;
      }
    }
    if (endPartitionKey != null) {
      int c = partitionKey.compareTo(endPartitionKey);
      if (c > 0 || (c == 0 && endRowKey != null && rowKey.compareTo(endRowKey) > 0)) {
        return false;
      }
    }
    return true;
  }

  /** The range as an OData filter, or null when it is unbounded. */
  String asFilter() {
    String start = startPartitionKey == null ? null : startRowKey == null
        ? "PartitionKey ge " + literal(startPartitionKey)
        : "(PartitionKey gt " + literal(startPartitionKey) + " or (PartitionKey eq " + literal(startPartitionKey)
            + " and RowKey ge " + literal(startRowKey) + "))";
    String end = endPartitionKey == null ? null : endRowKey == null
        ? "PartitionKey le " + literal(endPartitionKey)
        : "(PartitionKey lt " + literal(endPartitionKey) + " or (PartitionKey eq " + literal(endPartitionKey)
            + " and RowKey le " + literal(endRowKey) + "))";
    if (start == null) {
      return end;
    }
    return end == null ? start : start + " and " + end;
  }

  private static String literal(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
