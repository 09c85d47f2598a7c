package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.util.List;

/**
 * Get and Set Table ACL ({@code ?comp=acl}): a table's stored access policies as Azure's XML. GET
 * answers 200 with the policies (an empty list if none were set); PUT replaces them all (an empty
 * body clears them) and answers 204. Errors here are XML, as Azure sends them.
 */
final class AclEndpoints {
  private final TableEndpoints tables;
  private final AclStore acls;

  AclEndpoints(Database db, TableEndpoints tables, AclStore acls) {
    this.tables = tables;
    this.acls = acls;
  }

  AzureResponse get(Call call, boolean withBody) {
    String name = existing(call, Permission.GET_ACL);
    byte[] xml = SignedIdentifiersXml.write(acls.get(name));
    return AzureResponse.of(200, AzureErrors.XML_TYPE, withBody ? xml : new byte[0]);
  }

  AzureResponse set(Call call) {
    String name = existing(call, Permission.SET_ACL);
    List<AccessPolicy> policies = SignedIdentifiersXml.read(call.request().body());
    acls.set(name, policies);
    return AzureResponse.empty(204);
  }

  private String existing(Call call, Permission permission) {
    call.grant().check(permission, call.path().table());
    var info = tables.find(call.path().table());
    if (info == null) {
      throw ViewbaseException.of(
          ErrorCode.TableNotFound, "Table not found", "table", call.path().table());
    }
    return info.name();
  }
}
