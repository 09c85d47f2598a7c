package io.viewbase.server;

import io.viewbase.api.Database;
import io.viewbase.api.ViewStatus;
import io.viewbase.json.VerifyReportJson;
import io.viewbase.json.ViewDefinitionJson;
import io.viewbase.json.ViewStatusJson;
import java.util.Map;

/**
 * The view endpoints of the native API v1, as translation onto the {@link Database} view methods.
 * Views are read through the table endpoints under their own name; these manage their lifecycle.
 *
 * <pre>
 * request                          | Database call          | success
 * ---------------------------------+------------------------+---------------------------------------------
 * PUT    /v1/views/{v}  definition | createView             | 202 + status while building; 201 once built
 *                                  |                        | (ready, or failed: the body's state says which)
 * GET    /v1/views/{v}             | viewStatus             | 200 + status (definition, state, progress)
 * DELETE /v1/views/{v}             | dropView               | 204
 * POST   /v1/views/{v}/verify      | verifyView(v, false)   | 200 + report
 * POST   .../verify?repair=true    | verifyView(v, true)    | 200 + report (repaired: true)
 * </pre>
 *
 * Unknown views answer 404 TableNotFound, bad definitions 400 InvalidView (unknown members named),
 * a name already taken 409 TableAlreadyExists, verify of a view that is not ready 409 ViewNotReady.
 */
final class ViewEndpoints {
  private final Database db;

  ViewEndpoints(Database db) {
    this.db = db;
  }

  ApiResponse view(ApiRequest r, String name) {
    return switch (r.method()) {
      case "PUT" -> create(r, name);
      case "DELETE" -> {
        db.dropView(name);
        yield ApiResponse.noContent();
      }
      default -> ApiResponse.json(200, ViewStatusJson.write(db.viewStatus(name)));
    };
  }

  /**
   * 202 Accepted says the backfill goes on after the answer; a view over an empty or small source
   * may already be built when the answer is written, and then it is simply Created.
   */
  private ApiResponse create(ApiRequest r, String name) {
    NativeApi.requireJson(r);
    ViewStatus status = db.createView(ViewDefinitionJson.read(r.body(), name));
    int code = ViewStatus.BUILDING.equals(status.state()) ? 202 : 201;
    return ApiResponse.json(code, ViewStatusJson.write(status))
        .withHeader("Location", "/v1/views/" + status.definition().name());
  }

  /** {@code parameters}: the request's, which its route takes ({@code repair} only). */
  ApiResponse verify(Map<String, String> parameters, String name) {
    boolean repair = QueryParameters.bool(parameters, "repair");
    return ApiResponse.json(200, VerifyReportJson.write(db.verifyView(name, repair)));
  }
}
