package io.viewbase.cli;

import picocli.CommandLine.Option;

/**
 * {@code --log-format text|json}: the shape of the server's log lines on stderr ({@link Logging}).
 */
final class LogFormatOption {
  @Option(
      names = "--log-format",
      paramLabel = "text|json",
      defaultValue = "text",
      description =
          "Log lines on stderr as text or as JSON objects, one a line (default: ${DEFAULT-VALUE}).")
  Logging.Format format = Logging.Format.TEXT;

  /** Switches the log to the chosen format; text is how logging starts, so it changes nothing. */
  void apply() {
    if (format != Logging.Format.TEXT) {
      Logging.use(format);
    }
  }
}
