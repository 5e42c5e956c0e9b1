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
        guard !FileManager.default.fileExists(atPath: out) else { Terminal.fail("\(out) exists; not overwriting a key") }
        let pair = ManifestSignature.generateKeyPair()
        guard FileManager.default.createFile(atPath: out, contents: Data((pair.privateKey + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            Terminal.fail("cannot write \(out)")
        }
        print(pair.publicKey)
    }
}
