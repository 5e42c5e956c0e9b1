import Crypto
import Foundation

/// Ed25519 signatures of manifests: `manifest.json.sig` beside `manifest.json` holds the
/// base64 signature of the manifest's exact bytes. Keys are base64 text of their raw 32 bytes.
public enum ManifestSignature {
    public enum KeyError: Error, Sendable, CustomStringConvertible {
        case unreadable(String)

        public var description: String {
            switch self {
            case .unreadable(let reason): "not an Ed25519 key: \(reason)"
            }
        }
    }

    /// A new key pair, as base64 text: (private, public).
    public static func generateKeyPair() -> (privateKey: String, publicKey: String) {
        let key = Curve25519.Signing.PrivateKey()
        return (key.rawRepresentation.base64EncodedString(), key.publicKey.rawRepresentation.base64EncodedString())
    }

    /// The base64 public key of a base64 private key.
    public static func publicKey(of privateKey: String) throws -> String {
        guard let raw = Data(base64Encoded: privateKey.trimmingCharacters(in: .whitespacesAndNewlines)),
              let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else { throw KeyError.unreadable("not a base64 Ed25519 private key") }
        return key.publicKey.rawRepresentation.base64EncodedString()
    }

    /// The base64 signature of `manifest` with the base64 private key.
    public static func sign(_ manifest: Data, privateKey: String) throws -> String {
        guard let raw = Data(base64Encoded: privateKey.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw KeyError.unreadable("not base64")
        }
        do {
            return try Curve25519.Signing.PrivateKey(rawRepresentation: raw).signature(for: manifest).base64EncodedString()
        } catch {
            throw KeyError.unreadable("\(error)")
        }
    }

    /// Whether `signature` (base64) is the public key's signature of `manifest`.
    public static func verify(_ manifest: Data, signature: String, publicKey: String) -> Bool {
        guard let raw = Data(base64Encoded: publicKey.trimmingCharacters(in: .whitespacesAndNewlines)),
              let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
              let signatureBytes = Data(base64Encoded: signature.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        return key.isValidSignature(signatureBytes, for: manifest)
    }
}
