import Crypto
import Foundation

/// Ed25519 signatures of manifests: `manifest.json.sig` beside `manifest.json` holds base64
/// signatures of manifests' exact bytes, one per line; a manifest is accepted when one of them
/// verifies. While a new manifest is published, the file holds the live one's signature and the
/// new one's, so a publisher that dies between the two writes never leaves a live manifest
/// without its signature. Keys are base64 text of their raw 32 bytes.
public enum ManifestSignature {
    /// Why a key could not be used.
    public enum KeyError: Error, Sendable, CustomStringConvertible {
        case unreadable(String)

        /// The reason, in one line.
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
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else { throw KeyError.unreadable("not a base64 Ed25519 private key") }
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
    /// Whether one line of `signature` (base64 signatures, one per line) is the public key's
    /// signature of `manifest`.
    public static func verify(_ manifest: Data, signature: String, publicKey: String) -> Bool {
        guard let raw = Data(base64Encoded: publicKey.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
        else { return false }
        return lines(of: signature).contains { line in
            Data(base64Encoded: line).map { key.isValidSignature($0, for: manifest) } ?? false
        }
    }

    /// The signature lines of a `manifest.json.sig`, without blank lines and white space.
    public static func lines(of signature: String) -> [String] {
        signature.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The file that bridges a publication: the signature lines in place (those of the live
    /// manifest) and the new manifest's, so both manifests verify while either is live.
    public static func bridge(live: String?, new: String) -> String {
        var lines = live.map { Self.lines(of: $0) } ?? []
        lines.removeAll { $0 == new.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (lines.suffix(3) + [new.trimmingCharacters(in: .whitespacesAndNewlines)]).joined(separator: "\n") + "\n"
    }
}
