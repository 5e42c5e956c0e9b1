import BundleFormat
import FeedClient
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The Python client (clients/python), on the core SQLite, against nginx: clients at every older
/// Wichita version reach the latest content through their delta; a new client downloads the full
/// bundle; an up-to-date client costs one request answered 304.
@Suite(
    .serialized,
    .enabled(
        if: SharedData.isAvailable && Nginx.isInstalled && CoreSQLite.isAvailable,
        "needs ../shared/data, nginx and \(CoreSQLite.skipMessage)"))
struct PythonClientSeriesTests {
    @Test func clientsAtEveryWichitaVersionReachTheLatest() throws {
        let options = try CoreSQLite.pythonSQLite().options
        #expect(CoreSQLite.isCoreBuild(options), "python3's sqlite3 is not the core build: \(options)")
        try WichitaClientSeries.check("Python client") { manifest, database in
            let pull = try PythonClient(manifest: manifest, database: database).pull()
            return WichitaClientSeries.Pull(status: pull.status, output: pull.output, error: pull.error, seconds: pull.seconds)
        }
    }
}
