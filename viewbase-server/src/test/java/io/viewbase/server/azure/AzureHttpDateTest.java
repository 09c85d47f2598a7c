package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;

/** The Azure dialect's {@code Date} header: HTTP's fixed-length date, as Azure sends it. */
class AzureHttpDateTest {
  @Test
  void daysOneToNineHaveTwoDigits() {
    assertThat(AzureTimes.httpDate(1796115148L)).isEqualTo("Tue, 01 Dec 2026 08:52:28 GMT");
    assertThat(AzureTimes.httpDate(1796079909L)).isEqualTo("Mon, 30 Nov 2026 23:05:09 GMT");
  }

  @Test
  void whatItWritesReadsBack() {
    assertThat(AzureTimes.parseHttpDate(AzureTimes.httpDate(1796115148L))).isEqualTo(1796115148L);
    assertThat(AzureTimes.parseHttpDate(AzureTimes.httpDateNow()))
        .isCloseTo(System.currentTimeMillis() / 1000, offset(2L));
  }
}
