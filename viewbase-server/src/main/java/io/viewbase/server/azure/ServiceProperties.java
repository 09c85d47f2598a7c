package io.viewbase.server.azure;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.server.HttpDate;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The service-level operations ({@code ?restype=service&comp=properties|stats}), XML as on Azure.
 *
 * <pre>
 * request                 | answer
 * ------------------------+-------------------------------------------------------------------------
 * GET  comp=properties    | 200 + the stored StorageServiceProperties (Azure's defaults, all off, until a Set)
 * PUT  comp=properties    | 202 once stored; the parts the document leaves out keep their stored
 *                         |   values; a document Azure would refuse is 400 and changes nothing
 *                         |   ({@link ServicePropertiesXml}); the CORS rules apply at once ({@link Cors})
 * GET  comp=stats         | 200, the secondary reported live, on the secondary endpoint; 400 on the primary
 * </pre>
 *
 * The properties are the database's setting {@value #SETTING} (the whole document, as Get answers
 * it), so they survive restarts and every server of a shared store reads the same. Two Sets at once
 * through this server are applied one after the other; through two servers, the later write wins
 * whole. Logging and metrics are kept and returned only: Viewbase logs and measures nothing for
 * them.
 */
final class ServiceProperties {
  static final String SETTING = "azure.service.properties";

  private final Database db;
  private final Cors cors;

  ServiceProperties(Database db, Cors cors) {
    this.db = db;
    this.cors = cors;
  }

  /**
   * The stored properties, or Azure's defaults if none were set (or the database keeps no
   * settings).
   */
  static StorageServiceProperties stored(Database db) {
    return storedXml(db)
        .map(xml -> ServicePropertiesXml.read(xml.getBytes(StandardCharsets.UTF_8)))
        .orElse(StorageServiceProperties.DEFAULTS);
  }

  private static Optional<String> storedXml(Database db) {
    try {
      return db.setting(null, SETTING);
    } catch (ViewbaseException e) {
      if (e.code() == ErrorCode.NotImplemented) {
        return Optional.empty();
      }
      throw e;
    }
  }

  AzureResponse handle(Call call, String method) {
    String comp = call.query().get("comp");
    if ("properties".equals(comp)) {
      if (method.equals("GET")) {
        call.grant().check(Permission.SERVICE, null);
        byte[] xml =
            storedXml(db)
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> ServicePropertiesXml.write(StorageServiceProperties.DEFAULTS));
        return AzureResponse.of(200, AzureErrors.XML_TYPE, xml);
      }
      if (method.equals("PUT")) {
        call.grant().check(Permission.SERVICE, null);
        set(ServicePropertiesXml.read(call.request().body()));
        return AzureResponse.empty(202);
      }
    }
    if ("stats".equals(comp) && method.equals("GET")) {
      call.grant().check(Permission.SERVICE, null);
      if (!call.path().secondary()) {
        throw ViewbaseException.of(
            ErrorCode.InvalidQueryParameterValue,
            "Get Table Service Stats is answered by " + "the secondary endpoint only",
            "endpoint",
            call.path().account() + ResourcePath.SECONDARY);
      }
      String now = HttpDate.now();
      return AzureResponse.of(
          200,
          AzureErrors.XML_TYPE,
          ("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                  + "<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>"
                  + now
                  + "</LastSyncTime></GeoReplication></StorageServiceStats>")
              .getBytes(StandardCharsets.UTF_8));
    }
    throw ViewbaseException.of(
        ErrorCode.InvalidQueryParameterValue,
        "The service root answers only ?restype=service&comp=properties or comp=stats",
        "method",
        method,
        "comp",
        comp);
  }

  /**
   * Merges a checked document over the stored one and stores the whole; serialized so no part is
   * lost.
   */
  private synchronized void set(StorageServiceProperties update) {
    StorageServiceProperties merged = update.over(stored(db));
    db.putSetting(
        null, SETTING, new String(ServicePropertiesXml.write(merged), StandardCharsets.UTF_8));
    cors.changed(merged.cors());
  }
}
