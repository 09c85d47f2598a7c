package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.ViewbaseException;

/**
 * Coverage-guided fuzzing of the Azure dialect's entity reader (JSON with {@code @odata.type}
 * annotations, Azure's size limits). The contract for any body: {@link EntityReader#read} returns
 * an entity, or throws {@link ViewbaseException} with a client-error code (Azure's 400 codes); any
 * other exception is a finding. A read entity's properties fit Azure's count limit. Inputs replay
 * from {@code EntityReaderFuzzTestInputs/}.
 */
class EntityReaderFuzzTest {
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
    "\"PartitionKey\"",
    "\"RowKey\"",
    "\"Timestamp\"",
    "\"odata.etag\"",
    "@odata.type",
    "\"Edm.Int64\"",
    "\"Edm.Double\"",
    "\"Edm.DateTime\"",
    "\"Edm.Guid\"",
    "\"Edm.Binary\"",
    "\"Edm.Boolean\"",
    "\"Edm.String\"",
    "\"Edm.Int32\"",
    "\"NaN\"",
    "\"Infinity\""
  })
  @FuzzTest(maxDuration = "3s")
  void readReturnsAnEntityOrFailsWithAClientError(byte[] body) {
    try {
      EntityReader.Entity entity = EntityReader.read(body);
      assertThat(entity.properties().size()).isLessThanOrEqualTo(EntityReader.MAX_PROPERTIES);
    } catch (ViewbaseException e) {
      assertThat(e.code().isClientError()).as("%s is a client error", e.code()).isTrue();
    }
  }
}
