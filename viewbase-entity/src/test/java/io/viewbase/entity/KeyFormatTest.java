package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The key format of issue 7, byte for byte, computed by the client and by the database. */
class KeyFormatTest {
  record Organization(String organizationId, String name) {}

  static final Entity<Organization> ORGANIZATIONS =
      Entity.define("organization", Organization.class)
          .service("platform")
          .version("1")
          .attribute(Attribute.string("organizationId").required())
          .attribute(Attribute.string("name").required())
          .index(Index.primary("byId").namespace("organization").pk("organizationId"))
          .index(Index.secondary("all").namespace("organizations", "all").sk("name"))
          .build();

  @Test
  void primaryIndexWithNamespaceRendersTheIssuesFirstExample() {
    IndexLayout byId = ORGANIZATIONS.layout("byId");
    var values = ORGANIZATIONS.mapper().keyValues(Map.of("organizationId", "293819"));
    assertThat(byId.pk().render(values)).isEqualTo("$platform#organization#organizationid_293819");
    assertThat(byId.sk().render(values)).isEqualTo("$organization_1");
  }

  @Test
  void secondaryIndexWithNamespaceArrayRendersTheIssuesSecondExample() {
    IndexLayout all = ORGANIZATIONS.layout("all");
    var values = ORGANIZATIONS.mapper().keyValues(Map.of("name", "Acme"));
    assertThat(all.pk().render(values)).isEqualTo("$platform#organizations#all");
    assertThat(all.sk().render(values)).isEqualTo("$organization_1#name_Acme");
    var view = all.view("Platform", "organization");
    assertThat(view.partitionBy()).isEqualTo("$platform#organizations#all");
    assertThat(view.idBy()).isEqualTo("$organization_1#name_{name}#{partitionKey}#{id}");
    assertThat(view.where()).isEqualTo("vb_service eq 'platform' and vb_entity eq 'organization'");
  }

