import FeedModel

/// pathways.txt: a pathway that starts and ends at the same location leads nowhere
/// (`pathway_loop`, warning, one per pathway, as MobilityData's `PathwayLoopValidator`). Reported
/// only; such a pathway adds nothing to a station's walking times (`PathwayWalks`).
struct PathwayLoopRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let pathways = feed["pathways"]
        guard pathways.isPresent else { return }
        let ids = pathways.texts(.pathwayId), from = pathways.texts(.fromStopId), to = pathways.texts(.toStopId)
        for row in 0..<pathways.count where from[row] != nil && from[row] == to[row] {
            sink.add(.pathwayLoop) {
                Notice(
                    .pathwayLoop, file: "pathways.txt", line: Int(pathways.lines[row]),
                    field: "to_stop_id", value: ids[row], message: "The pathway starts and ends at the same location (\(from[row]!)).")
            }
        }
    }
}
