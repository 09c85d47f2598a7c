package io.viewbase.filter;

import io.viewbase.api.PropertyName;
import io.viewbase.api.Stability;

/**
 * Which API a filter's text was written for, and so what its property names mean. The AST always
 * holds stored names, and {@link Filters#print} writes native text, so a filter parsed in any
 * dialect can be handed on as native text with the same meaning.
 *
 * <table>
 *   <caption>How a written name is read</caption>
 *   <tr><th>written</th><th>NATIVE</th><th>AZURE</th></tr>
 *   <tr><td>{@code PartitionKey}, {@code RowKey}, {@code Timestamp}</td><td>system</td><td>system</td></tr>
 *   <tr><td>{@code partitionKey}, {@code id}, {@code _timestamp}</td><td>system</td>
 *       <td>the user property {@code $partitionKey}, {@code $id}, {@code $_timestamp}</td></tr>
 *   <tr><td>{@code _ttl} (an item's own time-to-live)</td><td>the user property {@code _ttl}</td>
 *       <td>the user property {@code _ttl}</td></tr>
 *   <tr><td>{@code _x} (any other name starting with '_')</td><td>the user property {@code _x}</td>
 *       <td>the user property {@code $_x}</td></tr>
 *   <tr><td>{@code $id}, {@code a$b} (names with '$')</td><td>that user property</td>
 *       <td>an error: '$' is not in Azure property names</td></tr>
 *   <tr><td>{@code True}, {@code False}</td><td>user properties</td><td>the boolean literals</td></tr>
 *   <tr><td>anything else</td><td>that user property</td><td>that user property</td></tr>
 * </table>
 *
 * On Azure, {@code id}, {@code partitionKey} and names starting with '_' are ordinary property
 * names; Viewbase reserves them for identity and system fields, so the Azure dialect stores such a
 * property under {@code '$' + name} ('$' is legal in Viewbase names, never in Azure's), and its
 * filters mean the stored property.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public enum FilterDialect {
  /** The native API, views and the Java API: both spellings of the system names are system. */
  NATIVE,
  /**
   * Azure Table Storage: only {@code PartitionKey}, {@code RowKey} and {@code Timestamp} are
   * system.
   */
  AZURE;

  /**
   * The prefix that marks an Azure property name Viewbase reserves ({@link PropertyName#ESCAPE}).
   */
  public static final String ESCAPE = PropertyName.ESCAPE;

  /**
   * The stored name of a property written as {@code name} in this dialect (the identity for NATIVE;
   * for AZURE, {@code $id}, {@code $partitionKey} and {@code $_x} for {@code id}, {@code
   * partitionKey} and {@code _x}, any other name unchanged).
   */
  public String storedName(String name) {
    return this == AZURE ? PropertyName.escaped(name) : name;
  }

  /**
   * The name a stored property has in this dialect: the inverse of {@link #storedName} (for AZURE,
   * {@code $id} is {@code id} again; {@code $other}, which no Azure client can write, stays as is).
   */
  public String writtenName(String stored) {
    return this == AZURE ? PropertyName.unescaped(stored) : stored;
  }

  /**
   * A word as the boolean literal it spells, if it is one: {@code true} and {@code false}, and in
   * AZURE also {@code True} and {@code False}, as .NET writes booleans and Azure reads them; any
   * other word unchanged.
   */
  String booleanWord(String word) {
    if (this == AZURE && (word.equals("True") || word.equals("False"))) {
      return word.toLowerCase(java.util.Locale.ROOT);
    }
    return word;
  }

  /** Whether '$' may appear in the property names of this dialect's text. */
  boolean allowsDollar() {
    return this == NATIVE;
  }
}
