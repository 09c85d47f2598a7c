package io.viewbase.storage.spi;

/** A stored value and the version it was written with. */
public record Versioned(long version, byte[] value) {}
