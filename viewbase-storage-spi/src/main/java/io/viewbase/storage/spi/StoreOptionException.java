package io.viewbase.storage.spi;

/**
 * A backend refused one of the settings in {@link StoreConfig#options()}: an option it does not
 * know, or a value it cannot use. The message names the option and says what it takes; {@link
 * #option()} is the option's full name ({@code rocksdb.blockCacheBytes}), so that a caller can
 * point back at where the user set it (the CLI names its flag). Nothing has been opened.
 */
public final class StoreOptionException extends IllegalArgumentException {
  private final String option;

  public StoreOptionException(String option, String message) {
    super(message);
    this.option = option;
  }

  /** The refused option's full name, with its backend's prefix. */
  public String option() {
    return option;
  }
}
