import ArgumentParser

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
        subcommands: [Build.self, Publish.self, Validate.self, Inspect.self, Diff.self, Pull.self, Apply.self, Keygen.self, Schema.self],
        defaultSubcommand: Build.self)
}
