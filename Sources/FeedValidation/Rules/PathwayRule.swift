import FeedModel

/// pathways.txt, checked though bundles do not hold it: an exit gate (`pathway_mode` 7) leads out
/// of a station one way only, so it cannot be bidirectional (`bidirectional_exit_gate`, error,
/// one per pathway). Reported only.
struct PathwayRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let pathways = feed["pathways"]
        guard pathways.isPresent else { return }
        let modes = pathways.integers(.pathwayMode), both = pathways.integers(.isBidirectional)
        let ids = pathways.texts(.pathwayId)
        for row in 0..<pathways.count where modes[row] == 7 && both[row] == 1 {
            sink.add(.bidirectionalExitGate) {
                Notice(
                    .bidirectionalExitGate, file: "pathways.txt", line: Int(pathways.lines[row]),
                    field: "is_bidirectional", value: ids[row], message: "An exit gate (pathway_mode 7) cannot be bidirectional.")
            }
        }
    }
}
