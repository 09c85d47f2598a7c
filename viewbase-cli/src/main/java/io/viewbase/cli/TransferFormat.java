package io.viewbase.cli;

import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The file formats of {@code import} and {@code export} ({@code --format}); without the option, a
 * file's name decides.
 *
 * <pre>
 * format    | what                                                    | a file named
 * ----------+---------------------------------------------------------+---------------------
 * jsonl     | one item per line, the native API's JSON                | anything else
 * csv       | a header row (partitionKey, id, name@Type ...), a row   | *.csv
 *           |   per item                                              |
 * azure-csv | Azure Storage Explorer's typed CSV: PartitionKey,       | *.typed.csv
 *           |   RowKey, Timestamp, then name, name@type per property  |
 * </pre>
 */
enum TransferFormat {
  JSONL("jsonl"),
  CSV("csv"),
  AZURE_CSV("azure-csv");

  private final String text;

  TransferFormat(String text) {
    this.text = text;
  }

  @Override
  public String toString() {
    return text;
  }

  /** The format a file's name suggests; standard input and output are JSON Lines. */
  static TransferFormat of(Path file) {
    if (file == null) {
      return JSONL;
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".typed.csv")) {
      return AZURE_CSV;
    }
    return name.endsWith(".csv") ? CSV : JSONL;
  }

  /** Reads {@code --format}'s value by its name ({@code azure-csv}, any case). */
  static final class Converter implements ITypeConverter<TransferFormat> {
    @Override
    public TransferFormat convert(String value) {
      for (TransferFormat format : values()) {
        if (format.text.equalsIgnoreCase(value)) {
          return format;
        }
      }
      throw new TypeConversionException(
          "'" + value + "' is not a format; expected jsonl, csv or azure-csv");
    }
  }
}
