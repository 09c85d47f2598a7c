/**
 * The storage SPI: the byte-level, partition-aware, ordered key-value contract every backend
 * implements and {@code viewbase-storage-tck} checks.
 *
 * <p><b>Stability: experimental.</b> Every type here may change in any release, as the public types
 * marked {@code @Stability(EXPERIMENTAL)} in {@code viewbase-api} may; {@code BatchRules}, {@code
 * Bytes} and {@code OrderedKeyCodec} are internal (public for the backends only). The SPI states
 * this here rather than with {@code io.viewbase.api.Stability}, because it depends on nothing
 * (DESIGN §5): an annotation from the api, even a class-file one, would make every backend compile
 * against a class it does not have.
 */
package io.viewbase.storage.spi;
