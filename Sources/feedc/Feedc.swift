import ArgumentParser
import FeedModel
import FeedPipeline
import Foundation

@main
struct Feedc: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feedc",
        abstract: "Compile public-transit dumps into small, versioned SQLite bundles for rider apps.",
        discussion: """
            Exit status: 0 success; 1 a feed was refused or has errors (validate), or the two sides \
            differ (diff); 2 a usage, configuration or tool error.
            """,
        version: "0.1.0",
        subcommands: [
            Build.self, Publish.self, Validate.self, Inspect.self, Diff.self, Pull.self, Apply.self, Unpack.self, Plan.self, Live.self, Keygen.self,
            Schema.self,
        ],
        defaultSubcommand: Build.self)

    /// As ParsableCommand's, except that a usage error exits with 2, as the help says (the
    /// library's default is 64).
    static func main() {
        MemoryTuning.apply()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error).rawValue == 64 {
                let message = fullMessage(for: error)
                Terminal.fail(ErrorReport(.usageError, message: message), text: message)
            }
            exit(withError: error)
        }
    }
}
