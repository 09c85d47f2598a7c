package io.viewbase.client;

import io.viewbase.api.Stability;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificates a client trusts instead of the JDK's default trust store: a CA's, or a server's
 * self-signed one. {@code RemoteDatabase.connect(uri, timeout,
 * TrustedCertificates.fromPem(Path.of("ca.crt")))}; the CLI's {@code --ca-cert FILE}. As with
 * curl's {@code --cacert}, the file replaces the default store rather than adding to it.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class TrustedCertificates {
  /** A bundle of CAs is a few hundred KiB; anything much larger is not one. */
  private static final long MAX_FILE_BYTES = 4 << 20;

  private TrustedCertificates() {}

  /**
   * An SSLContext that trusts exactly the certificates in a PEM file (one or more {@code BEGIN
   * CERTIFICATE} blocks); fails with an IllegalArgumentException naming the file if it is missing,
   * unreadable or holds no certificate.
   */
  public static SSLContext fromPem(Path file) {
    Collection<? extends Certificate> certificates;
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException(
            "The CA certificate file " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
      }
      try (InputStream in = Files.newInputStream(file)) {
        certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
      }
    } catch (NoSuchFileException missing) {
      throw new IllegalArgumentException("The CA certificate file " + file + " does not exist");
    } catch (IOException | GeneralSecurityException | RuntimeException unreadable) {
      if (unreadable instanceof IllegalArgumentException refused) {
        throw refused;
      }
      throw new IllegalArgumentException(
          "The CA certificate file "
              + file
              + " is not PEM certificates: "
              + unreadable.getMessage());
    }
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException(
          "The CA certificate file " + file + " holds no certificate (BEGIN CERTIFICATE blocks)");
    }
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        store.setCertificateEntry("ca-" + i++, certificate);
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("This JVM cannot make a TLS context: " + e, e);
    }
  }
}
