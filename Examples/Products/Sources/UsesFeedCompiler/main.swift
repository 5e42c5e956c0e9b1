import FeedPipeline
import Foundation

// The compiler as a library: parse a pipeline.yaml given as the first argument.
let arguments = CommandLine.arguments
if arguments.count > 1 {
    do {
        let config = try PipelineConfigParser().parse(contentsOf: URL(fileURLWithPath: arguments[1]))
        print(config.bundles.map(\.name).joined(separator: " "))
    } catch {
        print("error: \(error)")
    }
}
