package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Mutation;
import io.viewbase.storage.spi.Versioned;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Point reads and the basic writes: put, overwrite, delete. */
public interface PointReadContract extends StoreFixture {

  @Test
  default void getWhenKeyIsAbsentReturnsEmpty() {
    assertThat(store().get(b("p"), b("k"))).isEmpty();
  }

  @Test
  default void getAfterPutReturnsVersionAndValue() {
    write(put("p", "k", 42, "hello"));

    Versioned found = store().get(b("p"), b("k")).orElseThrow();

    assertThat(found.version()).isEqualTo(42);
    assertThat(found.value()).isEqualTo(b("hello"));
  }

  @Test
  default void getReturnsAOneMebibyteValueIntact() {
    byte[] value = new byte[1 << 20];
    new Random(7).nextBytes(value);
    write(Mutation.put(b("p"), b("big"), 1, value));

    assertThat(store().get(b("p"), b("big")).orElseThrow().value()).isEqualTo(value);
  }

  @Test
  default void getReturnsAnEmptyValueAsEmpty() {
    write(put("p", "k", 1, ""));

    assertThat(store().get(b("p"), b("k")).orElseThrow().value()).isEmpty();
  }

  @Test
  default void getWithEmptyPartitionAndEmptyKeyWorks() {
    write(put("", "", 3, "root"));

    assertThat(store().get(b(""), b("")).orElseThrow().version()).isEqualTo(3);
    assertThat(store().get(b(""), b("\0"))).isEmpty();
  }

  @Test
  default void putKeepsExtremeVersions() {
    write(put("p", "max", Long.MAX_VALUE, "x"), put("p", "zero", 0, "y"), put("p", "neg", -1, "z"));

    assertThat(store().get(b("p"), b("max")).orElseThrow().version()).isEqualTo(Long.MAX_VALUE);
    assertThat(store().get(b("p"), b("zero")).orElseThrow().version()).isZero();
    assertThat(store().get(b("p"), b("neg")).orElseThrow().version()).isEqualTo(-1);
  }

  @Test
  default void putOverExistingKeyReplacesVersionAndValue() {
    write(put("p", "k", 1, "old value that is longer"));
    write(put("p", "k", 2, "new"));

    Versioned found = store().get(b("p"), b("k")).orElseThrow();

    assertThat(found.version()).isEqualTo(2);
    assertThat(found.value()).isEqualTo(b("new"));
  }

  @Test
  default void deleteRemovesTheKeyOnly() {
    write(put("p", "k", 1, "v"), put("p", "k2", 1, "v"));

    write(delete("p", "k"));

    assertThat(store().get(b("p"), b("k"))).isEmpty();
    assertThat(store().get(b("p"), b("k2"))).isPresent();
  }

  @Test
  default void deleteOfAbsentKeyWithoutConditionSucceeds() {
    write(delete("p", "never-written"));

    assertThat(store().get(b("p"), b("never-written"))).isEmpty();
  }

  @Test
  default void commitCopiesTheCallersArrays() {
    byte[] partition = b("p");
    byte[] key = b("k");
    byte[] value = b("value");
    write(Mutation.put(partition, key, 1, value));

    partition[0] = 'x';
    key[0] = 'x';
    value[0] = 'x';

    assertThat(store().get(b("p"), b("k")).orElseThrow().value()).isEqualTo(b("value"));
  }

  @Test
  default void getReturnsArraysTheCallerOwns() {
    write(put("p", "k", 1, "value"));

    Optional<Versioned> first = store().get(b("p"), b("k"));
    first.orElseThrow().value()[0] = 'x';

    assertThat(store().get(b("p"), b("k")).orElseThrow().value()).isEqualTo(b("value"));
  }
}
