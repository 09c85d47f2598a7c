package io.viewbase.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the two PEM files of a TLS server: a certificate chain and an unencrypted private key.
 * Every refusal is an {@link IllegalArgumentException} whose message names the file and what to do.
 *
 * <pre>
 * key file's block               | read as
 * -------------------------------+---------------------------------------------------------
 * BEGIN PRIVATE KEY              | PKCS#8 (RSA, EC, Ed25519, Ed448), as openssl writes today
 * BEGIN RSA PRIVATE KEY          | PKCS#1 RSA, wrapped into PKCS#8 here
 * BEGIN EC PRIVATE KEY           | SEC1 EC with its named curve, wrapped into PKCS#8 here
 * BEGIN EC PARAMETERS,           | skipped (openssl writes the first before an EC key; the
 *   BEGIN CERTIFICATE            |   second is there when the key file is also the chain)
 * BEGIN ENCRYPTED PRIVATE KEY,   | refused: the server has no passphrase to give
 *   or a Proc-Type: ENCRYPTED    |
 * anything else                  | refused
 * </pre>
 *
 * Each refusal of a key names {@code openssl pkcs8 -topk8 -nocrypt}, which turns any of these into
 * the first form. Files are bounded ({@link #MAX_FILE_BYTES}): a chain or a key is a few KiB.
 */
final class PemFiles {
  static final int MAX_FILE_BYTES = 1 << 20;

  private static final String TO_PKCS8 =
      "convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pkcs8.pem";

  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----\\s*(.*?)-----END \\1-----", Pattern.DOTALL);

  /** DER of OID 1.2.840.113549.1.1.1 (rsaEncryption) and of 1.2.840.10045.2.1 (ecPublicKey). */
  private static final byte[] RSA_ENCRYPTION = {
    0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01
  };

  private static final byte[] EC_PUBLIC_KEY = {
    0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01
  };

  /** DER NULL: the parameters of rsaEncryption. */
  private static final byte[] NULL = {0x05, 0x00};

  private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448");

  private PemFiles() {}

  /** The certificates of a PEM file, the server's own first. */
  static List<X509Certificate> certificateChain(Path file) {
    byte[] bytes = read(file, "certificate chain (--tls-cert)");
    List<X509Certificate> chain = new ArrayList<>();
    try {
      CertificateFactory factory = CertificateFactory.getInstance("X.509");
      for (var certificate : factory.generateCertificates(new ByteArrayInputStream(bytes))) {
        chain.add((X509Certificate) certificate);
      }
    } catch (CertificateException | RuntimeException notCertificates) {
      throw new IllegalArgumentException(
          "The certificate file "
              + file
              + " is not a PEM certificate chain (BEGIN CERTIFICATE blocks): "
              + notCertificates.getMessage());
    }
    if (chain.isEmpty()) {
      throw new IllegalArgumentException(
          "The certificate file " + file + " holds no certificate (BEGIN CERTIFICATE blocks)");
    }
    return chain;
  }

  /** The private key of a PEM file, in one of the forms of the table above. */
  static PrivateKey privateKey(Path file) {
    String text = new String(read(file, "private key (--tls-key)"), StandardCharsets.US_ASCII);
    Matcher block = BLOCK.matcher(text);
    while (block.find()) {
      String type = block.group(1);
      if (type.equals("EC PARAMETERS") || type.equals("CERTIFICATE")) {
        continue; // what openssl writes before an EC key; a certificate kept in the key's file
      }
      String body = block.group(2);
      if (type.equals("ENCRYPTED PRIVATE KEY") || body.contains("Proc-Type:")) {
        throw new IllegalArgumentException(
            "The key file "
                + file
                + " holds an encrypted key; the server needs it unencrypted: "
                + TO_PKCS8);
      }
      byte[] der = base64(file, body);
      switch (type) {
        case "PRIVATE KEY":
          return pkcs8(file, der);
        case "RSA PRIVATE KEY":
          return pkcs8(file, privateKeyInfo(sequence(concat(RSA_ENCRYPTION, NULL)), der));
        case "EC PRIVATE KEY":
          byte[] curve = sec1Curve(file, der);
          return pkcs8(file, privateKeyInfo(sequence(concat(EC_PUBLIC_KEY, curve)), der));
        default:
          throw new IllegalArgumentException(
              "The key file "
                  + file
                  + " holds a "
                  + type
                  + " block, not a private key; "
                  + TO_PKCS8);
      }
    }
    throw new IllegalArgumentException(
        "The key file "
            + file
            + " holds no PEM private key (BEGIN PRIVATE KEY); if it is DER or another form, "
            + TO_PKCS8);
  }

  private static byte[] read(Path file, String what) {
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException(
            "The " + what + " file " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
      }
      return Files.readAllBytes(file);
    } catch (NoSuchFileException missing) {
      throw new IllegalArgumentException("The " + what + " file " + file + " does not exist");
    } catch (IOException unreadable) {
      throw new IllegalArgumentException(
          "Cannot read the " + what + " file " + file + ": " + unreadable);
    }
  }

  private static byte[] base64(Path file, String body) {
    try {
      return Base64.getMimeDecoder().decode(body.trim());
    } catch (IllegalArgumentException notBase64) {
      throw new IllegalArgumentException(
          "The key file " + file + " has a PEM block that is not base64: " + TO_PKCS8);
    }
  }

  private static PrivateKey pkcs8(Path file, byte[] der) {
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException | RuntimeException notThisAlgorithm) {
        // try the next one
      }
    }
    throw new IllegalArgumentException(
        "The key file "
            + file
            + " holds no RSA, EC, Ed25519 or Ed448 private key this JVM can read; "
            + TO_PKCS8);
  }

  /**
   * The named curve of a SEC1 {@code ECPrivateKey ::= SEQUENCE { version, privateKey OCTET STRING,
   * [0] parameters, [1] publicKey }}, as the DER of its OID.
   */
  private static byte[] sec1Curve(Path file, byte[] der) {
    Der outer = new Der(der, 0, der.length);
    Der fields = outer.next(0x30, file).inside();
    fields.next(0x02, file); // version
    fields.next(0x04, file); // the private key
    while (fields.hasMore()) {
      Der field = fields.next(-1, file);
      if (field.tag == 0xa0) {
        Der oid = field.inside().next(0x06, file);
        return Arrays.copyOfRange(der, oid.start, oid.end);
      }
    }
    throw new IllegalArgumentException("The EC key in " + file + " names no curve; " + TO_PKCS8);
  }

  /** {@code PrivateKeyInfo ::= SEQUENCE { version 0, algorithm, privateKey OCTET STRING }}. */
  private static byte[] privateKeyInfo(byte[] algorithm, byte[] key) {
    return sequence(concat(new byte[] {0x02, 0x01, 0x00}, algorithm, tagged(0x04, key)));
  }

  private static byte[] sequence(byte[] content) {
    return tagged(0x30, content);
  }

  private static byte[] tagged(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = length > 0xffffff ? 4 : length > 0xffff ? 3 : length > 0xff ? 2 : 1;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  /**
   * One DER element (tag, and where its whole encoding and its content lie in {@code bytes}), or a
   * cursor over a run of them; every length is checked against its enclosing element.
   */
  private static final class Der {
    final byte[] bytes;
    final int start;
    final int end;
    int tag;
    int contentStart;
    int position;

    Der(byte[] bytes, int start, int end) {
      this.bytes = bytes;
      this.start = start;
      this.end = end;
      this.position = start;
    }

    boolean hasMore() {
      return position < end;
    }

    /** The next element, which must have {@code expectedTag} (-1: any). */
    Der next(int expectedTag, Path file) {
      if (position + 2 > end) {
        throw malformed(file);
      }
      int elementStart = position;
      int elementTag = bytes[position++] & 0xff;
      int length = bytes[position++] & 0xff;
      if (length >= 0x80) {
        int count = length & 0x7f;
        if (count == 0 || count > 3 || position + count > end) {
          throw malformed(file);
        }
        length = 0;
        for (int i = 0; i < count; i++) {
          length = (length << 8) | (bytes[position++] & 0xff);
        }
      }
      if (length > end - position || (expectedTag >= 0 && elementTag != expectedTag)) {
        throw malformed(file);
      }
      Der element = new Der(bytes, elementStart, position + length);
      element.tag = elementTag;
      element.contentStart = position;
      position += length;
      return element;
    }

    /** A cursor over this element's content. */
    Der inside() {
      return new Der(bytes, contentStart, end);
    }

    private static IllegalArgumentException malformed(Path file) {
      return new IllegalArgumentException(
          "The EC key in " + file + " is not a well-formed SEC1 key; " + TO_PKCS8);
    }
  }
}
