package io.viewbase.storage.spi;

/**
 * A batch did not commit because the condition of one of its mutations did not hold; nothing of the
 * batch was written.
 */
public final class ConditionFailedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final int index;
  private final Condition condition;
  private final Long actualVersion;

  public ConditionFailedException(int index, Condition condition, Long actualVersion) {
    super(
        "condition "
            + condition
            + " of mutation "
            + index
            + " failed; current version "
            + (actualVersion == null ? "absent" : actualVersion.toString()));
    this.index = index;
    this.condition = condition;
    this.actualVersion = actualVersion;
  }

  /** The position of the failing mutation in the batch. */
  public int index() {
    return index;
  }

  public Condition condition() {
    return condition;
  }

  /** The key's version when the condition was checked, or null if the key was absent. */
  public Long actualVersion() {
    return actualVersion;
  }
}
