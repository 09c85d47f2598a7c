package io.viewbase.server.azure;

import io.viewbase.api.ErrorCode;
import io.viewbase.api.ViewbaseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cross-origin resource sharing as Azure's storage services do it, from the CORS rules of the
 * service properties: the answer to a preflight, and the {@code Access-Control-*} headers of every
 * other answer (errors included). CORS is no authorization: a preflight is answered without one,
 * and the request it announces must be signed as any other.
 *
 * <p>Preflight ({@code OPTIONS} on any path, signed or not; the first rule whose origins and
 * methods match decides, as on Azure, so a later rule is never tried for the headers):
 *
 * <pre>
 * request                                     | answer
 * --------------------------------------------+----------------------------------------------------------
 * no Origin or no Access-Control-Request-Method| 400 InvalidHeaderValue
 * no rule matches Origin and the method, or   | 403 CorsPreflightFailure
 *   that rule refuses a requested header      |
 * else                                        | 200, Allow-Origin: the origin, Allow-Methods: the method,
 *                                             |   Allow-Headers: those requested, Max-Age: the rule's,
 *                                             |   Allow-Credentials: true
 * </pre>
 *
 * <p>Any other request, when rules exist (none: no header is added), by the first rule matching its
 * origin and method:
 *
 * <pre>
 * Origin | rule matched        | headers added
 * -------+---------------------+------------------------------------------------------------------
 * given  | names the origin    | Allow-Origin: the origin, Allow-Credentials: true, Expose-Headers,
 *        |                     |   Vary: Origin (GET and HEAD)
 * any    | allows * origins    | Allow-Origin: *, Expose-Headers
 * any    | none                | Vary: Origin (GET and HEAD)
 * </pre>
 *
 * <p>The rules are held in memory, so no request pays a storage read: a Set through this server
 * replaces them at once ({@link #changed}), and once they are older than {@link #REFRESH} the next
 * request starts a read of the stored ones in the background, for servers sharing a store.
 */
final class Cors {
  /** How stale the rules may get when another server sharing the store changes them. */
  static final Duration REFRESH = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(Cors.class);

  private final Supplier<List<CorsRule>> stored;
  private final AtomicBoolean refreshing = new AtomicBoolean();

  /** Counts {@link #changed} calls, so a refresh that read before one does not undo it. */
  private final AtomicLong changes = new AtomicLong();

  private volatile List<CorsRule> rules = List.of();
  private volatile long loadedAt;

  /** Reads the stored rules now; {@code stored} reads them again on each refresh. */
  Cors(Supplier<List<CorsRule>> stored) {
    this.stored = stored;
    try {
      rules = stored.get();
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not read the CORS rules; none apply until they can be read: {}", e.toString());
    }
    loadedAt = System.nanoTime();
  }

  /** The rules just stored through this server. */
  void changed(List<CorsRule> next) {
    changes.incrementAndGet();
    rules = List.copyOf(next);
    loadedAt = System.nanoTime();
  }

  /** The rules in force; past {@link #REFRESH}, a background read of the stored ones is started. */
  List<CorsRule> rules() {
    if (System.nanoTime() - loadedAt > REFRESH.toNanos() && refreshing.compareAndSet(false, true)) {
      long seen = changes.get();
      try {
        ForkJoinPool.commonPool().execute(() -> refresh(seen));
      } catch (RuntimeException rejected) {
        refreshing.set(false);
      }
    }
    return rules;
  }

  private void refresh(long seen) {
    try {
      List<CorsRule> read = stored.get();
      if (changes.get() == seen) {
        rules = read;
      }
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not read the CORS rules again; the last ones read still apply: {}", e.toString());
    } finally {
      loadedAt = System.nanoTime();
      refreshing.set(false);
    }
  }

  /** The answer to a preflight ({@code OPTIONS}); a refusal is thrown as the error to answer. */
  AzureResponse preflight(AzureRequest request) {
    String origin = request.header("origin");
    String method = request.header("access-control-request-method");
    if (origin == null || method == null) {
      throw ViewbaseException.of(
          ErrorCode.InvalidHeader,
          "A required CORS header is not present",
          "header",
          origin == null ? "Origin" : "Access-Control-Request-Method");
    }
    String headers = request.header("access-control-request-headers");
    for (CorsRule rule : rules()) {
      if (rule.allowsOrigin(origin) && rule.allowsMethod(method)) {
        if (headers != null && !rule.allowsHeaders(headers)) {
          break; // this rule decides; Azure tries no other for the headers
        }
        return AzureResponse.empty(200)
            .with("Access-Control-Allow-Origin", origin)
            .with("Access-Control-Allow-Methods", method)
            .with("Access-Control-Allow-Headers", headers)
            .with("Access-Control-Max-Age", Integer.toString(rule.maxAgeInSeconds()))
            .with("Access-Control-Allow-Credentials", "true");
      }
    }
    throw ViewbaseException.of(
        ErrorCode.CorsPreflightFailure,
        "No CORS rule allows the preflight",
        "origin",
        origin,
        "method",
        method);
  }

  /**
   * Adds the {@code Access-Control-*} headers a non-preflight answer gets (see the table above).
   */
  AzureResponse decorate(AzureRequest request, AzureResponse response) {
    if (request.method().equals("OPTIONS")) {
      return response;
    }
    List<CorsRule> current = rules();
    if (current.isEmpty()) {
      return response;
    }
    String origin = request.header("origin");
    boolean cacheable = request.method().equals("GET") || request.method().equals("HEAD");
    for (CorsRule rule : current) {
      boolean originMatches = origin != null ? rule.allowsOrigin(origin) : rule.allowsAllOrigins();
      if (originMatches && rule.allowsMethod(request.method())) {
        String exposed = rule.exposed(headerNames(response));
        exposed = exposed.isEmpty() ? null : exposed;
        if (rule.allowsAllOrigins()) {
          return response
              .with("Access-Control-Allow-Origin", "*")
              .with("Access-Control-Expose-Headers", exposed);
        }
        return response
            .with("Access-Control-Allow-Origin", origin)
            .with("Access-Control-Allow-Credentials", "true")
            .with("Access-Control-Expose-Headers", exposed)
            .with("Vary", cacheable ? "Origin" : null);
      }
    }
    return response.with("Vary", cacheable ? "Origin" : null);
  }

  private static List<String> headerNames(AzureResponse response) {
    List<String> names = new ArrayList<>();
    if (response.contentType() != null) {
      names.add("Content-Type");
    }
    names.add("Content-Length");
    List<String> pairs = response.headers();
    for (int i = 0; i < pairs.size(); i += 2) {
      names.add(pairs.get(i));
    }
    return names;
  }
}
