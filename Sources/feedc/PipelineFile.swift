import FeedPipeline
import Foundation

extension Terminal {
    /// The pipeline file, parsed; on an error, the message (with line and column) and exit 2.
    static func pipeline(_ path: String) -> PipelineConfig {
        do {
            return try PipelineConfigParser().parse(contentsOf: URL(fileURLWithPath: path))
        } catch {
            fail(error as any Error, file: path)
        }
    }
}
