/// One update at a time per database in this process: a second call for the same database joins
/// the one under way (one download, one writer) and gets its result. A call whose own task was
/// not cancelled, joining one that was, starts over rather than report a cancellation it did not ask for.
actor UpdateGate {
    static let shared = UpdateGate()

    private var running: [String: Task<UpdateResult, any Error>] = [:]

    func run(_ key: String, _ operation: @escaping @Sendable () async throws(ClientError) -> UpdateResult) async throws(ClientError) -> UpdateResult {
        while true {
            if let existing = running[key] {
                let outcome = await existing.result
                if case .failure(ClientError.cancelled) = outcome, !Task.isCancelled { continue }
                return try Self.typed(outcome, key)
            }
            let task = Task { () async throws -> UpdateResult in try await operation() }
            running[key] = task
            let outcome = await withTaskCancellationHandler {
                await task.result
            } onCancel: {
                task.cancel()
            }
            running[key] = nil
            return try Self.typed(outcome, key)
        }
    }

    /// The task's outcome as the update's: the operation throws only `ClientError`, but a task's
    /// error is untyped; a cancellation is `.cancelled`, and anything else names the database.
    private static func typed(_ outcome: Result<UpdateResult, any Error>, _ database: String) throws(ClientError) -> UpdateResult {
        switch outcome {
        case .success(let result): return result
        case .failure(let error as ClientError): throw error
        case .failure(is CancellationError): throw .cancelled
        case .failure(let error): throw .local(path: database, reason: "\(error)")
        }
    }
}
