package io.viewbase.storage.tck;

import static io.viewbase.storage.tck.TestBytes.b;
import static io.viewbase.storage.tck.TestBytes.delete;
import static io.viewbase.storage.tck.TestBytes.put;
import static io.viewbase.storage.tck.TestBytes.s;
import static org.assertj.core.api.Assertions.assertThat;

import io.viewbase.storage.spi.Derivation;
import io.viewbase.storage.spi.Mutation;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Derived point reads ({@code get(partition, key, derivation)}): whatever a store keeps beside its
 * cached entries, the result is always what the derivation makes of the entry a plain {@code get}
 * would return now, never of an older one.
 */
public interface DerivedReadContract extends StoreFixture {

  @Test
  default void aDerivedReadOfAnAbsentKeyIsEmpty() {
    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).isEmpty();
  }

  @Test
  default void aDerivedReadDerivesFromTheStoredVersionAndValue() {
    write(put("p", "k", 7, "seven"));

    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).contains("t/7/seven");
    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).contains("t/7/seven");
  }

  @Test
  default void aDerivedReadAfterAnOverwriteOrDeleteSeesTheWrite() {
    write(put("p", "k", 1, "one"));
    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).contains("t/1/one");

    write(put("p", "k", 2, "two"));
    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).contains("t/2/two");

    write(delete("p", "k"));
    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).isEmpty();

    write(put("p", "k", 3, "three"));
    assertThat(store().get(b("p"), b("k"), new Tagged("t"))).contains("t/3/three");
  }

  @Test
  default void unequalDerivationsEachGetTheirOwnResult() {
    write(put("p", "k", 1, "v"));

    assertThat(store().get(b("p"), b("k"), new Tagged("a"))).contains("a/1/v");
    assertThat(store().get(b("p"), b("k"), new Tagged("b"))).contains("b/1/v");
    assertThat(store().get(b("p"), b("k"), new Tagged("a"))).contains("a/1/v");
    assertThat(store().get(b("p"), b("k"))).get().extracting(v -> s(v.value())).isEqualTo("v");
  }

  @Test
  default void derivedReadsDuringWritesNeverSeeAVersionOlderThanTheLastAcknowledged()
      throws Exception {
    int writes = 500;
    write(put("p", "k", 0, "0"));
    AtomicLong acknowledged = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    ExecutorService readers = Executors.newFixedThreadPool(2);
    try {
      Future<?>[] running = new Future<?>[2];
      for (int r = 0; r < running.length; r++) {
        running[r] =
            readers.submit(
                () -> {
                  long reads = 0;
                  while (!done.get() || reads == 0) {
                    long floor = acknowledged.get();
                    String found = store().get(b("p"), b("k"), new Tagged("t")).orElseThrow();
                    long version = Long.parseLong(found.split("/")[1]);
                    assertThat(version)
                        .as("derived read after version %d was acknowledged", floor)
                        .isGreaterThanOrEqualTo(floor);
                    assertThat(found).isEqualTo("t/" + version + "/" + version);
                    reads++;
                  }
                  return reads;
                });
      }
      for (long v = 1; v <= writes; v++) {
        write(Mutation.put(b("p"), b("k"), v, b(Long.toString(v))));
        acknowledged.set(v);
      }
      done.set(true);
      for (Future<?> f : running) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      done.set(true);
      readers.shutdownNow();
    }
  }

  /** Derives "tag/version/value"; equal by tag, as the contract of {@link Derivation} asks. */
  record Tagged(String tag) implements Derivation<String> {
    @Override
    public String derive(long version, byte[] value) {
      return tag + "/" + version + "/" + s(value);
    }

    @Override
    public long weight(String result) {
      return 40 + 2L * result.length();
    }
  }
}
