package io.viewbase.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.viewbase.api.Stability;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The certificate chain and private key that listeners serve TLS with, read from two PEM files (see
 * {@link PemFiles} for the forms accepted) and read again when they change: give one instance to
 * every listener that should share them (the serve command gives one to all three). TLS 1.2 and 1.3
 * on the JDK's provider, HTTP/1.1 only (no ALPN).
 *
 * <pre>
 * event                                   | what happens
 * ----------------------------------------+-------------------------------------------------------
 * {@link #fromPem} with a bad file or a   | IllegalArgumentException naming the file: no listener
 *   key that is not the certificate's     |   starts
 * a new connection, and the files' time,  | the pair is read again (on that connection's event
 *   size or identity changed since the    |   loop, at most every {@link #CHECK_INTERVAL}); if it
 *   last look (at most every 2 s)         |   is good, it and every later connection use it
 * {@link #reload()} (the serve command    | the pair is read again now
 *   calls it on SIGHUP)                   |
 * a pair read again is broken (unreadable,| refused with a warning in the log; the pair in use
 *   key does not match)                   |   stays, and is not tried again until the files change
 * a connection already open               | keeps the certificate it shook hands with
 * </pre>
 *
 * The look for changes rides on new connections rather than a thread of its own: nothing to start
 * or stop, and a certificate matters only to a connection that is about to shake hands. A
 * replacement is therefore noticed (and a broken one logged) at the first connection after it.
 */
@Stability(Stability.Level.EXPERIMENTAL)
public final class TlsSettings {
  private static final Logger LOG = LoggerFactory.getLogger(TlsSettings.class);

  /** How often, at most, a new connection looks at the files' time and size. */
  public static final Duration CHECK_INTERVAL = Duration.ofSeconds(2);

  private static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  private final Path certificateFile;
  private final Path keyFile;
  private final long checkIntervalNanos;
  private final AtomicBoolean checking = new AtomicBoolean();
  private volatile Loaded current;
  private volatile long lastCheck;
  private volatile Stamp lastSeen;

  /** A pair that was read and checked, and the SSL context made of it. */
  private record Loaded(SslContext context, X509Certificate certificate) {}

  /** What the files looked like when last read: a change in any part means "read again". */
  private record Stamp(Object certificateFile, Object keyFile) {}

  private TlsSettings(Path certificateFile, Path keyFile, Duration checkInterval) {
    this.certificateFile = certificateFile;
    this.keyFile = keyFile;
    this.checkIntervalNanos = checkInterval.toNanos();
    this.lastSeen = stamp();
    this.current = load();
    this.lastCheck = System.nanoTime();
  }

  /**
   * Reads and checks the pair now; fails with an IllegalArgumentException naming the file that is
   * missing, unreadable, not PEM, or whose key does not belong to the certificate.
   *
   * @param certificateChain PEM certificates, the server's own first, then any intermediates
   * @param privateKey the server certificate's private key, PEM, unencrypted
   */
  public static TlsSettings fromPem(Path certificateChain, Path privateKey) {
    return fromPem(certificateChain, privateKey, CHECK_INTERVAL);
  }

  /** As {@link #fromPem(Path, Path)}, looking for changes at most every {@code checkInterval}. */
  static TlsSettings fromPem(Path certificateChain, Path privateKey, Duration checkInterval) {
    Objects.requireNonNull(certificateChain, "certificateChain");
    Objects.requireNonNull(privateKey, "privateKey");
    return new TlsSettings(certificateChain, privateKey, checkInterval);
  }

  public Path certificateFile() {
    return certificateFile;
  }

  public Path keyFile() {
    return keyFile;
  }

  /** The server certificate that new connections get now. */
  public X509Certificate certificate() {
    return current.certificate();
  }

  /**
   * Reads the pair again now; true if it was good and new connections now use it, false if it was
   * refused (logged as a warning) and the pair in use stays.
   */
  public boolean reload() {
    lastSeen = stamp();
    lastCheck = System.nanoTime();
    try {
      Loaded loaded = load();
      current = loaded;
      LOG.info(
          "TLS certificate reloaded from {} (serial {}, subject {})",
          certificateFile,
          serial(loaded.certificate()),
          loaded.certificate().getSubjectX500Principal().getName());
      return true;
    } catch (IllegalArgumentException refused) {
      LOG.warn(
          "TLS certificate not reloaded, the one in use stays (serial {}): {}",
          serial(current.certificate()),
          refused.getMessage());
      return false;
    }
  }

  /** A server-side TLS handler for a new connection, with the current pair. */
  SslHandler newHandler(ByteBufAllocator allocator) {
    reloadIfChanged();
    return current.context().newHandler(allocator);
  }

  /**
   * Reads the pair again if the files changed since the last look, looking at most once per check
   * interval; one connection looks while the others go on with the pair in use.
   */
  private void reloadIfChanged() {
    long now = System.nanoTime();
    if (now - lastCheck < checkIntervalNanos || !checking.compareAndSet(false, true)) {
      return;
    }
    try {
      lastCheck = now;
      if (!stamp().equals(lastSeen)) {
        reload();
      }
    } finally {
      checking.set(false);
    }
  }

  private Stamp stamp() {
    return new Stamp(stamp(certificateFile), stamp(keyFile));
  }

  /** A file's identity, time and size (following links, as a mounted secret's are), or why not. */
  private static Object stamp(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return List.of(String.valueOf(a.fileKey()), a.lastModifiedTime(), a.size());
    } catch (IOException unreadable) {
      return unreadable.toString();
    }
  }

  private Loaded load() {
    List<X509Certificate> chain = PemFiles.certificateChain(certificateFile);
    PrivateKey key = PemFiles.privateKey(keyFile);
    X509Certificate own = chain.get(0);
    checkPair(own.getPublicKey(), key);
    try {
      SslContext context =
          SslContextBuilder.forServer(key, chain.toArray(new X509Certificate[0]))
              .sslProvider(SslProvider.JDK)
              .protocols(PROTOCOLS)
              .build();
      return new Loaded(context, own);
    } catch (SSLException | RuntimeException unusable) {
      throw new IllegalArgumentException(
          "Cannot serve TLS with " + certificateFile + " and " + keyFile + ": " + unusable);
    }
  }

  /** Signs a random challenge with the key and verifies it with the certificate's public key. */
  private void checkPair(PublicKey certified, PrivateKey key) {
    String algorithm = signatureAlgorithm(key.getAlgorithm());
    boolean matches;
    try {
      byte[] challenge = new byte[32];
      new SecureRandom().nextBytes(challenge);
      Signature signer = Signature.getInstance(algorithm);
      signer.initSign(key);
      signer.update(challenge);
      byte[] signature = signer.sign();
      Signature verifier = Signature.getInstance(algorithm);
      verifier.initVerify(certified);
      verifier.update(challenge);
      matches = verifier.verify(signature);
    } catch (GeneralSecurityException | RuntimeException otherKinds) {
      matches = false; // an EC key against an RSA certificate, say
    }
    if (!matches) {
      throw new IllegalArgumentException(
          "The key file "
              + keyFile
              + " does not hold the private key of the certificate in "
              + certificateFile);
    }
  }

  private String signatureAlgorithm(String keyAlgorithm) {
    switch (keyAlgorithm) {
      case "RSA":
        return "SHA256withRSA";
      case "EC":
        return "SHA256withECDSA";
      case "Ed25519":
      case "Ed448":
      case "EdDSA":
        return keyAlgorithm;
      default:
        throw new IllegalArgumentException(
            "The key file " + keyFile + " holds a " + keyAlgorithm + " key: use RSA, EC or EdDSA");
    }
  }

  private static String serial(X509Certificate certificate) {
    BigInteger serial = certificate.getSerialNumber();
    return serial.toString(16);
  }
}
