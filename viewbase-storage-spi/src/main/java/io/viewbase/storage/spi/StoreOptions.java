package io.viewbase.storage.spi;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A backend's typed reading of its {@link StoreConfig#options()}: one parser for the forms every
 * backend takes, so that a size, a count or a duration is written the same way for each of them and
 * is refused with the same {@link StoreOptionException} message (the CLI shows it after the flag).
 *
 * <pre>
 * form      | accepted (surrounding spaces ignored)                      | refused with
 * ----------+------------------------------------------------------------+------------------------------------------
 * name      | a name with the backend's prefix that it knows             | unknown option P.x; the B backend knows [...]
 * text      | anything not blank                                         | P.x must not be empty
 * size      | bytes, or a number with k, m or g (powers of 1024)         | P.x must be a size such as 134217728 or 128m, not 'v'
 * number    | a whole number within [min, max]                           | P.x must be a whole number from min to max, not 'v'
 * duration  | N (milliseconds), Nms, Ns or Nm, within [min, max]         | P.x must be a duration from 1ms to 60m such as 500ms, 10s or 1m, not 'v'
 * choice    | one of the given names, in any case                        | P.x must be a or b, not 'v'
 * </pre>
 *
 * Options of other backends (another prefix) are left alone: one option map may serve several.
 */
public final class StoreOptions {
  private final StoreConfig config;

  private StoreOptions(StoreConfig config) {
    this.config = config;
  }

  /**
   * The options of {@code config}, after refusing any option with {@code backend}'s prefix ({@code
   * backend + "."}) that is not in {@code known}.
   */
  public static StoreOptions of(StoreConfig config, String backend, Set<String> known) {
    String prefix = backend + ".";
    for (String name : config.options().keySet()) {
      if (name.startsWith(prefix) && !known.contains(name)) {
        throw new StoreOptionException(
            name,
            "unknown option "
                + name
                + "; the "
                + backend
                + " backend knows "
                + new TreeSet<>(known));
      }
    }
    return new StoreOptions(config);
  }

  /** The option as given, or {@code defaultValue}; not trimmed. */
  public String raw(String name, String defaultValue) {
    return config.option(name, defaultValue);
  }

  /** The option's text, trimmed. */
  public String text(String name, String defaultValue) {
    return raw(name, defaultValue).trim();
  }

  /** The option's text, trimmed, refused when blank. */
  public String nonBlank(String name, String defaultValue) {
    String value = text(name, defaultValue);
    if (value.isEmpty()) {
      throw new StoreOptionException(name, name + " must not be empty");
    }
    return value;
  }

  /** A size in bytes: a number of bytes, or a number with a k, m or g suffix (powers of 1024). */
  public long size(String name, String defaultValue) {
    String text = text(name, defaultValue).toLowerCase(Locale.ROOT);
    long unit =
        switch (text.isEmpty() ? ' ' : text.charAt(text.length() - 1)) {
          case 'k' -> 1L << 10;
          case 'm' -> 1L << 20;
          case 'g' -> 1L << 30;
          default -> 1;
        };
    String digits = unit == 1 ? text : text.substring(0, text.length() - 1);
    try {
      long value = Long.parseLong(digits);
      if (value >= 0 && value <= Long.MAX_VALUE / unit) {
        return value * unit;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new StoreOptionException(
        name,
        name + " must be a size such as 134217728 or 128m, not '" + raw(name, defaultValue) + "'");
  }

  /** A whole number from {@code min} to {@code max}. */
  public long number(String name, String defaultValue, long min, long max) {
    String text = text(name, defaultValue);
    try {
      long value = Long.parseLong(text);
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new StoreOptionException(
        name, name + " must be a whole number from " + min + " to " + max + ", not '" + text + "'");
  }

  /**
   * A duration from {@code min} to {@code max}: {@code 500ms}, {@code 10s}, {@code 1m}, or a bare
   * number of milliseconds.
   */
  public Duration duration(String name, String defaultValue, Duration min, Duration max) {
    String text = text(name, defaultValue).toLowerCase(Locale.ROOT);
    try {
      Duration value;
      if (text.endsWith("ms")) {
        value = Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
      } else if (text.endsWith("s")) {
        value = Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
      } else if (text.endsWith("m")) {
        value = Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1)));
      } else {
        value = Duration.ofMillis(Long.parseLong(text));
      }
      if (value.compareTo(min) >= 0 && value.compareTo(max) <= 0) {
        return value;
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // fall through to the message below
    }
    throw new StoreOptionException(
        name,
        name
            + " must be a duration from "
            + text(min)
            + " to "
            + text(max)
            + " such as 500ms, 10s or 1m, not '"
            + raw(name, defaultValue)
            + "'");
  }

  /** One of {@code choices}, in any case; the choice as listed. */
  public String choice(String name, String defaultValue, List<String> choices) {
    String given = raw(name, defaultValue);
    String value = given.trim().toLowerCase(Locale.ROOT);
    for (String choice : choices) {
      if (choice.toLowerCase(Locale.ROOT).equals(value)) {
        return choice;
      }
    }
    String listed =
        choices.size() == 1
            ? choices.get(0)
            : String.join(", ", choices.subList(0, choices.size() - 1))
                + " or "
                + choices.get(choices.size() - 1);
    throw new StoreOptionException(name, name + " must be " + listed + ", not '" + given + "'");
  }

  /**
   * A duration as {@link #duration} reads it back: whole minutes, else seconds, else milliseconds.
   */
  private static String text(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
