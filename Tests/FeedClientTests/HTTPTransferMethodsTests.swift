import FeedHTTP
import Foundation
import TestSupport
import Testing

/// What the publisher's S3 requests need of the shared ``HTTPTransfer``, against the test server
/// over plain http (on Linux, ``SocketExchange``): a PUT's body sent whole with its length; a
/// HEAD's `Content-Length` not taken for a body; an error status's body read only when the sink
/// asks for it; no redirect followed with `.none`, nor of a PUT whatever the policy; a refused
/// connection a transient failure.
@Suite struct HTTPTransferMethodsTests {
    static let anywhere = HTTPTransfer(idle: 5, overall: 20, redirects: .anyServer, userAgent: "feedc-test")
    static let nowhere = HTTPTransfer(idle: 5, overall: 20, redirects: .none, userAgent: "feedc-test")

    static func memory(_ maxBytes: Int = 1 << 20, errors: Bool = false) -> TransferSink {
        TransferSink(file: nil, maxBytes: maxBytes, keepsErrorBodies: errors)
    }

    @Test func putHeadErrorBodiesAndRedirects() async throws {
        let folder = TemporaryFolder()
        try Data("abc".utf8).write(to: folder.url.appendingPathComponent("f.txt"))
        let server = try EtagServer(serving: folder.url, log: folder.url.appendingPathComponent("log"))

        // A body of several socket writes arrives whole.
        let body = Data((0..<300_000).map { UInt8($0 % 251) })
        let put = try Self.nowhere.runBlocking(
            server.url("echo"), method: "PUT", headers: ["Content-Type": "application/octet-stream"],
            body: body, into: Self.memory())
        #expect(put.status == 200 && put.body == body)
        let awaited = try await Self.nowhere.run(server.url("echo"), method: "PUT", body: Data("xyz".utf8), into: Self.memory())
        #expect(awaited.status == 200 && awaited.body == Data("xyz".utf8))

        // 10 GB declared by a HEAD: no body, so no limit passed.
        let head = try Self.nowhere.runBlocking(server.url("huge"), method: "HEAD", into: Self.memory(1024))
        #expect(head.status == 200 && head.headers["content-length"] == "\(10 << 30)" && head.body.isEmpty)
        let file = try await Self.nowhere.run(server.url("f.txt"), method: "HEAD", into: Self.memory(1))
        #expect(file.status == 200 && file.headers["content-length"] == "3" && file.body.isEmpty)

        // An error's body: read when asked, else not.
        let kept = try Self.nowhere.runBlocking(server.url("error/503"), into: Self.memory(errors: true))
        #expect(kept.status == 503 && String(decoding: kept.body, as: UTF8.self).contains("<Code>SlowDown</Code>"))
        let left = try Self.nowhere.runBlocking(server.url("error/503"), into: Self.memory())
        #expect(left.status == 503 && left.body.isEmpty)

        // Redirects: none with `.none`; none of a PUT; a GET's with `.anyServer`.
        let moved = try Self.nowhere.runBlocking(server.url("moved/f.txt"), into: Self.memory())
        #expect(moved.status == 302 && moved.headers["location"]?.hasSuffix("/f.txt") == true)
        let putMoved = try Self.anywhere.runBlocking(server.url("moved/f.txt"), method: "PUT", body: Data("x".utf8), into: Self.memory())
        #expect(putMoved.status == 302)
        let followed = try Self.anywhere.runBlocking(server.url("moved/f.txt"), into: Self.memory())
        #expect(followed.status == 200 && followed.body == Data("abc".utf8))
        #expect(server.requests.filter { $0.hasPrefix("GET /f.txt ") } == ["GET /f.txt 200"], "\(server.requests)")
    }

    @Test func aRefusedConnectionIsTransient() throws {
        let closed = try ClosedPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(closed.port)/x"))
        #expect {
            try Self.nowhere.runBlocking(url, method: "PUT", body: Data("x".utf8), into: Self.memory())
        } throws: { error in
            guard let failure = error as? HTTPFailure, case .network(let reason) = failure else { return false }
            return failure.isTransient && reason.contains("refused")
        }
        #expect(!HTTPFailure.overLimit(maxBytes: 1, declared: nil).isTransient && !HTTPFailure.cancelled.isTransient)
        #expect(HTTPFailure.timedOut(seconds: 5, idle: true).isTransient)
    }
}
