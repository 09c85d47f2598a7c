package io.viewbase.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.TableOptions;
import io.viewbase.api.ViewbaseException;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the native API's JSON request readers, the Edm annotation reader among
 * them. The first byte picks the reader, the rest is the body:
 *
 * <pre>
 * byte % 4 | reader                    | more than "no exception"
 * ---------+---------------------------+---------------------------------------------------
 * 0        | ItemJson.read             | an item read is written and read back to equal properties
 * 1        | BatchJson.read            |
 * 2        | TableOptionsJson.read     |
 * 3        | ViewDefinitionJson.read   |
 * </pre>
 *
 * The contract for any bytes: the reader returns, or throws {@link ViewbaseException} whose code is
 * a client error (4xx); any other exception is a finding. Inputs replay from {@code
 * JsonReadersFuzzTestInputs/}.
 */
class JsonReadersFuzzTest {
  @DictionaryEntries({
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\\u",
    "null",
    "true",
    "false",
    "1e309",
    "-0",
    "1.5",
    "9223372036854775808",
    "\"@odata.type\"",
    "@odata.type",
    "Edm.Int64",
    "Edm.Double",
    "Edm.Decimal",
    "Edm.DateTime",
    "Edm.Guid",
    "Edm.Binary",
    "Edm.Boolean",
    "Edm.String",
    "Edm.Int32",
    "\"partitionKey\"",
    "\"id\"",
    "\"_etag\"",
    "\"_timestamp\"",
    "\"operations\"",
    "\"op\"",
    "\"insert\"",
    "\"item\"",
    "\"changeFeed\"",
    "\"ttl\"",
    "\"source\"",
    "\"key\"",
    "\"filter\""
  })
  @FuzzTest(maxDuration = "3s")
  void readersReturnOrFailWithAClientError(byte[] input) {
    if (input.length == 0) {
      return;
    }
    byte[] body = Arrays.copyOfRange(input, 1, input.length);
    try {
      switch (input[0] & 3) {
        case 0 -> {
          ItemBody read = ItemJson.read(body, Limits.DEFAULT);
          Item item = read.addressedTo("pk", "id");
          byte[] written = ItemJson.write(item);
          assertThat(ItemJson.read(written, Limits.DEFAULT).properties())
              .as("properties written and read back")
              .isEqualTo(read.properties());
        }
        case 1 -> BatchJson.read(body, Limits.DEFAULT);
        case 2 -> TableOptionsJson.read(body, TableOptions.DEFAULT);
        default -> ViewDefinitionJson.read(body, "v");
      }
    } catch (ViewbaseException e) {
      assertThat(e.code().isClientError()).as("%s is a client error", e.code()).isTrue();
    }
  }
}
