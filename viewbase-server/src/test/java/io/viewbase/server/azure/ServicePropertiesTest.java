package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Get and Set Table Service Properties without a socket: what is stored, merged, and refused. */
class ServicePropertiesTest {
  private static final String PATH = "/?restype=service&comp=properties";
  private static final String LOGGING_ON =
      "<Logging><Version>1.0</Version><Delete>true</Delete><Read>false</Read>"
          + "<Write>true</Write><RetentionPolicy><Enabled>true</Enabled><Days>7</Days></RetentionPolicy></Logging>";
  private static final String ONE_RULE =
      "<Cors><CorsRule><AllowedOrigins>http://a.example</AllowedOrigins>"
          + "<AllowedMethods>GET,PUT</AllowedMethods><MaxAgeInSeconds>60</MaxAgeInSeconds>"
          + "<ExposedHeaders>x-ms-*</ExposedHeaders><AllowedHeaders>x-ms-meta*,content-type</AllowedHeaders></CorsRule></Cors>";

  private Database db;
  private AzureApi api;

  @BeforeEach
  void open() {
    db = Viewbase.open(OpenOptions.inMemory());
    api = new AzureApi(db, AzureOptions.defaults());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private AzureResponse set(String body) {
    return api.handle(
        SignedRequests.of("PUT", PATH)
            .header("content-type", "application/xml")
            .body(body)
            .build());
  }

  private static String document(String parts) {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><StorageServiceProperties>"
        + parts
        + "</StorageServiceProperties>";
  }

  private String get() {
    AzureResponse r = api.handle(SignedRequests.of("GET", PATH).build());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.contentType()).isEqualTo("application/xml");
    return r.bodyText();
  }

  @Test
  void getAnswersAzuresDefaultsUntilASet() {
    assertThat(get())
        .isEqualTo(
            new String(
                ServicePropertiesXml.write(StorageServiceProperties.DEFAULTS),
                java.nio.charset.StandardCharsets.UTF_8))
        .contains("<Cors />", "<Logging><Version>1.0</Version>");
  }

  @Test
  void aSetIsStoredAndThePartsItLeavesOutKeepTheirValues() {
    assertThat(set(document(LOGGING_ON + ONE_RULE)).status()).isEqualTo(202);
    assertThat(
            set(document(
                    "<HourMetrics><Version>1.0</Version><Enabled>true</Enabled><IncludeAPIs>false"
                        + "</IncludeAPIs><RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>"))
                .status())
        .isEqualTo(202);

    String stored = get();

    assertThat(stored)
        .contains(
            LOGGING_ON,
            "<HourMetrics><Version>1.0</Version><Enabled>true</Enabled>"
                + "<IncludeAPIs>false</IncludeAPIs>",
            "<AllowedOrigins>http://a.example</AllowedOrigins>",
            "<AllowedMethods>GET,PUT</AllowedMethods>",
            "<MaxAgeInSeconds>60</MaxAgeInSeconds>",
            "<AllowedHeaders>x-ms-meta*,content-type</AllowedHeaders>",
            "<ExposedHeaders>x-ms-*</ExposedHeaders>");
    assertThat(db.setting(null, ServiceProperties.SETTING)).contains(stored);
    assertThat(set(document("<Cors/>")).status()).isEqualTo(202);
    assertThat(get()).contains("<Cors />", LOGGING_ON);
  }

