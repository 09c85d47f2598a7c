package io.viewbase.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

/** Every dialect's {@code Date} header: HTTP's fixed-length date, as Azure and DynamoDB send it. */
class HttpDateTest {
  @Test
  void daysOneToNineHaveTwoDigits() {
    assertThat(HttpDate.format(1796115148L)).isEqualTo("Tue, 01 Dec 2026 08:52:28 GMT");
    assertThat(HttpDate.format(1796079909L)).isEqualTo("Mon, 30 Nov 2026 23:05:09 GMT");
  }

  @Test
  void whatItWritesReadsBackAsRfc1123() {
    assertThat(
            ZonedDateTime.parse(HttpDate.format(1796115148L), DateTimeFormatter.RFC_1123_DATE_TIME)
                .toEpochSecond())
        .isEqualTo(1796115148L);
  }

  @Test
  void nowIsTheClocksSecondEvenRightAfterAnotherSecondWasFormatted() {
    Instant t = Instant.ofEpochSecond(1796115148L, 999_000_000);
    assertThat(HttpDate.now(Clock.fixed(t, ZoneOffset.UTC)))
        .isEqualTo(HttpDate.format(1796115148L));
    assertThat(HttpDate.now(Clock.fixed(t.plusMillis(1), ZoneOffset.UTC)))
        .isEqualTo("Tue, 01 Dec 2026 08:52:29 GMT");
    assertThat(HttpDate.now(Clock.fixed(Instant.ofEpochSecond(-1), ZoneOffset.UTC)))
        .isEqualTo("Wed, 31 Dec 1969 23:59:59 GMT");
    long system = System.currentTimeMillis() / 1000;
    assertThat(HttpDate.now()).isIn(HttpDate.format(system), HttpDate.format(system + 1));
  }
}
