package io.viewbase.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.LoggerFactory;

/**
 * How the command line logs (logback, configured here in code: no configuration file is looked
 * for): to stderr, so that stdout carries only a command's output, as text lines or as JSON lines.
 *
 * <pre>
 * format | a line
 * -------+---------------------------------------------------------------------------------
 * text   | 2026-12-02T15:40:33.123+0000 INFO ViewbaseServer - Viewbase native API listening…
 * json   | logback's JsonEncoder: {"sequenceNumber":0,"timestamp":…,"level":"INFO",
 *        |   "threadName":"main","loggerName":"io.viewbase.server.ViewbaseServer",…,
 *        |   "message":"…","throwable":{…}} — one object a line
 * </pre>
 *
 * The level is {@code info} for {@code serve} and {@code warn} for every other command (whose one
 * line of output the engine's info lines would bury): {@link Main} sets {@value #LEVEL} before any
 * logger exists, and a level set with {@code -Dviewbase.logLevel} wins. The Cassandra driver, which
 * announces its version and handlers at info, logs at warn and above.
 *
 * <p>Log lines never carry a secret: the server names a request by its method and path, never its
 * query string (where a SAS signature travels) or its headers (Authorization), and nothing logs a
 * key it was configured with.
 */
public final class Logging extends ContextAwareBase implements Configurator {
  /** The system property with the root level. */
  static final String LEVEL = "viewbase.logLevel";

  /** A log line's shape, chosen with {@code serve --log-format}. */
  enum Format {
    TEXT,
    JSON
  }

  /** Found by logback (a service of this jar) when the first logger is made: text lines. */
  @Override
  public ExecutionStatus configure(LoggerContext context) {
    setUp(context, Format.TEXT);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** Logs from now on in {@code format}. */
  static void use(Format format) {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.reset();
      setUp(context, format);
    }
  }

  private static void setUp(LoggerContext context, Format format) {
    Encoder<ILoggingEvent> encoder;
    if (format == Format.JSON) {
      JsonEncoder json = new JsonEncoder();
      json.setWithContext(false);
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.setWithArguments(false);
      json.setWithFormattedMessage(true);
      json.setWithMessage(false);
      encoder = json;
    } else {
      PatternLayoutEncoder text = new PatternLayoutEncoder();
      text.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSZ} %level %logger{0} - %msg%n");
      encoder = text;
    }
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName("stderr");
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder);
    stderr.start();
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(System.getProperty(LEVEL), Level.INFO));
    root.addAppender(stderr);
    context.getLogger("com.datastax.oss.driver").setLevel(Level.WARN);
  }
}
