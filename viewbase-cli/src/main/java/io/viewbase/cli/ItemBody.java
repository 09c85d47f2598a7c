package io.viewbase.cli;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.Limits;
import io.viewbase.api.ViewbaseException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The JSON body of a write, given as an argument the way curl takes {@code -d}:
 *
 * <pre>
 * argument      | body
 * --------------+------------------------------------------------
 * {"a": 1}      | that text
 * &#64;item.json    | the content of item.json (relative to the current directory)
 * -             | standard input, to its end
 * (absent)      | {} : an item with no properties (put only)
 * </pre>
 */
final class ItemBody {
  private ItemBody() {}

  /** The item the argument describes, with the identity given on the command line. */
  static Item read(
      String argument, String partitionKey, String id, Limits limits, InputStream stdin) {
    return JsonText.readItem(text(argument, stdin), partitionKey, id, limits);
  }

  private static String text(String argument, InputStream stdin) {
    if (argument == null) {
      return "{}";
    }
    try {
      if (argument.equals("-")) {
        return new String(stdin.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (argument.startsWith("@")) {
        return Files.readString(Path.of(argument.substring(1)), StandardCharsets.UTF_8);
      }
    } catch (NoSuchFileException missing) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput, "Body file not found", "file", argument.substring(1));
    } catch (IOException failure) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "Cannot read the body: " + failure.getMessage(),
          "source",
          argument);
    }
    return argument;
  }
}
