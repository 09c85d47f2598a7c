package io.viewbase.api;

/**
 * Opens embedded databases; found with {@link java.util.ServiceLoader}. viewbase-core provides one.
 * Applications call {@link Viewbase#open} instead.
 */
@Stability(Stability.Level.INTERNAL)
public interface DatabaseProvider {
  Database open(OpenOptions options);
}
