import Foundation
import TestSupport
import Testing

/// `feedc diff` as a program: exit status 0 same content, 1 different, 2 error, like diff.
@Suite(.enabled(if: Tools.feedc != nil, "needs the feedc binary of this build"))
struct CommandTests {
    @Test func exitStatusLikeDiff() throws {
        let feedc = try #require(Tools.feedc)
        let folder = TemporaryFolder()
        let old = folder.feed("old", TinyFeed.files), new = folder.feed("new", SampleDiffTests.newFeed)
        let same = try Tools.run(feedc, ["diff", old.path, old.path])
        #expect(same.status == 0)
        #expect(same.output.contains("No changes"))
        let different = try Tools.run(feedc, ["diff", old.path, new.path])
        #expect(different.status == 1)
        #expect(different.output.contains("Route 1X weekday: 2 → 1 trips"))
        let json = try Tools.run(feedc, ["diff", "--json", old.path, new.path])
        #expect(json.status == 1)
        #expect(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) is [String: Any])
        let missing = try Tools.run(feedc, ["diff", folder.url.appendingPathComponent("nothing.zip").path, new.path])
        #expect(missing.status == 2)
    }

    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func wichitaRepublishExitsZero() throws {
        let feedc = try #require(Tools.feedc)
        let folder = SharedData.url("gtfs/versions/wichita")
        let run = try Tools.run(
            feedc,
            [
                "diff", folder.appendingPathComponent("wichita_commit2019-03-05.zip").path,
                folder.appendingPathComponent("wichita_commit2019-06-04.zip").path,
            ])
        #expect(run.status == 0)
        #expect(run.output.contains("No changes: both sides hold the same content."))
    }
}
