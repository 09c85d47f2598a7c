package io.viewbase.storage.spi;

/**
 * What a mutation requires of its key's current state when the batch commits.
 *
 * @param kind the requirement
 * @param version for {@link Kind#VERSION}, the version the key must have
 */
public record Condition(Kind kind, long version) {
  public enum Kind {
    /** No requirement. */
    NONE,
    /** The key must not exist. */
    ABSENT,
    /** The key must exist, at any version. */
    EXISTS,
    /** The key must exist at exactly {@link #version()}. */
    VERSION
  }

  public static final Condition NONE = new Condition(Kind.NONE, 0);
  public static final Condition ABSENT = new Condition(Kind.ABSENT, 0);
  public static final Condition EXISTS = new Condition(Kind.EXISTS, 0);

  public static Condition version(long version) {
    return new Condition(Kind.VERSION, version);
  }

  /**
   * Whether a key whose current version is {@code current} (null = absent) meets this condition.
   */
  public boolean isMetBy(Long current) {
    return switch (kind) {
      case NONE -> true;
      case ABSENT -> current == null;
      case EXISTS -> current != null;
      case VERSION -> current != null && current == version;
    };
  }
}
