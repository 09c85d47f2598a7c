package io.viewbase.storage.spi;

/** The backend failed (I/O error, corruption, unreachable cluster, directory locked). */
public class StorageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean unavailable;

  public StorageException(String message, Throwable cause) {
    this(message, cause, false);
  }

  /**
   * @param unavailable true when the store cannot be used at all right now (locked by another
   *                    process, unreachable), as opposed to an internal failure
   */
  public StorageException(String message, Throwable cause, boolean unavailable) {
    super(message, cause);
    this.unavailable = unavailable;
  }

  public boolean isUnavailable() {
    return unavailable;
  }
}
