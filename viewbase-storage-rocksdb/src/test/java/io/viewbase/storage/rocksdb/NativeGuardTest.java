package io.viewbase.storage.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.viewbase.storage.spi.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The guard that keeps native handles from being freed under a call that uses them. */
class NativeGuardTest {

  @Test
  void closeWaitsForTheCallInsideAndRefusesNewOnes() throws Exception {
    NativeGuard guard = new NativeGuard("the store is closed");
    AtomicBoolean freed = new AtomicBoolean();
    guard.enter();
    CompletableFuture<Void> closing =
        CompletableFuture.runAsync(() -> guard.close(() -> freed.set(true)));

    // Once closing has begun, a new call is refused at once...
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!refused(guard)) {
      assertThat(System.nanoTime()).as("closing began").isLessThan(deadline);
      Thread.onSpinWait();
    }
    // ...but nothing is freed while this thread's call is still inside.
    Thread.sleep(100);
    assertThat(freed).isFalse();
    assertThat(closing).isNotDone();

    guard.exit();
    closing.get(10, TimeUnit.SECONDS);
    assertThat(freed).isTrue();
    assertThatThrownBy(guard::enter)
        .isInstanceOf(StorageException.class)
        .hasMessage("the store is closed");
  }

  /** Many threads entering and leaving while the guard closes: none is inside once it has freed. */
  @Test
  void noCallIsInsideWhenTheStoreIsFreed() throws Exception {
    for (int round = 0; round < 20; round++) {
      NativeGuard guard = new NativeGuard("closed");
      AtomicInteger inside = new AtomicInteger();
      AtomicInteger insideWhenFreed = new AtomicInteger(-1);
      AtomicInteger calls = new AtomicInteger();
      CountDownLatch running = new CountDownLatch(8);
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Thread thread =
            new Thread(
                () -> {
                  running.countDown();
                  while (true) {
                    try {
                      guard.enter();
                    } catch (StorageException closed) {
                      return;
                    }
                    try {
                      inside.incrementAndGet();
                      calls.incrementAndGet();
                      Thread.onSpinWait();
                      inside.decrementAndGet();
                    } finally {
                      guard.exit();
                    }
                  }
                });
        thread.start();
        threads.add(thread);
      }
      running.await();
      while (calls.get() < 1000) {
        Thread.onSpinWait();
      }
      guard.close(() -> insideWhenFreed.set(inside.get()));
      for (Thread thread : threads) {
        thread.join(10_000);
        assertThat(thread.isAlive()).isFalse();
      }
      assertThat(insideWhenFreed).hasValue(0);
    }
  }

  private static boolean refused(NativeGuard guard) {
    try {
      guard.enter();
    } catch (StorageException e) {
      return true;
    }
    guard.exit();
    return false;
  }
}
