package io.viewbase.cli;

import io.viewbase.server.TlsSettings;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code serve}'s TLS flags: with both, every listener (native API, Azure, DynamoDB) speaks https
 * only, on its usual port, with one certificate and key read from PEM files; with neither, plain
 * http.
 *
 * <pre>
 * flags                       | serve
 * ----------------------------+---------------------------------------------------------------
 * (neither)                   | http on every listener
 * --tls-cert F --tls-key K    | https only on every listener; F and K are read before anything
 *                             |   opens; both are read again when they change and on SIGHUP
 * one of them                 | usage error (exit 2)
 * a file missing, unreadable, | usage error (exit 2) naming the file: the flag's value is what
 *   not PEM, or a key that is |   is wrong, as with a bad --rocksdb-option
 *   not the certificate's     |
 * </pre>
 *
 * With TLS on, SIGHUP reloads the pair instead of stopping the process (the JVM's default for it).
 */
final class TlsFlags {
  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      description =
          "Serve https only, on every listener, with this PEM certificate chain (the server's "
              + "certificate first); needs --tls-key. Read again when it changes and on SIGHUP.")
  Path certificate;

  @Option(
      names = "--tls-key",
      paramLabel = "FILE",
      description =
          "The certificate's private key, PEM, unencrypted: PKCS#8 (BEGIN PRIVATE KEY), or "
              + "PKCS#1 RSA or SEC1 EC; needs --tls-cert.")
  Path key;

  /** The settings the flags ask for, or null for plain http; a usage error if they are bad. */
  TlsSettings settings() {
    if (certificate == null && key == null) {
      return null;
    }
    if (certificate == null || key == null) {
      throw new ParameterException(
          spec.commandLine(),
          "--tls-cert and --tls-key go together: give both (a PEM certificate chain and its key)");
    }
    try {
      return TlsSettings.fromPem(certificate, key);
    } catch (IllegalArgumentException refused) {
      throw new ParameterException(
          spec.commandLine(), "--tls-cert/--tls-key: " + refused.getMessage());
    }
  }

  /** {@code http} or {@code https}, for the lines that say where the listeners are. */
  String scheme() {
    return certificate == null ? "http" : "https";
  }

  /**
   * Reads the pair again on each SIGHUP, through {@code sun.misc.Signal} (looked up by reflection:
   * it is not a standard API, and a JVM may lack it or refuse the signal, under {@code -Xrs} say);
   * says on {@code err} when it cannot, and the files are then read again only when they change.
   */
  static void reloadOnHangup(TlsSettings tls, PrintWriter err) {
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handler = Class.forName("sun.misc.SignalHandler");
      InvocationHandler reload =
          (proxy, method, args) -> {
            if (method.getName().equals("handle")) {
              tls.reload();
              return null;
            }
            return method.invoke(tls, args); // toString, hashCode, equals
          };
      Object onHangup =
          Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler}, reload);
      signal
          .getMethod("handle", signal, handler)
          .invoke(null, signal.getConstructor(String.class).newInstance("HUP"), onHangup);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError unavailable) {
      err.println(
          "viewbase serve: SIGHUP cannot reload the TLS certificate in this JVM ("
              + unavailable
              + "); it is read again when its files change");
      err.flush();
    }
  }
}
