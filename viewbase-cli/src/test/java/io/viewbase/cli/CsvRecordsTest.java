package io.viewbase.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvRecordsTest {
  private static List<CsvRecords.Record> read(String csv, int max) {
    ByteInput input =
        new ByteInput(new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)), 0);
    CsvRecords records = new CsvRecords(input, max);
    List<CsvRecords.Record> all = new ArrayList<>();
    for (CsvRecords.Record r = records.next(); r != null; r = records.next()) {
      all.add(r);
    }
    return all;
  }

  @Test
  void quotedEmptyIsAnEmptyStringAndUnquotedEmptyIsAbsent() {
    List<CsvRecords.Field> fields = read("a,,\"\",b\r\n", 1000).get(0).fields();

    assertThat(fields)
        .containsExactly(
            new CsvRecords.Field("a", false),
            new CsvRecords.Field("", false),
            new CsvRecords.Field("", true),
            new CsvRecords.Field("b", false));
    assertThat(fields.get(1).absent()).isTrue();
    assertThat(fields.get(2).absent()).isFalse();
  }

  @Test
  void quotesCommasAndLineBreaksRoundTripThroughWrite() {
    StringBuilder out = new StringBuilder();
    CsvRecords.write(out, java.util.Arrays.asList("x, \"y\"", "two\nlines", "", null, "ü"));

    assertThat(out.toString()).isEqualTo("\"x, \"\"y\"\"\",\"two\nlines\",\"\",,ü\r\n");
    List<CsvRecords.Record> records = read(out + "next,1\n", 1000);
    assertThat(records).hasSize(2);
    assertThat(records.get(0).fields())
        .extracting(CsvRecords.Field::text)
        .containsExactly("x, \"y\"", "two\nlines", "", "", "ü");
    assertThat(records.get(1).line()).isEqualTo(3);
  }

  @Test
  void aByteOrderMarkIsDroppedAndEmptyLinesSkipped() {
    List<CsvRecords.Record> records = read("\uFEFFa,b\n\n\r\nc,d\n", 1000);

    assertThat(records).extracting(r -> r.fields().get(0).text()).containsExactly("a", "c");
  }

  @Test
  void textAfterAClosingQuoteAndBadUtf8AreTheRecordsErrors() {
    assertThat(read("\"x\"y,z\nok,1\n", 1000))
        .extracting(CsvRecords.Record::error)
        .containsExactly("Text follows the closing quote of a field", null);
    byte[] bad = {'a', ',', (byte) 0xc3, '\n'};
    ByteInput input = new ByteInput(new ByteArrayInputStream(bad), 0);
    assertThat(new CsvRecords(input, 1000).next().error()).isEqualTo("A field is not valid UTF-8");
  }

  @Test
  void aRecordOverTheBoundIsTooLongAndTheNextOneReadsWhole() {
    List<CsvRecords.Record> records = read("\"" + "a\n".repeat(100) + "\",b\nc,d\n", 50);

    assertThat(records.get(0).tooLong()).isTrue();
    assertThat(records.get(1).fields())
        .extracting(CsvRecords.Field::text)
        .containsExactly("c", "d");
    assertThat(records.get(1).line()).isEqualTo(102);
  }
}
