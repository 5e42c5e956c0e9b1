import FeedModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange at a time over a kept-alive URLSession, waited for: the publisher works
/// through its files in order, and order is the point. `@unchecked Sendable`: its stored
/// properties are set once in `init` and never changed, and URLSession is safe to call from any
/// thread.
final class BlockingHTTP: @unchecked Sendable {
    struct Response {
        var status: Int
        /// Header names in lower case.
        var headers: [String: String]
        var body: Data
    }

    private let configuration: URLSessionConfiguration
    private let session: URLSession

    init(timeout: TimeInterval) {
        configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` (with `body` for PUT and POST). A failure to get any response is
    /// returned as its description.
    func send(_ request: URLRequest, body: Data?) -> Result<Response, TransportFailure> {
        let box = Locked<Result<Response, TransportFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let handler: @Sendable (Data?, URLResponse?, Error?) -> Void = { data, response, error in
            if let http = response as? HTTPURLResponse, error == nil {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields { headers["\(name)".lowercased()] = "\(value)" }
                box.value = .success(Response(status: http.statusCode, headers: headers, body: data ?? Data()))
            } else {
                box.value = .failure(TransportFailure(reason: error?.localizedDescription ?? "no HTTP response"))
            }
            done.signal()
        }
        // A body goes on a connection of its own: on a kept-alive connection that turns out
        // dead, URLSession (libcurl) sends the request again by itself, and on Linux without
        // rewinding the body (seen: the second half of a part sent as the whole; Content-MD5
        // made the store refuse it). A new connection is never resent that way.
        let uploads = body.map { _ in URLSession(configuration: configuration) }
        let task = body.map { uploads!.uploadTask(with: request, from: $0, completionHandler: handler) }
            ?? session.dataTask(with: request, completionHandler: handler)
        task.resume()
        done.wait()
        uploads?.finishTasksAndInvalidate()
        return box.value ?? .failure(TransportFailure(reason: "no HTTP response"))
    }
}

struct TransportFailure: Error {
    var reason: String
}
