package io.viewbase.server.azure;

import java.nio.charset.StandardCharsets;

/**
 * The service-level operations ({@code ?restype=service&comp=properties|stats}). Viewbase has no
 * logging, metrics or CORS settings to configure, so Get Service Properties answers Azure's
 * defaults (all off), Set Service Properties accepts and ignores the document, and Get Service
 * Stats reports the secondary as live: enough for clients and tools that read them on start.
 */
final class ServiceProperties {
  private static final byte[] PROPERTIES = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>"
      + "<Logging><Version>1.0</Version><Delete>false</Delete><Read>false</Read><Write>false</Write>"
      + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></Logging>"
      + "<HourMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled>"
      + "</RetentionPolicy></HourMetrics>"
      + "<MinuteMetrics><Version>1.0</Version><Enabled>false</Enabled><RetentionPolicy><Enabled>false</Enabled>"
      + "</RetentionPolicy></MinuteMetrics><Cors /></StorageServiceProperties>").getBytes(StandardCharsets.UTF_8);

  private ServiceProperties() {
  }

  static AzureResponse handle(Call call, String method) {
    String comp = call.query().get("comp");
    if ("properties".equals(comp)) {
      if (method.equals("GET")) {
        call.grant().check(Permission.SERVICE, null);
        return AzureResponse.of(200, AzureErrors.XML_TYPE, PROPERTIES);
      }
      if (method.equals("PUT")) {
        call.grant().check(Permission.SERVICE, null);
        return AzureResponse.empty(202);
      }
    }
    if ("stats".equals(comp) && method.equals("GET")) {
      call.grant().check(Permission.SERVICE, null);
      String now = AzureTimes.httpDateNow();
      return AzureResponse.of(200, AzureErrors.XML_TYPE, ("<?xml version=\"1.0\" encoding=\"utf-8\"?>"
          + "<StorageServiceStats><GeoReplication><Status>live</Status><LastSyncTime>" + now
          + "</LastSyncTime></GeoReplication></StorageServiceStats>").getBytes(StandardCharsets.UTF_8));
    }
    throw new AzureFailure(400, "InvalidQueryParameterValue",
        "The service root answers only ?restype=service&comp=properties or comp=stats.");
  }
}