  @Test
  void bothExamplesAreTheKeysTheDatabaseStores() {
    try (Database db = Viewbase.open(OpenOptions.inMemory())) {
      Service platform = Service.define("platform").entity(ORGANIZATIONS).build();
      ServiceTable table = platform.open(db, "Platform", Duration.ofSeconds(30));
      table.entity(ORGANIZATIONS).create(new Organization("293819", "Acme"));

      var item =
          db.table("Platform")
              .get("$platform#organization#organizationid_293819", "$organization_1");
      assertThat(item).isPresent();
      var entries =
          db.table(table.viewName(ORGANIZATIONS, "all"))
              .query(io.viewbase.api.Query.partition("$platform#organizations#all"))
              .items();
      assertThat(entries)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.partitionKey()).isEqualTo("$platform#organizations#all");
                assertThat(e.id())
                    .isEqualTo(
                        "$organization_1#name_Acme#$platform#organization#organizationid_293819#$organization_1");
              });
    }
  }

  @Test
  void labelsAreLowerCasedAndValuesKeepTheirCase() {
    IndexLayout all = ORGANIZATIONS.layout("all");
    var values = ORGANIZATIONS.mapper().keyValues(Map.of("name", "MiXeD Case"));
    assertThat(all.sk().render(values)).isEqualTo("$organization_1#name_MiXeD Case");
  }

  @Test
  void casingLowerLowerCasesTheWholeKeyOnBothSides() {
    Entity<Map<String, Object>> users =
        Entity.define("User")
            .service("Platform")
            .version("2")
            .attribute(Attribute.string("email"))
            .attribute(Attribute.string("userId"))
            .index(Index.primary("byId").pk("userId"))
            .index(
                Index.secondary("byEmail")
                    .namespace("Users")
                    .sk("email")
                    .casing(Casing.LOWER)
                    .unique())
            .build();
    IndexLayout byEmail = users.layout("byEmail");
    var values = users.mapper().keyValues(Map.of("email", "Ann@Example.COM"));
    assertThat(byEmail.pk().render(values)).isEqualTo("$platform#users");
    assertThat(byEmail.sk().render(values)).isEqualTo("$user_2#email_ann@example.com");
    assertThat(byEmail.view("T", "User").idBy()).isEqualTo("$user_2#email_{email|lower}");
  }

  @Test
  void paddingLeftPadsNumbersWithZeros() {
    Entity<Map<String, Object>> jobs =
        Entity.define("job")
            .service("ops")
            .attribute(Attribute.number("priority").padding(5))
            .attribute(Attribute.string("jobId"))
            .index(Index.primary("byId").pk("jobId").sk("priority"))
            .build();
    var values = jobs.mapper().keyValues(Map.of("jobId", "j", "priority", 42));
    assertThat(jobs.primary().sk().render(values)).isEqualTo("$job_1#priority_00042");
    assertThat(jobs.primary().sk().viewTemplate()).isEqualTo("$job_1#priority_{priority:5}");
  }

  @Test
  void templateKeysAreWrittenOutByHand() {
    Entity<Map<String, Object>> orgs =
        Entity.define("organization")
            .service("platform")
            .attribute(Attribute.string("organizationId"))
            .index(
                Index.primary("byId")
                    .pk(KeyDefinition.template("org#${organizationId}"))
                    .sk(KeyDefinition.template("org")))
            .build();
    var values = orgs.mapper().keyValues(Map.of("organizationId", "7"));
    assertThat(orgs.primary().pk().render(values)).isEqualTo("org#7");
    assertThat(orgs.primary().sk().render(values)).isEqualTo("org");
  }

  @Test
  void collectionMembersWithDifferentNamespacesAreRefusedWhenTheServiceIsBuilt() {
    Entity<Map<String, Object>> orgs =
        Entity.define("organization")
            .service("platform")
            .attribute(Attribute.string("organizationId"))
            .index(
                Index.primary("byId")
                    .namespace("organization")
                    .pk("organizationId")
                    .collection("workspace"))
            .build();
    Entity<Map<String, Object>> users =
        Entity.define("user")
            .service("platform")
            .attribute(Attribute.string("organizationId"))
            .attribute(Attribute.string("userId"))
            .index(
                Index.primary("byOrg")
                    .namespace("user")
                    .pk("organizationId")
                    .sk("userId")
                    .collection("workspace"))
            .build();

    assertThatThrownBy(() -> Service.define("platform").entity(orgs).entity(users).build())
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
              assertThat(e.getMessage())
                  .contains(
                      "collection 'workspace'",
                      "'organization'",
                      "'user'",
                      "[organization]",
                      "[user]");
              assertThat(e.context())
                  .containsEntry("collection", "workspace")
                  .containsEntry("entities", "organization, user")
                  .containsEntry("namespaces", "[organization] vs [user]");
            });
  }

  @Test
  void collectionMembersWithTheSameNamespaceBuild() {
    Entity<Map<String, Object>> orgs =
        Entity.define("organization")
            .service("platform")
            .attribute(Attribute.string("organizationId"))
            .index(
                Index.primary("byId").namespace("org").pk("organizationId").collection("workspace"))
            .build();
    Entity<Map<String, Object>> users =
        Entity.define("user")
            .service("platform")
            .attribute(Attribute.string("organizationId"))
            .attribute(Attribute.string("userId"))
            .index(
                Index.primary("byOrg")
                    .namespace("org")
                    .pk("organizationId")
                    .sk("userId")
                    .collection("workspace"))
            .build();

    Service s = Service.define("platform").entity(orgs).entity(users).build();
    assertThat(s.collections()).containsExactly("workspace");
  }

  @Test
  void aDefinitionThatNamesAnUndeclaredAttributeFailsWhenBuilt() {
    assertThatThrownBy(
            () ->
                Entity.define("user")
                    .service("platform")
                    .index(Index.primary("byId").pk("userId"))
                    .build())
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
              assertThat(e.getMessage()).contains("'userId'");
            });
    assertThat(List.of()).isEmpty();
  }
}
