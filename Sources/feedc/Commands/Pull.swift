import ArgumentParser
import FeedClient
import FeedModel
import Foundation

struct Pull: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bring a local bundle database to the latest published version, as an app would.",
        discussion: """
            Fetches the manifest (with the last ETag), then the delta from the local version when one \
            is listed, else the full bundle; verifies SHA-256 and the content digest; never leaves a \
            half-written database. Prints what it did. Follows docs/update-protocol.md, as \
            clients/python/feedc_client.py does, and takes the same lock (<db>.lock).

            Exit status: 0 updated or up to date; 2 the update failed (the database is as it was), \
            with one line on standard error.
            """)

    @Argument(help: "URL of the bundle's manifest.json (http or https).")
    var manifest: String

    @Option(help: "The local database file (created on first pull).")
    var db: String

    @Option(help: "Idle timeout of a request in seconds, and the base of its deadline; also the longest wait for another update of the database.")
    var timeout: Double = 30

    @Option(help: "Ed25519 public key (base64): refuse a manifest without a valid signature.")
    var publicKey: String?

    func run() throws {
        guard let url = URL(string: manifest), url.scheme != nil else { Terminal.fail("\(manifest) is not a URL") }
        // A file size limit (ulimit -f) is then a write error, reported as such, not a signal.
        signal(SIGXFSZ, SIG_IGN)
        var client = FeedClient(manifest: url, database: URL(fileURLWithPath: db), publicKey: publicKey, timeout: timeout)
        let refusal = Locked<String?>(nil)
        client.onDeltaRefused = { refusal.value = $0 }
        // On a terminal, one line redrawn as the update moves on: phase, bytes of the download.
        let show: (@Sendable (UpdateProgress) -> Void)? = Terminal.isInteractive ? Pull.showProgress : nil
        do {
            let result = try client.updateBlocking(progress: show)
            if show != nil { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            print(result)
        } catch {
            if show != nil { FileHandle.standardError.write(Data("\n".utf8)) }
            // Why a listed delta was not used, when the full bundle failed too.
            let delta = refusal.value.map { " (the delta was not used: \($0))" } ?? ""
            Terminal.fail(Pull.oneLine("\(error)\(delta)") + "; \(db) is unchanged")
        }
    }

    @Sendable static func showProgress(_ event: UpdateProgress) {
        let percent = event.fraction.map { " " + String(Int(($0 * 100).rounded())) + "%" } ?? ""
        FileHandle.standardError.write(Data("\r\u{1B}[K· \(event)\(percent)".utf8))
    }

    /// `text` with control characters escaped: the error is one line, whatever a server sent.
    static func oneLine(_ text: String) -> String {
        String(
            text.unicodeScalars.flatMap { scalar in
                scalar.properties.generalCategory == .control ? Array(scalar.escaped(asASCII: true).unicodeScalars) : [scalar]
            }.map(Character.init))
    }
}
