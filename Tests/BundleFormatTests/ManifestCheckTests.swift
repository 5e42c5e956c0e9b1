import Foundation
import Testing

@testable import BundleFormat

/// A manifest from a server is checked before anything it names is fetched (issue 33): size,
/// duplicated keys, integer ranges, declared inflation, and every file on the manifest's server.
@Suite struct ManifestCheckTests {
    private let origin = URL(string: "https://cdn.example.org/feeds/m/manifest.json")!

    private func manifest(
        file: String = "bundles/2-abc.sqlite.gz", bytes: Int = 1000, unpacked: Int? = 8000, version: Int = 2,
        deltaFile: String = "deltas/1-2-abc.sql.gz"
    ) -> Manifest {
        let latest = BundleVersion(
            version: version, digest: "sha256:" + String(repeating: "0", count: 64), file: file, bytes: bytes,
            sha256: String(repeating: "1", count: 64), unpackedBytes: unpacked)
        return Manifest(
            bundle: "m", latest: latest, versions: [latest],
            deltas: [DeltaFile(from: 1, to: version, file: deltaFile, bytes: 10, sha256: String(repeating: "2", count: 64), unpackedBytes: 40)])
    }

    private func reason(_ data: Data) -> String? {
        do {
            _ = try ManifestCheck.decode(data, from: origin)
            return nil
        } catch {
            return error.reason
        }
    }

    /// `encodings` entries that cannot be read or break a limit are left out, the manifest kept
    /// (the client takes the plain bundle); a good entry comes through, and is what a full
    /// download takes.
    @Test func badEncodingEntriesAreLeftOut() throws {
        let good = EncodedBundle(
            encoding: "packed-gzip", file: "bundles/2-abc.packed.sqlite.gz", bytes: 300, sha256: String(repeating: "3", count: 64), unpackedBytes: 3000)
        var withEncodings = manifest()
        withEncodings.latest.encodings = [
            EncodedBundle(encoding: "packed-gzip", file: "a", bytes: 300, sha256: "XYZ", unpackedBytes: 3000),
            EncodedBundle(encoding: "packed-gzip", file: "b", bytes: 10, sha256: String(repeating: "3", count: 64), unpackedBytes: 1001),
            good,
        ]
        var text = String(decoding: try withEncodings.encoded(), as: UTF8.self)
        // An entry of the wrong shape: it does not decode, and is skipped.
        text = text.replacingOccurrences(of: "\"encodings\" : [", with: "\"encodings\" : [ { \"encoding\" : \"packed-gzip\", \"bytes\" : \"many\" }, ")
        let checked = try ManifestCheck.decode(Data(text.utf8), from: origin)
        #expect(checked.latest.encodings == [good])
        #expect(checked.latest.fullDownload == FullDownload(file: good.file, bytes: 300, sha256: good.sha256, unpackedBytes: 3000, isPacked: true))
        #expect(manifest().latest.fullDownload.isPacked == false)
        // Without the plain bundle's size there is no cap for the install: the plain bundle.
        var uncapped = checked
        uncapped.latest.unpackedBytes = nil
        #expect(uncapped.latest.fullDownload.isPacked == false)
    }

    @Test func aWritersManifestPasses() throws {
        let checked = try ManifestCheck.decode(manifest().encoded(), from: origin)
        #expect(checked == manifest())
        #expect(try ManifestCheck.resolve("bundles/x.gz", against: origin).absoluteString == "https://cdn.example.org/feeds/m/bundles/x.gz")
        #expect(try ManifestCheck.resolve("../m/x.gz", against: origin).absoluteString == "https://cdn.example.org/feeds/m/x.gz")
        #expect(try ManifestCheck.resolve("https://CDN.example.org:443/y", against: origin).host == "CDN.example.org")
    }

    @Test(arguments: [
        "file:///dev/zero", "https://elsewhere.example.org/x.gz", "http://cdn.example.org/x.gz",
        "https://cdn.example.org:8443/x.gz", "ftp://cdn.example.org/x.gz", "//evil.example.org/x.gz",
    ])
    func aFileOffTheManifestsServerIsRefused(_ file: String) throws {
        // A version's file off the server refuses the manifest; a delta's is refused when it would
        // be fetched (the client then takes the full bundle).
        #expect(reason(try manifest(file: file).encoded())?.contains("not on the manifest's server") == true)
        #expect(reason(try manifest(deltaFile: file).encoded()) == nil)
        #expect(throws: ManifestCheck.Refusal.self) { try ManifestCheck.resolve(file, against: origin) }
    }

    @Test func sizesAndIntegers() throws {
        #expect(reason(Data(repeating: 0x20, count: (1 << 20) + 1)) == "manifest.json is larger than 1 MiB")
        #expect(reason(try manifest(version: 1 << 53).encoded()) == "an integer is outside 0…2^53 − 1")
        #expect(reason(try manifest(bytes: -1).encoded()) == "an integer is outside 0…2^53 − 1")
        #expect(reason(try manifest(unpacked: 1000 * 101).encoded())?.contains("inflate 101×") == true)
        #expect(reason(try manifest(unpacked: nil).encoded()) == nil)
    }

    /// One key twice in one object: refused (Swift's decoder took the first, Python's the last),
    /// at any depth, escaped spellings included; the same key in two objects is fine.
    @Test func duplicatedKeysAreRefused() throws {
        let text = String(decoding: try manifest().encoded(), as: UTF8.self)
        let twice = text.replacingOccurrences(of: "\"format\" : 3,", with: "\"format\" : 3, \"format\" : 3,")
        #expect(reason(Data(twice.utf8)) == "the key `format` appears twice in one object")
        let deep = text.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 2, \"vers\\u0069on\" : 999999")
        #expect(reason(Data(deep.utf8)) == "the key `version` appears twice in one object")
        #expect(ManifestCheck.firstDuplicateKey(in: Data(#"{"a": {"a": 1, "b": "a,\"a\":"}, "b": [{"a": 1}, {"a": 2}]}"#.utf8)) == nil)
    }
}
