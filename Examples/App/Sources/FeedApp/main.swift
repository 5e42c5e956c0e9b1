import FeedClient
import Foundation

// What an app does on launch: bring the local database to the latest published version.
// Usage: FeedApp MANIFEST-URL DATABASE-PATH
let arguments = CommandLine.arguments
guard arguments.count == 3, let manifest = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: FeedApp MANIFEST-URL DATABASE-PATH\n".utf8))
    exit(64)
}
let client = FeedClient(manifest: manifest, database: URL(fileURLWithPath: arguments[2]))
do {
    let result = try client.update()
    print("update: \(result)")
    print("local version: \(client.localVersion.map(String.init) ?? "none")")
} catch {
    FileHandle.standardError.write(Data("update failed: \(error)\n".utf8))
    exit(1)
}
