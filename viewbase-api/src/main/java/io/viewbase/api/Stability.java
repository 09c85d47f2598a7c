package io.viewbase.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How far a public type is promised to stay as it is. Everything is experimental until we say
 * otherwise.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface Stability {
  Level value();

  enum Level {
    /** May change in any release. */
    EXPERIMENTAL,
    /** Changes only with a deprecation period. */
    STABLE,
    /** Public for technical reasons only; not for applications. */
    INTERNAL
  }
}
