import BundleFormat
import BundleWriter
import Foundation
import TestSupport
import Testing

/// The cleanup rule: under bundles/, deltas/ and reports/ whatever the manifest does not list
/// goes, with files written aside for a rename that never came; what it lists always stays.
@Suite struct LeftoverSweepTests {
    private func version(_ n: Int, diff: Bool) -> BundleVersion {
        BundleVersion(
            version: n, digest: "sha256:\(n)", file: "bundles/\(n)-aa.sqlite.gz", bytes: 1, sha256: "00",
            serviceStart: nil, serviceEnd: nil, inputs: nil, report: "reports/\(n)-bb.json",
            diff: diff ? "reports/\(n)-cc.diff.json" : nil, rows: nil)
    }

    private func make(_ folder: URL, _ paths: [String]) throws {
        for path in paths {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
    }

    @Test func unlistedBundlesDeltasReportsAndAsideFilesGoListedOnesStay() throws {
        let temporary = TemporaryFolder()
        let folder = temporary.url
        let manifest = Manifest(
            bundle: "b", latest: version(2, diff: true), versions: [version(2, diff: true), version(1, diff: false)],
            deltas: [DeltaFile(from: 1, to: 2, file: "deltas/1-2-dd.sql.gz", bytes: 1, sha256: "00")])
        let listed = [
            "bundles/2-aa.sqlite.gz", "bundles/1-aa.sqlite.gz", "reports/2-bb.json", "reports/2-cc.diff.json",
            "reports/1-bb.json", "deltas/1-2-dd.sql.gz", "manifest.json", "manifest.json.sig",
        ]
        let left = [
            "bundles/3-ee.sqlite.gz", "bundles/.3-ee.sqlite.gz.tmp-41", "deltas/2-3-ff.sql.gz", "reports/3-gg.json",
            "reports/3-hh.diff.json", ".manifest.json.tmp-41",
        ]
        try make(folder, listed + left)
        #expect(LeftoverSweep.leftovers(in: folder, manifest: manifest) == left.sorted())
        #expect(LeftoverSweep.sweep(folder, manifest: manifest) == left.sorted())
        for path in listed { #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)") }
        for path in left { #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)") }
        #expect(LeftoverSweep.leftovers(in: folder, manifest: manifest).isEmpty)
    }

    @Test func withoutAManifestEveryBundleDeltaAndReportIsLeftOver() throws {
        let temporary = TemporaryFolder()
        let folder = temporary.url
        try make(folder, ["bundles/1-aa.sqlite.gz", "reports/1-bb.json", "deltas/x.sql.gz"])
        #expect(LeftoverSweep.sweep(folder, manifest: nil) == ["bundles/1-aa.sqlite.gz", "deltas/x.sql.gz", "reports/1-bb.json"])
    }

    @Test func theScratchFolderIsUnderTheOutputAndClears() throws {
        let temporary = TemporaryFolder()
        let output = temporary.url
        let scratch = ScratchFolder(output: output)
        let file = try scratch.file(".sqlite")
        #expect(file.deletingLastPathComponent().path == output.appendingPathComponent(".tmp").path)
        try Data("x".utf8).write(to: file)
        scratch.clear()
        #expect(!FileManager.default.fileExists(atPath: scratch.url.path))
    }
}
