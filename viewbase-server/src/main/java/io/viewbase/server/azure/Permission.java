package io.viewbase.server.azure;

/**
 * What an operation needs from a SAS, in Azure's permission letters, and which resource type an
 * account SAS must cover ({@code srt}: s service, c container = table, o object = entity).
 *
 * <pre>
 * operation     | service SAS (sp) | account SAS (srt, sp)
 * --------------+------------------+-------------------------------
 * LIST_TABLES   | refused          | c, l
 * CREATE_TABLE  | refused          | c, c or w
 * DELETE_TABLE  | refused          | c, d
 * READ          | r                | o, r
 * INSERT        | a                | o, a or w
 * UPDATE        | u                | o, u or w
 * UPSERT        | a and u          | o, (a or w) and (u or w)
 * DELETE        | d                | o, d
 * GET_ACL       | refused          | c, r
 * SET_ACL       | refused          | c, w
 * SERVICE       | refused          | s, r
 * </pre>
 */
enum Permission {
  LIST_TABLES(null, 'c', "l"),
  CREATE_TABLE(null, 'c', "c|w"),
  DELETE_TABLE(null, 'c', "d"),
  READ("r", 'o', "r"),
  INSERT("a", 'o', "a|w"),
  UPDATE("u", 'o', "u|w"),
  UPSERT("au", 'o', "a|w,u|w"),
  DELETE("d", 'o', "d"),
  GET_ACL(null, 'c', "r"),
  SET_ACL(null, 'c', "w"),
  SERVICE(null, 's', "r");

  private final String serviceLetters;
  private final char resourceType;
  private final String accountRule;

  Permission(String serviceLetters, char resourceType, String accountRule) {
    this.serviceLetters = serviceLetters;
    this.resourceType = resourceType;
    this.accountRule = accountRule;
  }

  /**
   * Whether a service (table) SAS can ever grant this: table-level operations need the account key.
   */
  boolean allowedForServiceSas() {
    return serviceLetters != null;
  }

  /** Whether a service SAS with these permission letters grants this operation. */
  boolean grantedByService(String sp) {
    for (int i = 0; i < serviceLetters.length(); i++) {
      if (sp.indexOf(serviceLetters.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }

  char resourceType() {
    return resourceType;
  }

  /**
   * Whether an account SAS with these permission letters grants this operation: every group needs
   * one letter.
   */
  boolean grantedByAccount(String sp) {
    for (String group : accountRule.split(",")) {
      boolean any = false;
      for (String letter : group.split("\\|")) {
        any |= sp.indexOf(letter.charAt(0)) >= 0;
      }
      if (!any) {
        return false;
      }
    }
    return true;
  }

  /** The letters this operation needs, for error messages. */
  String describe(boolean account) {
    return account ? accountRule.replace("|", " or ").replace(",", " and ") : serviceLetters;
  }
}
