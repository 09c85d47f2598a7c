package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.Locale;

/**
 * How a key's text is cased. The default keeps case: ElectroDB lower-cases keys by default, and two
 * values that differ only in case then share a key (a silent overwrite or a false duplicate).
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum Casing {
  /** Values and literals as written. */
  PRESERVE,
  /**
   * Everything lower-cased ({@link Locale#ROOT}); for case-insensitive keys such as e-mail
   * addresses.
   */
  LOWER,
  /** Everything upper-cased ({@link Locale#ROOT}). */
  UPPER;

  String apply(String text) {
    return switch (this) {
      case PRESERVE -> text;
      case LOWER -> text.toLowerCase(Locale.ROOT);
      case UPPER -> text.toUpperCase(Locale.ROOT);
    };
  }

  /** The view template transform that does the same on the database side ("" for none). */
  String templateTransform() {
    return switch (this) {
      case PRESERVE -> "";
      case LOWER -> "|lower";
      case UPPER -> "|upper";
    };
  }
}
