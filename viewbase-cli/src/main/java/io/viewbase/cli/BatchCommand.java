package io.viewbase.cli;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import io.viewbase.json.BatchJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code viewbase batch FILE}: commits the batch in FILE ({@code -}: standard input), the JSON body
 * of {@code POST /v1/batch}, all or nothing, and prints what each operation stored.
 *
 * <pre>
 * outcome                      | stdout                                  | stderr                      | exit
 * -----------------------------+-----------------------------------------+-----------------------------+-----
 * committed                    | {"items": [item | null, ...]} (json)    |                             | 0
 *                              | or one row per operation (table)        |                             |
 * an operation failed          |                                         | error: Code: Operation n    | 1
 *                              |                                         | of the batch failed: ...    |
 *                              |                                         | (operationIndex=n, ...)     |
 * bad file, bad JSON, bad shape|                                         | error: Code: ...            | 1
 * </pre>
 */
@Command(
    name = "batch",
    mixinStandardHelpOptions = true,
    description =
        "Commit a batch of operations atomically (all or nothing); prints the stored items.")
final class BatchCommand extends DataCommand {
  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description =
          "The batch as JSON: {\"operations\": [{\"op\", \"table\", \"partitionKey\", \"id\", \"item\", "
              + "\"ifMatch\"}, ...]}; - reads standard input.")
  String file;

  @Override
  void run(Database db) {
    Batch batch = BatchJson.read(read(file, System.in), db.limits());
    BatchResult result = db.commit(batch);
    output.batch(out(), batch, result);
  }

  static byte[] read(String file, InputStream stdin) {
    try {
      return file.equals("-") ? stdin.readAllBytes() : Files.readAllBytes(Path.of(file));
    } catch (NoSuchFileException missing) {
      throw ViewbaseException.of(ErrorCode.InvalidInput, "Batch file not found", "file", file);
    } catch (IOException failure) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "Cannot read the batch: " + failure.getMessage(), "file", file);
    }
  }
}
