import ArgumentParser
import BundleFormat
import Foundation

struct Keygen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make an Ed25519 key pair for signing manifests.",
        discussion: """
            Writes the private key (base64) to --out, readable by its owner only; name that file as \
            `signing_key:` of a bundle in pipeline.yaml. Prints the public key, which apps and \
            `feedc pull --public-key` use to refuse unsigned or wrongly signed manifests.
            """)

    @Option(help: "File to write the private key to (refused if it exists).")
    var out: String

    func run() throws {
        let pair = ManifestSignature.generateKeyPair()
        // Created exclusively with owner-only permissions: never readable by others, never
        // overwriting a key that exists.
        let fd = open(out, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else { Terminal.fail("\(out): \(String(cString: strerror(errno))) (an existing key is never overwritten)") }
        let bytes = Array((pair.privateKey + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { Terminal.fail("cannot write \(out)") }
        print(pair.publicKey)
    }
}
