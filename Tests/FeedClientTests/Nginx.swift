import Foundation
import TestSupport

/// A real nginx on 127.0.0.1 serving an output folder the way a CDN would (ETag, 304, Range),
/// plus `/broken/` answering 500, `/slow/`, the same files at 4 KB/s (a phone on a train: a
/// download long enough to watch and cancel), and `/trickle/`, each response's first
/// `trickleAfter` bytes at full speed and the rest at 16 bytes a second: a download that reaches a
/// known point however loaded the machine is, and then cannot end before it is cancelled.
/// Stopped when released.
final class Nginx {
    let port: Int
    let folder = TemporaryFolder()

    /// True when nginx is here, and on CI (which installs it), where a missing nginx must fail the tests.
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") || ProcessInfo.processInfo.environment["CI"] != nil
    }

    init(serving root: URL, trickleAfter: Int = 0) throws {
        var lastError: Error?
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let prefix = folder.url.path
            let conf = """
                daemon off; worker_processes 1; pid \(prefix)/nginx.pid; error_log \(prefix)/error.log;
                events { worker_connections 64; }
                http {
                  access_log \(prefix)/access.log;
                  client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
                  fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
                  types { application/json json; application/gzip gz; }
                  server { listen 127.0.0.1:\(port); root \(root.path); location /broken/ { return 500; }
                           location /slow/ { alias \(root.path)/; limit_rate 4k; }
                           location /trickle/ { alias \(root.path)/; limit_rate_after \(trickleAfter); limit_rate 16; } }
                }
                """
            let file = folder.url.appendingPathComponent("nginx.conf")
            try conf.write(to: file, atomically: true, encoding: .utf8)
            // Through tethered.py: nginx stops with this object, or with the test process if
            // that crashes, and holds none of the test run's output open.
            let candidate = Process()
            let lifeline = Pipe()
            candidate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let tether = SharedData.projectRoot.appendingPathComponent("Tests/TestSupport/Fixtures/tethered.py")
            candidate.arguments = ["python3", tether.path, "/usr/sbin/nginx", "-c", file.path, "-p", prefix]
            candidate.standardInput = lifeline
            candidate.standardOutput = FileHandle.nullDevice
            candidate.standardError = FileHandle.nullDevice
            try candidate.run()
            // Until nginx has written its pid file or ended (a port taken): however long a
            // loaded machine takes to start it; the bound only stops a hang.
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
                if !candidate.isRunning { break }
                if (try? String(contentsOf: folder.url.appendingPathComponent("nginx.pid"), encoding: .utf8)) != nil {
                    self.port = port
                    running = candidate
                    self.lifeline = lifeline
                    return
                }
            }
            try? lifeline.fileHandleForWriting.close()
            candidate.waitUntilExit()
            lastError = NginxError(log: (try? String(contentsOf: folder.url.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")
        }
        throw lastError ?? NginxError(log: "nginx did not start")
    }

    private var running: Process?
    /// tethered.py's standard input: closing it stops nginx.
    private var lifeline: Pipe?

    deinit {
        try? lifeline?.fileHandleForWriting.close()
        running?.waitUntilExit()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Access-log lines as "METHOD PATH STATUS".
    var requests: [String] {
        let log = (try? String(contentsOf: folder.url.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\"")
            guard parts.count > 2 else { return nil }
            let request = parts[1].split(separator: " ")
            let status = parts[2].split(separator: " ").first ?? ""
            guard request.count >= 2 else { return nil }
            return "\(request[0]) \(request[1]) \(status)"
        }
    }
}

struct NginxError: Error { let log: String }
