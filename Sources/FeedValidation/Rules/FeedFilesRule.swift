import FeedModel

/// Files and shapes MobilityData expects beside the required ones (reported only):
///
/// - `missing_recommended_file` (warning): no feed_info.txt (an error, `missing_required_file`,
///   when translations.txt is there, which needs it; not blocking: bundles do not need it), or
///   one read from a subfolder (``RequiredFilesRule``).
/// - `unused_shape` (warning): a shape no trip follows, once per shape.
struct FeedFilesRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        if !feed.feedInfo.isPresent && !feed.dumpFiles.contains("feed_info.txt") {
            // Read from a subfolder, translations.txt is not where MobilityData looks either.
            let required = feed.translations.isPresent && feed.subfolder == nil
            sink.add(
                Notice(
                    required ? .missingRequiredFile : .missingRecommendedFile,
                    file: "feed_info.txt",
                    message: required ? "feed_info.txt is required with translations.txt." : "The feed has no feed_info.txt."))
        } else if feed.subfolder != nil && feed.dumpFiles.contains("feed_info.txt") {
            // Missing from the top level, where MobilityData looks (and where translations.txt,
            // which would make it required, is missing too).
            sink.add(RequiredFilesRule.notAtTopLevel(.missingRecommendedFile, "feed_info.txt", in: feed))
        }
        let shapes = feed.shapes
        let used = Set(feed.trips.texts(.shapeId).compactMap { $0 })
        var reported: Set<String> = []
        for (row, id) in shapes.texts(.shapeId).enumerated() {
            guard let id, !used.contains(id), reported.insert(id).inserted else { continue }
            sink.add(.unusedShape) {
                Notice(
                    .unusedShape, file: "shapes.txt", line: Int(shapes.lines[row]), field: "shape_id",
                    value: id, message: "No trip follows this shape.")
            }
        }
    }
}
