package io.viewbase.server;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Self-signed server certificates for the TLS tests, made in the test (BouncyCastle, test scope):
 * for {@code localhost} and {@code 127.0.0.1}, valid from an hour ago for a day, each with a random
 * serial number, written as the PEM files {@code serve --tls-cert/--tls-key} reads.
 */
public final class TestCertificates {
  private static final SecureRandom RANDOM = new SecureRandom();

  private TestCertificates() {}

  /**
   * How the key file is written: the form openssl writes today, or the older per-algorithm ones.
   */
  public enum KeyForm {
    /** {@code BEGIN PRIVATE KEY}. */
    PKCS8,
    /** {@code BEGIN RSA PRIVATE KEY} or {@code BEGIN EC PRIVATE KEY}, by the key's algorithm. */
    TRADITIONAL
  }

  /** A certificate and its key, and the files they were written to. */
  public record Pair(
      X509Certificate certificate, KeyPair keys, Path certificateFile, Path keyFile) {
    public BigInteger serial() {
      return certificate.getSerialNumber();
    }

    /** A client SSLContext that trusts this certificate only. */
    public SSLContext clientContext() {
      return trusting(certificate);
    }

    /** Writes this pair's certificate and key over the given files (a replacement, for reloads). */
    public void copyTo(Path certificate, Path key) {
      try {
        Files.copy(certificateFile, certificate, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(keyFile, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** An EC P-256 pair in {@code dir}, as {@code <name>.crt} and {@code <name>.key} (PKCS#8). */
  public static Pair create(Path dir, String name) {
    return create(dir, name, "EC", KeyForm.PKCS8);
  }

  /** A pair with a key of {@code algorithm} ("EC" or "RSA"), its key file in the given form. */
  public static Pair create(Path dir, String name, String algorithm, KeyForm form) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
      generator.initialize(algorithm.equals("RSA") ? 2048 : 256);
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=localhost");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              subject,
              new BigInteger(64, RANDOM).abs().add(BigInteger.ONE),
              Date.from(now.minus(Duration.ofHours(1))),
              Date.from(now.plus(Duration.ofDays(1))),
              subject,
              keys.getPublic());
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(
              new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1")
              }));
      String signature = algorithm.equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
      X509Certificate certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(new JcaContentSignerBuilder(signature).build(keys.getPrivate())));
      Path certificateFile = dir.resolve(name + ".crt");
      Path keyFile = dir.resolve(name + ".key");
      Files.writeString(certificateFile, pem(certificate), StandardCharsets.US_ASCII);
      String key =
          form == KeyForm.PKCS8
              ? "-----BEGIN PRIVATE KEY-----\n"
                  + Base64.getMimeEncoder(64, new byte[] {'\n'})
                      .encodeToString(keys.getPrivate().getEncoded())
                  + "\n-----END PRIVATE KEY-----\n"
              : algorithm.equals("EC") ? sec1WithCurve(keys) : pem(keys);
      Files.writeString(keyFile, key, StandardCharsets.US_ASCII);
      return new Pair(certificate, keys, certificateFile, keyFile);
    } catch (GeneralSecurityException | IOException | RuntimeException e) {
      throw new IllegalStateException("cannot make a test certificate", e);
    } catch (Exception bouncyCastle) {
      throw new IllegalStateException("cannot make a test certificate", bouncyCastle);
    }
  }

  /** A client SSLContext that trusts exactly these certificates. */
  public static SSLContext trusting(X509Certificate... certificates) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trustManagers(certificates), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Trust managers that trust exactly these certificates (for clients that take those). */
  public static TrustManager[] trustManagers(X509Certificate... certificates) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      for (int i = 0; i < certificates.length; i++) {
        store.setCertificateEntry("trusted-" + i, certificates[i]);
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      return trust.getTrustManagers();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@code BEGIN EC PRIVATE KEY} as openssl writes it, naming its curve: BouncyCastle's writer
   * leaves the curve out when the JDK made the key.
   */
  private static String sec1WithCurve(KeyPair keys) throws IOException {
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(keys.getPrivate().getEncoded());
    ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
    ECPrivateKey withCurve =
        new ECPrivateKey(
            256,
            inner.getKey(),
            inner.getPublicKey(),
            info.getPrivateKeyAlgorithm().getParameters());
    return "-----BEGIN EC PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(withCurve.getEncoded())
        + "\n-----END EC PRIVATE KEY-----\n";
  }

  private static String pem(Object object) throws IOException {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    }
    return out.toString();
  }
}
