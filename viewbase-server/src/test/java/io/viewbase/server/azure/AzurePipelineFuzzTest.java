package io.viewbase.server.azure;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Database;
import io.viewbase.api.OpenOptions;
import io.viewbase.api.Viewbase;
import io.viewbase.server.PipelineExchange;
import io.viewbase.server.ServerMetrics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The Azure Tables dialect's request path fuzzed in process: {@link AzureRequestFuzzTest}'s inputs
 * and contract, each input carried through the listener's handlers on an in-process connection
 * ({@link PipelineExchange}) rather than a socket. The same pipeline, dialect and database,
 * thousands of inputs a second instead of tens: the target for the long run. Inputs replay from
 * {@code AzurePipelineFuzzTestInputs/}.
 */
class AzurePipelineFuzzTest {
  static Database db;
  static PipelineExchange exchange;

  @BeforeAll
  static void start() {
    db = Viewbase.open(OpenOptions.inMemory());
    AzureRequestFuzzTest.seed(db);
    AzureOptions options = AzureRequestFuzzTest.OPTIONS;
    exchange =
        new PipelineExchange(
            AzureTablesServer.listenerOptions(options),
            new AzureDialect(new AzureApi(db, options), new ServerMetrics().requests("azure")));
  }

  @AfterAll
  static void stop() {
    db.close();
  }

  @AzureRequestFuzzTest.Dictionary
  @FuzzTest(maxDuration = "3s")
  void requestsAnswerBelow500WithoutChangingDataWhenRefused(FuzzedDataProvider data) {
    AzureRequestFuzzTest.check(db, data, exchange::statuses);
  }
}
