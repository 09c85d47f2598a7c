package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.util.List;

/**
 * The storage service versions a request may name in {@code x-ms-version}, and the one Viewbase
 * answers with. Azure refuses a version it does not know; so does Viewbase, with one difference: a
 * well-formed version later than the newest listed here is served (as {@link #IMPLEMENTED}), so
 * that an SDK released after this list still works against the emulator.
 *
 * <pre>
 * x-ms-version             | answer
 * -------------------------+--------------------------------------------------------------
 * absent                   | served
 * a published version      | served
 * later than the newest    | served
 * any other (2019-02-03,   | 400 InvalidHeaderValue, naming the header and the value
 *   "latest", "2019-2-2")  |
 * </pre>
 *
 * Every answer carries {@code x-ms-version: }{@value #IMPLEMENTED}, the version whose behaviour the
 * dialect implements, not an echo of the client's.
 */
final class ServiceVersions {
  /** The version of the protocol this dialect implements. */
  static final String IMPLEMENTED = "2019-02-02";

  /** Azure Storage's published service versions, newest first. */
  private static final List<String> PUBLISHED =
      List.of(
          "2025-11-05",
          "2025-07-05",
          "2025-05-05",
          "2025-01-05",
          "2024-11-04",
          "2024-08-04",
          "2024-05-04",
          "2024-02-04",
          "2023-11-03",
          "2023-08-03",
          "2023-05-03",
          "2023-01-03",
          "2022-11-02",
          "2021-12-02",
          "2021-10-04",
          "2021-08-06",
          "2021-06-08",
          "2021-04-10",
          "2021-02-12",
          "2020-12-06",
          "2020-10-02",
          "2020-08-04",
          "2020-06-12",
          "2020-04-08",
          "2020-02-10",
          "2019-12-12",
          "2019-10-10",
          "2019-07-07",
          "2019-02-02",
          "2018-11-09",
          "2018-03-28",
          "2017-11-09",
          "2017-07-29",
          "2017-04-17",
          "2016-05-31",
          "2015-12-11",
          "2015-07-08",
          "2015-04-05",
          "2015-02-21",
          "2014-02-14",
          "2013-08-15",
          "2012-02-12",
          "2011-08-18",
          "2009-09-19",
          "2009-07-17",
          "2009-04-14");

  private ServiceVersions() {}

  /** Fails with 400 InvalidHeaderValue unless the version (null: none given) may be served. */
  static void check(String version) {
    if (version == null || PUBLISHED.contains(version)) {
      return;
    }
    if (!wellFormed(version) || version.compareTo(PUBLISHED.get(0)) <= 0) {
      throw ViewbaseException.of(
          ErrorCode.InvalidHeader,
          "The value for one of the HTTP headers is not in the "
              + "correct format: x-ms-version is not a storage service version (such as "
              + IMPLEMENTED
              + ")",
          "header",
          "x-ms-version",
          "value",
          version);
    }
  }

  /** YYYY-MM-DD with a real month and day: only such a text can be a later version. */
  private static boolean wellFormed(String v) {
    if (v.length() != 10 || v.charAt(4) != '-' || v.charAt(7) != '-') {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (i != 4 && i != 7 && (v.charAt(i) < '0' || v.charAt(i) > '9')) {
        return false;
      }
    }
    try {
      java.time.LocalDate.parse(v);
      return true;
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }
}
