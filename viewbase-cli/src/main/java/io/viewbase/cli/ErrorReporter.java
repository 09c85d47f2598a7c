package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into one line on stderr and an exit code, never a stack trace.
 *
 * <pre>
 * failure                          | stderr                                        | exit
 * ---------------------------------+-----------------------------------------------+-----
 * ViewbaseException (also wrapped) | error: &lt;Code&gt;: &lt;message&gt; (&lt;context&gt;)             | 1
 * bad arguments                    | error: Usage: &lt;message&gt;, then a --help hint     | 2
 * anything else                    | error: InternalError: &lt;exception&gt;               | 1
 * </pre>
 *
 * Run with {@code -Dviewbase.debug=true} to get the stack trace of an unexpected exception.
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {

  @Override
  public int handleExecutionException(Exception failure, CommandLine command, ParseResult parsed) {
    PrintWriter err = command.getErr();
    ViewbaseException known = find(failure);
    if (known != null) {
      err.println("error: " + known.code() + ": " + known.getMessage() + context(known.context()));
    } else {
      err.println("error: " + ErrorCode.InternalError + ": " + failure);
      if (Boolean.getBoolean("viewbase.debug")) {
        failure.printStackTrace(err);
      }
    }
    err.flush();
    return 1;
  }

  @Override
  public int handleParseException(ParameterException failure, String[] args) {
    CommandLine command = failure.getCommandLine();
    PrintWriter err = command.getErr();
    err.println("error: Usage: " + failure.getMessage());
    UnmatchedArgumentException.printSuggestions(failure, err);
    err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for usage.");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  /** The ViewbaseException a failure is or wraps (an HTTP client or a pool may wrap it). */
  private static ViewbaseException find(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof ViewbaseException known) {
        return known;
      }
    }
    return null;
  }

  private static String context(Map<String, Object> context) {
    if (context.isEmpty()) {
      return "";
    }
    return context.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ", " (", ")"));
  }
}
