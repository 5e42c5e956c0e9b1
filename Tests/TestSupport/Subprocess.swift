import Foundation

/// Runs a program to its end, as the tests run feedc, nginx's clients, swift build or python3.
public enum Subprocess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var error: String

        public init(status: Int32, output: String, error: String) {
            self.status = status
            self.output = output
            self.error = error
        }
    }

    /// Runs `program` with `arguments` (killed after `timeout` seconds) and returns its exit
    /// status, standard output and standard error. `environment` entries are added to this
    /// process's environment; `input`, a file, is its standard input (none without it).
    public static func run(
        _ program: URL, _ arguments: [String], environment: [String: String] = [:],
        directory: URL? = nil, timeout: TimeInterval = 120, input: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputHandle = try input.map { try FileHandle(forReadingFrom: $0) }
        defer { try? inputHandle?.close() }
        process.standardInput = inputHandle ?? FileHandle.nullDevice
        try process.run()
        let box = OutputBox()
        let readers = [
            Thread { box.output = out.fileHandleForReading.readDataToEndOfFile() },
            Thread { box.error = err.fileHandleForReading.readDataToEndOfFile() },
        ]
        readers.forEach { $0.start() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        while readers.contains(where: { !$0.isFinished }) { Thread.sleep(forTimeInterval: 0.01) }
        return Result(
            status: process.terminationStatus, output: String(decoding: box.output, as: UTF8.self),
            error: String(decoding: box.error, as: UTF8.self))
    }

    /// A program found on `PATH` (or at an absolute path), nil when absent.
    /// The python3 the tests run: the interpreter itself (`sys.executable`), found once through
    /// PATH, so that a version manager's shim (pyenv's, a shell script that runs several more
    /// processes on every start: about 55 ms of CPU each time, over a thousand starts a run) is not
    /// run again for each script. nil without a python3 on PATH.
    public static let python3: URL? = {
        guard let found = which("python3") else { return nil }
        guard let asked = try? run(found, ["-c", "import sys; print(sys.executable)"], timeout: 60), asked.status == 0 else { return found }
        let path = asked.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: path) ? URL(fileURLWithPath: path) : found
    }()

    public static func which(_ name: String) -> URL? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? URL(fileURLWithPath: name) : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// The reader threads' output, read once the threads have finished.
private final class OutputBox: @unchecked Sendable {
    var output = Data()
    var error = Data()
}
