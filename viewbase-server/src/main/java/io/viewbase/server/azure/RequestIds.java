package io.viewbase.server.azure;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request ids in UUID form ({@code x-ms-request-id}): a random prefix chosen at start and a
 * counter, unique per process without the cost of a secure random UUID on every request.
 */
final class RequestIds {
  private static final String PREFIX;
  private static final AtomicLong COUNTER = new AtomicLong();

  static {
    long r = ThreadLocalRandom.current().nextLong();
    String hex = String.format("%016x", r);
    PREFIX = hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-";
  }

  private RequestIds() {}

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  static String next() {
    long n = COUNTER.incrementAndGet();
    char[] c = new char[17];
    for (int i = 16; i >= 0; i--) {
      if (i == 4) {
        c[i] = '-';
        continue;
      }
      c[i] = HEX[(int) (n & 0xF)];
      n >>>= 4;
    }
    return PREFIX.concat(new String(c));
  }
}
