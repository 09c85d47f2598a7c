package io.viewbase.server.azure;

import io.viewbase.api.Batch;
import io.viewbase.api.BatchResult;
import io.viewbase.api.Database;
import io.viewbase.api.ErrorCode;
import io.viewbase.api.Item;
import io.viewbase.api.ViewbaseException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Entity group transactions ({@code POST /$batch}): one changeset of up to 100 writes to one
 * partition of one table, mapped onto one {@link Database#commit(Batch)}, so it is all or nothing.
 *
 * <pre>
 * sub-request          | If-Match  | batch operation
 * ---------------------+-----------+----------------
 * POST /t              | -         | insert
 * PUT /t(pk,rk)        | none      | upsert
 * PUT /t(pk,rk)        | * or ETag | replace
 * MERGE or PATCH       | none      | upsertMerge
 * MERGE or PATCH       | * or ETag | merge
 * DELETE /t(pk,rk)     | * or ETag | delete
 * </pre>
 *
 * A batch that was read and authenticated answers 202 whatever happens inside; a failure is a
 * changeset holding one part, the failing operation's status and error, whose message starts with
 * its 0-based index and a colon (the clients read the index from there). Checks before the commit,
 * each reported at the first offending operation: more than 100 operations (InvalidInput), a second
 * table (InvalidInput), a second partition key (CommandsInBatchActOnDifferentPartitions), an entity
 * named twice (InvalidDuplicateRow), a GET (NotImplemented), and each operation's own input and SAS
 * permission.
 */
final class BatchEndpoint {
  private final Database db;
  private final EntityEndpoints entities;

  BatchEndpoint(Database db, EntityEndpoints entities) {
    this.db = db;
    this.entities = entities;
  }

  /** A failure of the operation at {@code index}. */
  static final class IndexedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int index;
    final ViewbaseException failure;

    IndexedFailure(int index, ViewbaseException failure) {
      super(failure.getMessage(), null, false, false);
      this.index = index;
      this.failure = failure;
    }
  }

  /** One parsed sub-request, and the batch operation it becomes. */
  private record SubRequest(
      String method, ResourcePath path, Map<String, String> headers, byte[] body) {}

  AzureResponse handle(Call call, String requestId) {
    List<SubRequest> subs = parse(call);
    BatchResponse out = new BatchResponse(call.path().baseUrl());
    try {
      if (subs.size() > Batch.MAX_OPERATIONS) {
        throw new IndexedFailure(
            Batch.MAX_OPERATIONS,
            new ViewbaseException(
                ErrorCode.InvalidInput,
                "The batch request operation exceeds the maximum 100 changes per change set."));
      }
      List<Batch.Operation> operations = new ArrayList<>(subs.size());
      List<Boolean> noContent = new ArrayList<>(subs.size());
      String table = null;
      String partition = null;
      Set<String> rows = new HashSet<>();
      for (int i = 0; i < subs.size(); i++) {
        SubRequest sub = subs.get(i);
        try {
          Batch.Operation op = operation(call, sub);
          if (table == null) {
            table = op.table();
            partition = op.partitionKey();
          } else if (!table.equalsIgnoreCase(op.table())) {
            throw ViewbaseException.of(
                ErrorCode.InvalidInput,
                "All operations in a batch must address the same " + "table",
                "table",
                op.table(),
                "firstTable",
                table);
          } else if (!partition.equals(op.partitionKey())) {
            throw ViewbaseException.of(
                ErrorCode.CommandsInBatchActOnDifferentPartitions,
                "A batch's operations address more than one partition key",
                "partitionKey",
                op.partitionKey(),
                "firstPartitionKey",
                partition);
          }
          if (!rows.add(op.id())) {
            throw ViewbaseException.of(
                ErrorCode.InvalidDuplicateRow,
                "The batch names an entity twice",
                "partitionKey",
                op.partitionKey(),
                "rowKey",
                op.id());
          }
          operations.add(op);
          String prefer = sub.headers().get("prefer");
          noContent.add(
              prefer == null
                  || !prefer.contains("return-content")
                  || prefer.contains("no-content"));
        } catch (ViewbaseException e) {
          throw new IndexedFailure(i, e);
        }
      }
      if (operations.isEmpty()) {
        throw new ViewbaseException(ErrorCode.InvalidInput, "The batch holds no operations.");
      }
      try {
        entities.table(table);
      } catch (ViewbaseException e) {
        throw new IndexedFailure(0, e);
      }
      BatchResult result = commit(operations);
      for (int i = 0; i < operations.size(); i++) {
        out.success(i, operations.get(i), result.items().get(i), noContent.get(i), call);
      }
    } catch (IndexedFailure f) {
      out.failure(f.index, f.failure, requestId);
    }
    return AzureResponse.of(202, out.contentType(), out.finish());
  }

  private BatchResult commit(List<Batch.Operation> operations) {
    try {
      return db.commit(Batch.of(operations));
    } catch (ViewbaseException e) {
      Object index = e.context().get("operationIndex");
      throw new IndexedFailure(index instanceof Number n ? n.intValue() : 0, e);
    }
  }

  private Batch.Operation operation(Call call, SubRequest sub) {
    ResourcePath path = sub.path();
    String method = sub.method();
    String override = sub.headers().get("x-http-method");
    if (method.equals("POST") && override != null) {
      method = override.trim().toUpperCase(java.util.Locale.ROOT);
    }
    String ifMatch = AzureKeys.checkIfMatch(sub.headers().get("if-match"));
    Grant grant = call.grant();
    if (method.equals("POST") && path.kind() == ResourcePath.Kind.ENTITIES) {
      EntityReader.Entity e = EntityReader.read(sub.body());
      AzureKeys.checkWritable("PartitionKey", e.partitionKey());
      AzureKeys.checkWritable("RowKey", e.rowKey());
      grant.checkEntity(Permission.INSERT, path.table(), e.partitionKey(), e.rowKey());
      return new Batch.Operation(
          Batch.Kind.INSERT,
          path.table(),
          EntityEndpoints.item(e.partitionKey(), e.rowKey(), e),
          null);
    }
    if (path.kind() != ResourcePath.Kind.ENTITY) {
      throw ViewbaseException.of(
          ErrorCode.InvalidInput,
          "A batch operation must address an entity or, to insert, " + "a table",
          "method",
          method,
          "path",
          path.signedPath());
    }
    switch (method) {
      case "PUT", "MERGE", "PATCH" -> {
        Item item = EntityEndpoints.addressed(path, EntityReader.read(sub.body()));
        grant.checkEntity(
            ifMatch == null ? Permission.UPSERT : Permission.UPDATE,
            path.table(),
            path.partitionKey(),
            path.rowKey());
        boolean merge = !method.equals("PUT");
        Batch.Kind kind =
            ifMatch == null
                ? (merge ? Batch.Kind.UPSERT_MERGE : Batch.Kind.UPSERT)
                : (merge ? Batch.Kind.MERGE : Batch.Kind.REPLACE);
        return new Batch.Operation(kind, path.table(), item, ifMatch);
      }
      case "DELETE" -> {
        grant.checkEntity(Permission.DELETE, path.table(), path.partitionKey(), path.rowKey());
        return new Batch.Operation(
            Batch.Kind.DELETE,
            path.table(),
            Item.of(path.partitionKey(), path.rowKey(), Map.of()),
            ifMatch);
      }
      case "GET" ->
          throw new ViewbaseException(
              ErrorCode.NotImplemented,
              "A GET inside a batch is not supported; read the entity with its own request.");
      default ->
          throw ViewbaseException.of(
              ErrorCode.InvalidInput, "A batch operation cannot use the method", "method", method);
    }
  }

  private static List<SubRequest> parse(Call call) {
    String boundary = Multipart.boundary(call.header("content-type"));
    if (boundary == null) {
      throw Multipart.malformed("the Content-Type names no boundary");
    }
    String text = new String(call.request().body(), StandardCharsets.UTF_8);
    List<String> batchParts = Multipart.parts(text, boundary);
    if (batchParts.size() != 1) {
      throw Multipart.malformed(
          "a batch holds exactly one changeset, found " + batchParts.size() + " parts");
    }
    Multipart.Split changeset = Multipart.split(batchParts.get(0), false);
    String changesetBoundary = Multipart.boundary(changeset.headers().get("content-type"));
    if (changesetBoundary == null) {
      throw Multipart.malformed("the changeset's Content-Type names no boundary");
    }
    String host = call.header("host");
    List<SubRequest> subs = new ArrayList<>();
    for (String part : Multipart.parts(changeset.rest(), changesetBoundary)) {
      Multipart.Split mime = Multipart.split(part, false);
      Multipart.Split http = Multipart.split(mime.rest(), true);
      String line = http.firstLine();
      int sp1 = line == null ? -1 : line.indexOf(' ');
      int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
      if (sp2 < 0) {
        throw Multipart.malformed("an operation has no request line such as POST <url> HTTP/1.1");
      }
      String method = line.substring(0, sp1).toUpperCase(java.util.Locale.ROOT);
      String url = line.substring(sp1 + 1, sp2);
      AzureRequest inner = new AzureRequest(method, url, http.headers(), null, null);
      ResourcePath path = subPath(url, inner.rawPath(), host, call.path().pathStyle());
      subs.add(
          new SubRequest(
              method, path, http.headers(), http.rest().strip().getBytes(StandardCharsets.UTF_8)));
    }
    return subs;
  }

  private static ResourcePath subPath(String url, String rawPath, String host, boolean pathStyle) {
    if (url.startsWith("http://") || url.startsWith("https://")) {
      int hostStart = url.indexOf("//") + 2;
      int slash = url.indexOf('/', hostStart);
      String urlHost = slash < 0 ? url.substring(hostStart) : url.substring(hostStart, slash);
      return ResourcePath.parse(rawPath, urlHost);
    }
    return ResourcePath.parseInBatch(rawPath, host, pathStyle);
  }
}
