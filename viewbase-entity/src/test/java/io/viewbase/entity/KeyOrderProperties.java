package io.viewbase.entity;

import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * Composite keys sort like their values and round-trip through the database. Strings are drawn from
 * characters above the separator '#' (the documented condition); numbers are non-negative and
 * padded to one width.
 */
class KeyOrderProperties {
  record Event(String stream, String name, long seq) {}

  static final Entity<Event> EVENTS =
      Entity.define("event", Event.class)
          .service("log")
          .attribute(Attribute.string("stream").required())
          .attribute(Attribute.string("name").required())
          .attribute(Attribute.number("seq").required().padding(13))
          .index(Index.primary("byId").namespace("event").pk("stream").sk("seq"))
          .index(Index.secondary("byName").namespace("names").pk("stream").sk("name", "seq"))
          .build();

  private static Database db;
  private static ServiceTable log;
  private static final AtomicInteger STREAMS = new AtomicInteger();

  private static synchronized ServiceTable log() {
    if (db == null) {
      db = Viewbase.open(OpenOptions.inMemory());
      log = Service.define("log").entity(EVENTS).build().open(db, "Log", Duration.ofSeconds(30));
    }
    return log;
  }

  @AfterContainer
  static synchronized void close() {
    if (db != null) {
      db.close();
      db = null;
    }
  }

  @Property
  void paddedNumbersSortLikeTheirValues(
      @ForAll @LongRange(max = 9_999_999_999_999L) long a,
      @ForAll @LongRange(max = 9_999_999_999_999L) long b) {
    String ka = sortKey(Map.of("stream", "s", "seq", a));
    String kb = sortKey(Map.of("stream", "s", "seq", b));
    assertThat(Integer.signum(ka.compareTo(kb))).isEqualTo(Long.signum(a - b));
  }

  @Property
  void twoCompositesSortLikeTheirTuples(
      @ForAll @StringLength(max = 8) @CharRange(from = '$', to = '~') String n1,
      @ForAll @LongRange(max = 99_999L) long s1,
      @ForAll @StringLength(max = 8) @CharRange(from = '$', to = '~') String n2,
      @ForAll @LongRange(max = 99_999L) long s2) {
    String k1 = nameKey(Map.of("stream", "s", "name", n1, "seq", s1));
    String k2 = nameKey(Map.of("stream", "s", "name", n2, "seq", s2));
    int expected = n1.equals(n2) ? Long.signum(s1 - s2) : Integer.signum(n1.compareTo(n2));
    assertThat(Integer.signum(k1.compareTo(k2))).isEqualTo(expected);
  }

  @Property
  void rangeBoundsOfANonUniqueIndexTakeExactlyTheEntriesTheySay(
      @ForAll @StringLength(max = 6) @CharRange(from = '$', to = '~') String entryName,
      @ForAll @StringLength(max = 6) @CharRange(from = '$', to = '~') String boundName) {
    // An entry of the non-unique view: its sort key, then the source identity.
    String entry =
        nameKey(Map.of("stream", "s", "name", entryName, "seq", 7L))
            + "#$log#event#stream_s#$event_1#seq_0000000000007";
    IndexLayout byName = EVENTS.layout("byName");
    String bound =
        byName.sk().renderPrefix(EVENTS.mapper().keyValues(Map.of("name", boundName))).tight();
    boolean belowLte = entry.compareTo(bound + KeyFormat.AFTER_SEPARATOR) < 0;
    boolean atOrAboveGt = entry.compareTo(bound + KeyFormat.AFTER_SEPARATOR) >= 0;
    assertThat(belowLte)
        .as("lte includes exactly names <= bound")
        .isEqualTo(entryName.compareTo(boundName) <= 0);
    assertThat(atOrAboveGt)
        .as("gt includes exactly names > bound")
        .isEqualTo(entryName.compareTo(boundName) > 0);
  }

  @Property(tries = 40)
  void keysTheClientRendersFindWhatTheDatabaseStored(
      @ForAll @StringLength(min = 1, max = 10) @CharRange(from = '$', to = '~') String name,
      @ForAll @LongRange(max = 9_999_999_999_999L) long seq) {
    String stream = "st" + STREAMS.incrementAndGet();
    EntityClient<Event> events = log().entity(EVENTS);
    Event event = new Event(stream, name, seq);
    events.create(event);

    assertThat(events.get(Map.of("stream", stream, "seq", seq))).contains(event);
    assertThat(events.query("byName", Map.of("stream", stream, "name", name, "seq", seq)).all())
        .containsExactly(event);
    assertThat(events.query("byName", Map.of("stream", stream)).begins(Map.of("name", name)).all())
        .containsExactly(event);
    assertThat(
            events
                .query("byName", Map.of("stream", stream))
                .between(Map.of("name", name), Map.of("name", name))
                .all())
        .containsExactly(event);
    assertThat(events.query("byName", Map.of("stream", stream)).gt(Map.of("name", name)).all())
        .isEmpty();
  }

  private static String sortKey(Map<String, Object> values) {
    return EVENTS.primary().sk().render(EVENTS.mapper().keyValues(values));
  }

  private static String nameKey(Map<String, Object> values) {
    return EVENTS.layout("byName").sk().render(EVENTS.mapper().keyValues(values));
  }
}
