import Foundation
import TestSupport

/// The JVM client (clients/jvm), built by `clients/jvm/build.sh` into `.build/jvm/feedc-jvm.jar`
/// (once per test process) and run by `java` with Debian's SQLite JDBC driver:
/// `java -cp .build/jvm/feedc-jvm.jar:/usr/share/java/sqlite-jdbc.jar org.feedc.client.Main pull …`.
/// The driver's native library links the system's SQLite (the core build lacks the column
/// metadata functions it needs), so it never runs on `CoreSQLite`.
struct JVMClient {
    let manifest: URL
    let database: URL
    var publicKey: String?

    static let jar = SharedData.projectRoot.appendingPathComponent(".build/jvm/feedc-jvm.jar")
    static let driver = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SQLITE_JDBC_JAR"] ?? "/usr/share/java/sqlite-jdbc.jar")
    static let buildScript = SharedData.projectRoot.appendingPathComponent("clients/jvm/build.sh")
    /// The protobuf runtime build.sh compiles the live layer against (`pull` runs without it).
    static let protobuf = URL(fileURLWithPath: ProcessInfo.processInfo.environment["PROTOBUF_JAR"] ?? "/usr/share/java/protobuf.jar")

    static let skipMessage = "needs java, javac, the SQLite JDBC driver and protobuf.jar (.ci/run installs them: see clients/jvm/README.md)"

    /// True when java, javac, the JDBC driver's jar and protobuf's are here: the tests that run
    /// the client are skipped only without them.
    static var isAvailable: Bool {
        let jars = FileManager.default.fileExists(atPath: driver.path) && FileManager.default.fileExists(atPath: protobuf.path)
        return Subprocess.which("java") != nil && Subprocess.which("javac") != nil && jars
    }

    struct BuildFailure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    /// Builds the jar with `clients/jvm/build.sh` the first time it is asked for in this
    /// process (the sources may have changed since the last build); throws when the build fails.
    static func build() throws {
        try builder.build()
    }

    /// One pull: exit status, the line printed, the error line.
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
        var seconds: Double

        /// Exit 2 with exactly one readable line on standard error, no stack trace.
        var failedReadably: Bool {
            status == 2 && error.split(separator: "\n").count == 1 && !error.contains("\tat ")
        }
    }

    /// Options of every JVM a test starts (as clients/python/tests/hostile_case.py's
    /// `JVM_OPTIONS`): a run of about a second spends more CPU in the optimising compiler and
    /// the parallel collector's threads than they save.
    static let options = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-XX:-UsePerfData"]

    /// The class path of the live layer: the client's jar, the JDBC driver's and protobuf's.
    static var liveClassPath: String { "\(jar.path):\(driver.path):\(protobuf.path)" }

    /// The class path: the client's jar and the JDBC driver's.
    static var classPath: String { "\(jar.path):\(driver.path)" }

    func pull() throws -> Outcome {
        try JVMClient.build()
        let java = try JVMClient.program("java")
        var arguments =
            JVMClient.options + [
                "-cp", JVMClient.classPath, "org.feedc.client.Main",
                "pull", manifest.absoluteString, "--db", database.path, "--timeout", "10",
            ]
        if let publicKey { arguments += ["--public-key", publicKey] }
        let start = Date()
        let result = try Subprocess.run(java, arguments, timeout: 300)
        return Outcome(
            status: result.status, output: result.output.trimmingCharacters(in: .whitespacesAndNewlines),
            error: result.error.trimmingCharacters(in: .whitespacesAndNewlines), seconds: Date().timeIntervalSince(start))
    }

    /// `org.feedc.client.Main digest DB`: the content digest of `database` as the JVM client
    /// computes it (standard output), or its error.
    static func digest(of database: URL) throws -> Subprocess.Result {
        try build()
        let java = try program("java")
        return try Subprocess.run(java, options + ["-cp", classPath, "org.feedc.client.Main", "digest", database.path])
    }

    /// Many `live` or `digest` commands (each its words, without `Main`) in one JVM
    /// (`org.feedc.client.Main batch`, a JSON array of words a line): each command's exit
    /// status, standard output and standard error, as it would have written them alone. A JVM's
    /// start is about half a second of CPU, a live answer a few milliseconds.
    static func batch(_ commands: [[String]], timeout: TimeInterval = 300) throws -> [Subprocess.Result] {
        try build()
        let folder = TemporaryFolder()
        let input = folder.url.appendingPathComponent("commands.jsonl")
        let lines = try commands.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        let run = try Subprocess.run(
            try program("java"), options + ["-cp", liveClassPath, "org.feedc.client.Main", "batch"], timeout: timeout, input: input)
        let answers = run.output.split(separator: "\n").map(String.init)
        guard run.status == 0, answers.count == commands.count else {
            throw BuildFailure(description: "the JVM batch answered \(answers.count) of \(commands.count) (exit \(run.status)): \(run.error.suffix(2000))")
        }
        return try answers.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let status = object["status"] as? Int, let output = object["out"] as? String, let error = object["err"] as? String
            else { throw BuildFailure(description: "not a batch answer: \(line.prefix(300))") }
            return Subprocess.Result(status: Int32(status), output: output, error: error)
        }
    }

    /// `name` on PATH, or an error saying so.
    static func program(_ name: String) throws -> URL {
        guard let url = Subprocess.which(name) else { throw BuildFailure(description: "\(name) is not on PATH") }
        return url
    }

    private static let builder = Builder()

    /// The one build of this process. `@unchecked Sendable`: `outcome` is read and written only
    /// under `lock`, which is held for the whole build (a second caller waits for it).
    private final class Builder: @unchecked Sendable {
        private let lock = NSLock()
        private var outcome: BuildFailure??

        func build() throws {
            lock.lock()
            defer { lock.unlock() }
            if outcome == nil {
                outcome = .some(Builder.run())
            }
            if case .some(.some(let failure)) = outcome { throw failure }
        }

        private static func run() -> BuildFailure? {
            guard let bash = Subprocess.which("bash") else { return BuildFailure(description: "bash is not on PATH") }
            do {
                let result = try Subprocess.run(bash, [JVMClient.buildScript.path], timeout: 300)
                guard result.status == 0, FileManager.default.fileExists(atPath: JVMClient.jar.path) else {
                    return BuildFailure(description: "clients/jvm/build.sh failed (\(result.status)): \(result.error)")
                }
                return nil
            } catch {
                return BuildFailure(description: "clients/jvm/build.sh did not run: \(error)")
            }
        }
    }
}
