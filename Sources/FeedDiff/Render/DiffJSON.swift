import FeedModel
import Foundation

/// The diff as JSON: the schema of `docs/diff-format.md`, keys sorted, so the same diff always
/// gives the same bytes.
public enum DiffJSON {
    /// The diff as `docs/diff-format.md` JSON, keys sorted, ending in a newline.
    public static func encode(_ diff: FeedDiff) throws -> Data {
        var data = try StableJSON.encoder().encode(diff)
        data.append(0x0A)
        return data
    }

    /// Reads a diff from its JSON; the map geometry, not in the JSON, is empty.
    public static func decode(_ data: Data) throws -> FeedDiff {
        try JSONDecoder().decode(FeedDiff.self, from: data)
    }
}
