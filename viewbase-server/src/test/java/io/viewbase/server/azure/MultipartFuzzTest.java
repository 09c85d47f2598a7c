package io.viewbase.server.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;

/**
 * Coverage-guided fuzzing of the {@code $batch} multipart reader, in the order the batch endpoint
 * uses it: the boundary of a Content-Type, the batch's parts, the changeset's headers and its
 * boundary, each operation's MIME headers and embedded HTTP message. The contract for any text:
 * each step returns, or throws {@link ViewbaseException} with {@link ErrorCode#InvalidInput} (400);
 * any other exception is a finding. A part never extends beyond the text it came from. Inputs
 * replay from {@code MultipartFuzzTestInputs/}. The whole of {@code $batch} (sub-request paths, the
 * operations themselves) is fuzzed over HTTP by {@link AzureRequestFuzzTest}.
 */
class MultipartFuzzTest {
  // libFuzzer dictionaries take bytes as \\xNN escapes, never a raw line break.
  @DictionaryEntries({
    "--",
    "\\x0D\\x0A",
    "\\x0A",
    "boundary=",
    "batch_1",
    "changeset_1",
    "Content-Type: ",
    "multipart/mixed; boundary=",
    "application/http",
    "Content-Transfer-Encoding: binary",
    "POST ",
    "PUT ",
    "MERGE ",
    "DELETE ",
    " HTTP/1.1",
    ": ",
    "\""
  })
  @FuzzTest(maxDuration = "3s")
  void readReturnsPartsOrFailsWithInvalidInput(FuzzedDataProvider data) {
    String contentType = data.consumeString(80);
    String text = data.consumeRemainingAsString();
    try {
      String boundary = Multipart.boundary(contentType);
      if (boundary == null) {
        return;
      }
      for (String part : Multipart.parts(text, boundary)) {
        assertThat(part.length()).isLessThanOrEqualTo(text.length());
        Multipart.Split changeset = Multipart.split(part, false);
        String inner = Multipart.boundary(changeset.headers().get("content-type"));
        if (inner == null) {
          continue;
        }
        for (String op : Multipart.parts(changeset.rest(), inner)) {
          Multipart.Split mime = Multipart.split(op, false);
          Multipart.split(mime.rest(), true);
        }
      }
    } catch (ViewbaseException e) {
      assertThat(e.code()).isEqualTo(ErrorCode.InvalidInput);
    }
  }
}
