package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The worked example of docs/entities.md: the code between the listing markers is the doc's
 * listing, character for character ({@link DocListingTest} checks), and runs embedded and remote.
 */
final class WorkedExample {
  private WorkedExample() {}

  // listing:start
  record Organization(String organizationId, String name, String plan) {}

  record User(String organizationId, String userId, String email, String name, String role) {}

  record Session(String userId, String sessionId, long expires) {}

  static final Entity<Organization> ORGANIZATIONS =
      Entity.define("organization", Organization.class)
          .service("platform")
          .version("1")
          .attribute(Attribute.string("organizationId").required())
          .attribute(Attribute.string("name").required())
          .attribute(Attribute.enumOf("plan", "free", "team", "enterprise").defaultValue("free"))
          // PK $platform#organization#organizationid_293819, SK $organization_1
          .index(Index.primary("byId").namespace("organization").pk("organizationId"))
          // PK $platform#organizations#all, SK $organization_1#name_Acme (a view)
          .index(Index.secondary("all").namespace("organizations", "all").sk("name"))
          // PK $platform#workspace#organizationid_293819: shared with the users of the organization
          .index(
              Index.secondary("workspace")
                  .namespace("workspace")
                  .pk("organizationId")
                  .collection("workspace"))
          .build();

  static final Entity<User> USERS =
      Entity.define("user", User.class)
          .service("platform")
          .version("1")
          .attribute(Attribute.string("organizationId").required())
          .attribute(Attribute.string("userId").required())
          .attribute(
              Attribute.string("email")
                  .required()
                  .validate(e -> e.toString().contains("@"), "an e-mail address"))
          .attribute(Attribute.string("name").required())
          .attribute(Attribute.enumOf("role", "member", "admin").defaultValue("member"))
          // PK $platform#user#organizationid_293819, SK $user_1#userid_u1: users apart from their
          // organization
          .index(Index.primary("byOrg").namespace("user").pk("organizationId").sk("userId"))
          // one e-mail address, one user, across the whole table (case-insensitively)
          .index(
              Index.secondary("byEmail")
                  .namespace("users", "email")
                  .sk("email")
                  .casing(Casing.LOWER)
                  .unique())
          .index(
              Index.secondary("workspace")
                  .namespace("workspace")
                  .pk("organizationId")
                  .sk("name")
                  .collection("workspace"))
          .build();

  static final Entity<Session> SESSIONS =
      Entity.define("session", Session.class)
          .service("platform")
          .version("1")
          .attribute(Attribute.string("userId").required())
          .attribute(Attribute.string("sessionId").required())
          .attribute(Attribute.number("expires").required().padding(15))
          // PK $platform#session#userid_u1, SK $session_1#sessionid_s1
          .index(Index.primary("byUser").namespace("session").pk("userId").sk("sessionId"))
          // PK $platform#sessions#expiry, SK $session_1#expires_001767225600000 (padded: sorts by
          // time)
          .index(Index.secondary("byExpiry").namespace("sessions", "expiry").sk("expires"))
          .build();

  static final Service PLATFORM =
      Service.define("platform").entity(ORGANIZATIONS).entity(USERS).entity(SESSIONS).build();

  static void run(Database db) {
    ServiceTable platform = PLATFORM.open(db, "Platform", Duration.ofMinutes(1));
    EntityClient<Organization> organizations = platform.entity(ORGANIZATIONS);
    EntityClient<User> users = platform.entity(USERS);
    EntityClient<Session> sessions = platform.entity(SESSIONS);

    organizations.create(new Organization("293819", "Acme", null));
    organizations.create(new Organization("100200", "Globex", "team"));
    users.create(new User("293819", "u1", "ann@acme.example", "Ann", null));
    users.create(new User("293819", "u2", "bob@acme.example", "Bob", "admin"));
    sessions.create(new Session("u1", "s1", 1767225600000L));
    sessions.create(new Session("u1", "s2", 1767229200000L));

    // Access pattern 1: an organization by id (the item's own key), with its default plan.
    assertThat(organizations.get(Map.of("organizationId", "293819")))
        .contains(new Organization("293819", "Acme", "free"));
    // ... and every organization, by name, from one partition that holds nothing else.
    assertThat(organizations.query("all", Map.of()).all())
        .extracting(Organization::name)
        .containsExactly("Acme", "Globex");

    // Access pattern 2: the users of an organization, in their own partition.
    assertThat(users.query("byOrg", Map.of("organizationId", "293819")).all())
        .extracting(User::userId)
        .containsExactly("u1", "u2");
    assertThat(users.query("byEmail", Map.of("email", "BOB@acme.example")).all())
        .extracting(User::name)
        .containsExactly("Bob");

    // Access pattern 3: the sessions of a user; and sessions expiring before a time, as a key
    // range.
    assertThat(sessions.query("byUser", Map.of("userId", "u1")).all())
        .extracting(Session::sessionId)
        .containsExactly("s1", "s2");
    assertThat(sessions.query("byExpiry", Map.of()).lt(Map.of("expires", 1767229200000L)).all())
        .extracting(Session::sessionId)
        .containsExactly("s1");

    // When an organization and its users are wanted together: one collection query, grouped by
    // entity.
    CollectionPage workspace =
        platform.collection("workspace", Map.of("organizationId", "293819")).all();
    assertThat(workspace.items(ORGANIZATIONS))
        .extracting(Organization::name)
        .containsExactly("Acme");
    assertThat(workspace.items(USERS)).extracting(User::name).containsExactly("Ann", "Bob");

    // A patch sends only what changes; every index follows, because the database derives them.
    users.patch(
        Map.of("organizationId", "293819", "userId", "u1"),
        Changes.set("email", "ann@globex.example"));
    assertThat(users.query("byEmail", Map.of("email", "ann@acme.example")).all()).isEmpty();
    assertThat(users.query("byEmail", Map.of("email", "ann@globex.example")).all()).hasSize(1);

    // The unique index refuses a second user with Bob's address, whatever its case.
    assertThatThrownBy(
            () -> users.create(new User("100200", "u3", "Bob@ACME.example", "Robert", null)))
        .isInstanceOfSatisfying(
            ViewbaseException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.ViewKeyConflict));

    // A transaction across entities: a user moves to another organization with a new session.
    platform
        .transaction()
        .remove(USERS, Map.of("organizationId", "293819", "userId", "u2"), Condition.NONE)
        .create(USERS, new User("100200", "u2", "bob@acme.example", "Bob", "admin"))
        .create(SESSIONS, new Session("u2", "s3", 1767232800000L))
        .commit();
    assertThat(users.query("byOrg", Map.of("organizationId", "100200")).all())
        .extracting(User::userId)
        .containsExactly("u2");
    assertThat(
            List.of(
                platform
                    .collection("workspace", Map.of("organizationId", "293819"))
                    .all()
                    .items(USERS)
                    .size()))
        .containsExactly(1);
  }
  // listing:end
}