  @Test
  void documentsAzureRefusesAre400AndChangeNothing() {
    set(document(LOGGING_ON + ONE_RULE));
    String before = get();
    String rule =
        "<CorsRule><AllowedOrigins>*</AllowedOrigins><AllowedMethods>GET</AllowedMethods>"
            + "<MaxAgeInSeconds>5</MaxAgeInSeconds></CorsRule>";

    assertRefused("InvalidXmlDocument", document("<Cors>" + rule.repeat(6) + "</Cors>"));
    assertRefused("InvalidXmlNodeValue", document(ONE_RULE.replace("GET,PUT", "GET,CONNECT")));
    assertRefused("InvalidXmlNodeValue", document(ONE_RULE.replace("GET,PUT", "get")));
    assertRefused("InvalidXmlNodeValue", document(ONE_RULE.replace(">60<", ">-1<")));
    assertRefused("InvalidXmlNodeValue", document(ONE_RULE.replace(">60<", ">soon<")));
    assertRefused("InvalidXmlNodeValue", document(ONE_RULE.replace("http://a.example", "")));
    assertRefused(
        "InvalidXmlNodeValue", document(ONE_RULE.replace("http://a.example", "x".repeat(257))));
    assertRefused(
        "InvalidXmlNodeValue", document(ONE_RULE.replace("x-ms-meta*,content-type", "a*,b*,c*")));
    String twoLongOrigins = "http://" + "o".repeat(200) + ",http://" + "p".repeat(200);
    assertRefused(
        "InvalidXmlNodeValue",
        document(
            "<Cors>"
                + rule.replace("*", twoLongOrigins).repeat(5)
                + "</Cors>")); // over 2 KiB of values in all
    assertRefused(
        "InvalidXmlDocument",
        document(ONE_RULE.replace("<AllowedOrigins>http://a.example</AllowedOrigins>", "")));
    assertRefused(
        "InvalidXmlDocument",
        document(ONE_RULE.replace("<MaxAgeInSeconds>60</MaxAgeInSeconds>", "")));
    assertRefused("InvalidXmlNodeValue", document(LOGGING_ON.replace(">7<", ">366<")));
    assertRefused("InvalidXmlNodeValue", document(LOGGING_ON.replace(">7<", ">0<")));
    assertRefused(
        "InvalidXmlNodeValue", document(LOGGING_ON.replace("<Version>1.0", "<Version>2.0")));
    assertRefused(
        "InvalidXmlNodeValue", document(LOGGING_ON.replace("<Delete>true", "<Delete>yes")));
    assertRefused("InvalidXmlDocument", document(LOGGING_ON.replace("<Read>false</Read>", "")));
    assertRefused(
        "InvalidXmlDocument",
        document(
            "<HourMetrics><Version>1.0</Version><Enabled>true</Enabled>"
                + "<RetentionPolicy><Enabled>false</Enabled></RetentionPolicy></HourMetrics>")); // no IncludeAPIs
    assertRefused("InvalidXmlDocument", "<Other/>");
    assertRefused("InvalidXmlDocument", "");
    assertRefused("InvalidXmlDocument", document("<Cors>"));

    assertThat(get()).isEqualTo(before);
  }

  @Test
  void aDocumentWithADtdOrAnEntityIsRefusedAndNothingIsRead() {
    String xxe =
        "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
            + "<StorageServiceProperties><Cors><CorsRule><AllowedOrigins>&e;</AllowedOrigins>"
            + "<AllowedMethods>GET</AllowedMethods><MaxAgeInSeconds>1</MaxAgeInSeconds></CorsRule></Cors>"
            + "</StorageServiceProperties>";

    AzureResponse r = set(xxe);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.bodyText()).doesNotContain("root:");
    assertThat(get()).contains("<Cors />");
  }

  @Test
  void aBodyOverTheLimitIsRefusedWith413() {
    AzureResponse r =
        set(document("<Logging>" + " ".repeat(ServicePropertiesXml.MAX_BYTES) + "</Logging>"));

    assertThat(r.status()).isEqualTo(413);
    assertThat(r.header("x-ms-error-code")).isEqualTo("RequestBodyTooLarge");
  }

  private void assertRefused(String code, String body) {
    AzureResponse r = set(body);
    assertThat(r.status()).as("%s", body).isEqualTo(400);
    assertThat(r.header("x-ms-error-code")).as("%s", body).isEqualTo(code);
    assertThat(r.contentType()).isEqualTo("application/xml");
  }
}
