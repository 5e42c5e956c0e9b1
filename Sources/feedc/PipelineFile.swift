import FeedPipeline
import Foundation

extension Terminal {
    /// The pipeline file, parsed; on an error, the message (with line and column) and exit 2.
    /// `checksSourceFiles`: whether the sources' files must exist (not for a command that never
    /// reads them).
    static func pipeline(_ path: String, checksSourceFiles: Bool = true) -> PipelineConfig {
        do {
            return try PipelineConfigParser(checksSourceFiles: checksSourceFiles).parse(contentsOf: URL(fileURLWithPath: path))
        } catch {
            fail(error as any Error, file: path)
        }
    }
}
