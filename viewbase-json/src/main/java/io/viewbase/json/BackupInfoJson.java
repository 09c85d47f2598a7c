package io.viewbase.json;

import com.fasterxml.jackson.core.JsonToken;
import io.viewbase.api.BackupInfo;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * {@code POST /v1/admin/backup} as JSON. The request is {@code {"to": "/absolute/dir"}}, the
 * directory on the server's machine; the answer is {@link BackupInfo}: {@code {"id", "created",
 * "directory", "sizeBytes", "files", "filesCopied", "filesShared", "bytesCopied",
 * "durationMillis"}}, {@code created} ISO-8601 text.
 */
public final class BackupInfoJson {
  /** The longest target path a request may name, in characters (Linux's PATH_MAX). */
  public static final int MAX_PATH_LENGTH = 4096;

  private static final Set<String> REQUEST_MEMBERS = Set.of("to");

  private BackupInfoJson() {}

  public static byte[] writeRequest(String to) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeStringField("to", to);
          g.writeEndObject();
        });
  }

  /**
   * The request's target directory, as given (the server decides whether it may be used); a body
   * without {@code "to"}, with other members or with a path over {@link #MAX_PATH_LENGTH} is
   * InvalidJson.
   */
  public static String readRequest(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A backup request must be a JSON object");
          String[] to = {null};
          Set<String> unknown =
              Json.readKnownMembers(
                  p,
                  REQUEST_MEMBERS,
                  (parser, member) -> {
                    if (parser.currentToken() != JsonToken.VALUE_STRING) {
                      throw Json.shape(parser, "\"to\" must be a string: a directory path");
                    }
                    to[0] = parser.getText();
                  });
          if (!unknown.isEmpty()) {
            throw ViewbaseException.of(
                ErrorCode.InvalidJson,
                "Unknown members in the backup request; the only one is \"to\"",
                "members",
                String.join(", ", unknown));
          }
          if (to[0] == null || to[0].isEmpty()) {
            throw ViewbaseException.of(
                ErrorCode.InvalidJson, "A backup request must name its target directory in \"to\"");
          }
          if (to[0].length() > MAX_PATH_LENGTH) {
            throw ViewbaseException.of(
                ErrorCode.InvalidJson,
                "The backup target path is too long",
                "length",
                to[0].length(),
                "limit",
                MAX_PATH_LENGTH);
          }
          return to[0];
        });
  }

  public static byte[] write(BackupInfo info) {
    return Json.write(
        g -> {
          g.writeStartObject();
          g.writeNumberField("id", info.id());
          g.writeStringField("created", info.created().toString());
          g.writeStringField("directory", info.directory());
          g.writeNumberField("sizeBytes", info.sizeBytes());
          g.writeNumberField("files", info.files());
          g.writeNumberField("filesCopied", info.filesCopied());
          g.writeNumberField("filesShared", info.filesShared());
          g.writeNumberField("bytesCopied", info.bytesCopied());
          g.writeNumberField("durationMillis", info.duration().toMillis());
          g.writeEndObject();
        });
  }

  public static BackupInfo read(byte[] json) {
    return Json.read(
        json,
        0,
        json.length,
        p -> {
          PageJson.expect(p, JsonToken.START_OBJECT, "A backup answer must be a JSON object");
          long id = 0;
          Instant created = null;
          String directory = null;
          long sizeBytes = 0;
          int files = 0;
          int filesCopied = 0;
          int filesShared = 0;
          long bytesCopied = 0;
          long millis = 0;
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String member = p.currentName();
            p.nextToken();
            switch (member) {
              case "id" -> id = p.getValueAsLong();
              case "created" -> created = IsoTimes.parse(p.getValueAsString());
              case "directory" -> directory = p.getValueAsString();
              case "sizeBytes" -> sizeBytes = p.getValueAsLong();
              case "files" -> files = p.getValueAsInt();
              case "filesCopied" -> filesCopied = p.getValueAsInt();
              case "filesShared" -> filesShared = p.getValueAsInt();
              case "bytesCopied" -> bytesCopied = p.getValueAsLong();
              case "durationMillis" -> millis = p.getValueAsLong();
              default -> p.skipChildren();
            }
          }
          if (created == null || directory == null) {
            throw Json.shape(p, "A backup answer must name its \"created\" and \"directory\"");
          }
          return new BackupInfo(
              id,
              created,
              directory,
              sizeBytes,
              files,
              filesCopied,
              filesShared,
              bytesCopied,
              Duration.ofMillis(millis));
        });
  }
}
