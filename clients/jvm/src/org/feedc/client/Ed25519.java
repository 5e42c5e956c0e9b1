package org.feedc.client;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;

/// Ed25519 verification (RFC 8032) of manifest.json.sig with `java.security` (Java 15 and later;
/// Android from API 33, else BouncyCastle's `Ed25519Signer`). The raw 32-byte public key is
/// wrapped in its X.509 `SubjectPublicKeyInfo` by the fixed 12-byte header
/// `302a300506032b6570032100`.
public final class Ed25519 {
    private static final byte[] X509_HEADER = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    private Ed25519() {
    }

    /// Whether `signature` (64 bytes) is the signature of `message` by `publicKey` (32 bytes);
    /// false for anything malformed.
    public static boolean verify(byte[] publicKey, byte[] message, byte[] signature) {
        if (publicKey.length != 32 || signature.length != 64) {
            return false;
        }
        byte[] encoded = new byte[X509_HEADER.length + 32];
        System.arraycopy(X509_HEADER, 0, encoded, 0, X509_HEADER.length);
        System.arraycopy(publicKey, 0, encoded, X509_HEADER.length, 32);
        try {
            PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(encoded));
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(key);
            verifier.update(message);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException error) {
            return false;  // a key that is not a point, a signature out of range
        }
    }
}
