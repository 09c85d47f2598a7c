package io.viewbase.entity;

import io.viewbase.api.Stability;
import java.util.Arrays;
import java.util.List;

/**
 * The definition of a partition key or sort key: either the attributes it is composed of, in order
 * (rendered in the standard format, see {@link KeyFormat}), or a template such as {@code
 * "org#${organizationId}"} that is the whole key, written out by hand.
 *
 * @param composite the attributes, in key order (empty: the key is its static prefix alone)
 * @param template a hand-written key with {@code ${attribute}} placeholders, or null
 * @param casing how the key's text is cased
 */
@Stability(Stability.Level.EXPERIMENTAL)
public record KeyDefinition(List<String> composite, String template, Casing casing) {
  public static final KeyDefinition NONE = new KeyDefinition(List.of(), null, Casing.PRESERVE);

  public KeyDefinition {
    composite = composite == null ? List.of() : List.copyOf(composite);
    casing = casing == null ? Casing.PRESERVE : casing;
  }

  public static KeyDefinition of(String... attributes) {
    return new KeyDefinition(Arrays.asList(attributes), null, Casing.PRESERVE);
  }

  public static KeyDefinition template(String template) {
    return new KeyDefinition(List.of(), template, Casing.PRESERVE);
  }

  public KeyDefinition withCasing(Casing newCasing) {
    return new KeyDefinition(composite, template, newCasing);
  }
}
