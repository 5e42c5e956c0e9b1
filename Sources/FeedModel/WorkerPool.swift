import Foundation

/// The threads a ``Workers`` value lends to its work: at most ``helpers`` of them, started the
/// first time work finds none idle and kept, waiting, until the last copy of the ``Workers`` is
/// gone. With the thread that hands work in, which always takes part itself, at most
/// `helpers + 1` threads run a build's work at once, however deep the work nests.
///
/// Work is queued in the order it is given and taken by the first idle thread. Work that no
/// thread has taken when its result is needed is run by the thread that needs it
/// (``Pending/wait()``), so nothing ever waits for a thread to become free: a pool of one thread
/// or of none gives the same results, only later.
package final class WorkerPool: Sendable {
    /// Threads the pool may start.
    package let helpers: Int
    private let state: Locked<State>

    private struct State {
        var queue: [any PoolWork] = []
        /// Threads started and not ended; of them, those waiting for work.
        var threads = 0
        var idle = 0
        /// Threads running work now, and at most so far.
        var running = 0
        var mostRunning = 0
        var started = 0
        /// Set when the last ``Workers`` copy is gone: the threads end.
        var closed = false

        /// Threads that will take work given now without waiting for other queued work.
        var free: Int { idle - queue.count }
    }

    /// A pool that starts up to `helpers` threads, none of them yet.
    package init(helpers: Int) {
        self.helpers = max(0, helpers)
        state = Locked(State())
    }

    deinit {
        state.withLock { $0.closed = true }
    }

    /// How many threads the pool has started so far (never more than ``helpers``).
    package var threadsStarted: Int { state.value.started }

    /// The most of its threads that ran work at the same time so far.
    package var mostRunning: Int { state.value.mostRunning }

    /// Queues `work` for the first idle thread, starting one if none is idle and the pool may.
    package func queue(_ work: any PoolWork) {
        let start = state.withLock { state -> Bool in
            state.queue.append(work)
            return Self.reserveThread(&state, limit: helpers)
        }
        if start { startThread() }
    }

    /// Queues `work` only when a thread will take it at once (an idle one, or one the pool may
    /// still start); false, with nothing queued, otherwise.
    package func queueIfFree(_ work: any PoolWork) -> Bool {
        let (taken, start) = state.withLock { state -> (Bool, Bool) in
            if state.free > 0 {
                state.queue.append(work)
                return (true, false)
            }
            // With fewer idle threads than queued work, a new thread would take older work first.
            guard state.free == 0 && state.threads < helpers && !state.closed else { return (false, false) }
            state.queue.append(work)
            return (true, Self.reserveThread(&state, limit: helpers))
        }
        if start { startThread() }
        return taken
    }

    /// Takes `work` out of the queue: its owner has run it itself.
    package func withdraw(_ work: any PoolWork) {
        state.withLock { state in
            if let index = state.queue.firstIndex(where: { $0 === work }) { state.queue.remove(at: index) }
        }
    }

    /// Counts a new thread (as idle, so that it is not counted twice) when the queue holds more
    /// than the idle threads will take and the pool may start one.
    private static func reserveThread(_ state: inout State, limit: Int) -> Bool {
        guard state.free < 0, state.threads < limit, !state.closed else { return false }
        state.threads += 1
        state.idle += 1
        state.started += 1
        return true
    }

    private func startThread() {
        let state = self.state
        // The thread holds the state, not the pool: the pool's end closes the state.
        let thread = Thread { Self.serve(state) }
        // As the main thread's: work such as a rule may recurse deeply.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// A thread's life: take queued work, run it, until the pool closes.
    private static func serve(_ state: Locked<State>) {
        while true {
            let work = state.wait(until: { !$0.queue.isEmpty || $0.closed }) { state -> (any PoolWork)? in
                state.idle -= 1
                guard !state.queue.isEmpty else {
                    state.threads -= 1
                    return nil
                }
                state.running += 1
                state.mostRunning = max(state.mostRunning, state.running)
                return state.queue.removeFirst()
            }
            guard let work else { return }
            work.runIfUnclaimed()
            state.withLock { state in
                state.running -= 1
                state.idle += 1
            }
        }
    }
}

/// Work a ``WorkerPool`` queues: run by whichever of a pool thread and its owner claims it first.
package protocol PoolWork: AnyObject, Sendable {
    /// Runs the work unless its owner has claimed it already.
    func runIfUnclaimed()
}
