package io.viewbase.server;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The native API's request path fuzzed in process: {@link NativeRequestFuzzTest}'s inputs and
 * contract, each input carried through the listener's handlers on an in-process connection ({@link
 * PipelineExchange}) rather than a socket. The same pipeline, dialect and database, thousands of
 * inputs a second instead of tens (a socket's client must wait to learn that the server waits for
 * more bytes): the target for the long run. Inputs replay from {@code
 * NativePipelineFuzzTestInputs/}.
 */
class NativePipelineFuzzTest {
  static Database db;
  static PipelineExchange exchange;

  @BeforeAll
  static void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    NativeRequestFuzzTest.seed(db);
    ServerMetrics metrics = new ServerMetrics();
    exchange =
        new PipelineExchange(
            ViewbaseServer.listenerOptions(ServerOptions.defaults()),
            new NativeDialect(
                new NativeApi(db, metrics, ApiKeys.of(db), true), metrics.requests("native")));
  }

  @AfterAll
  static void stop() {
    db.close();
  }

  @NativeRequestFuzzTest.Dictionary
  @FuzzTest(maxDuration = "3s")
  void requestsAnswerBelow500WithoutChangingDataWhenRefused(FuzzedDataProvider data) {
    NativeRequestFuzzTest.check(db, data, exchange::statuses);
  }
}
