import FeedSQLite

/// A text primary key of a packed table (`stops.stop_id`): its values' row positions, for the
/// `k` encoding of later columns naming it (`stop_id`, `to_stop_id`).
struct PackedKeyColumn {
    let table: String
    let cid: Int
    /// The column's name; a later column named it, or ending in `_` and it, may refer to it.
    let name: String
    /// Each value's row position.
    let positions: KeyPositions

    /// Whether a column of this name may refer to the key.
    func fits(columnNamed column: String) -> Bool { column == name || column.hasSuffix("_" + name) }
}

/// Chooses a column's encoding from a first pass over its values (docs/packed-bundle.md, the
/// writer's rules), then codes them in a second pass.
struct PackedColumnEncoder {
    let name: String
    private var integers = 0, reals = 0, texts = 0, others = 0
    private var nulInText = false
    /// The smallest scale every REAL so far is exact at; nil when one is at none.
    private var scale: Int? = 0
    /// Keys every text so far is found in.
    private var keys: [PackedKeyColumn]

    private var bytes = PackedBytesWriter()
    private var runs: [Int] = [0]
    private var previous: Int64 = 0
    private(set) var encoding: PackedEncoding = .tagged
    private(set) var key: PackedKeyColumn?

    init(name: String, keys: [PackedKeyColumn]) {
        self.name = name
        self.keys = keys.filter { $0.fits(columnNamed: name) }
    }

    /// First pass: what the value says of the column's types.
    mutating func survey(_ value: RawValue) {
        switch value {
        case .null: break
        case .integer: integers += 1
        case .real(let v):
            reals += 1
            if let k = scale {
                scale = (k...PackedEncoding.largestScale).first { PackedEncoding.scaledInteger(v, scale: $0) != nil }
            }
        case .text(let text):
            texts += 1
            if !nulInText && text.contains(0) { nulInText = true }
            if !keys.isEmpty { keys.removeAll { $0.positions.position(of: text) == nil } }
        case .blob: others += 1
        }
    }

    /// Ends the first pass: the encoding is chosen.
    mutating func choose() {
        let present = integers + reals + texts + others
        if integers == present {
            encoding = .integers
        } else if reals == present {
            encoding = scale.map { .scaled($0) } ?? .reals
        } else if texts == present, let first = keys.first {
            encoding = .reference
            key = first
        } else if texts == present, !nulInText {
            encoding = .texts
        } else {
            encoding = .tagged
        }
    }

    /// Second pass: codes the value. False when a REAL is not exact at the chosen scale (the
    /// column is then coded again as `f`).
    mutating func append(_ value: RawValue) -> Bool {
        if case .null = value {
            if runs.count % 2 == 1 { runs.append(0) }
        } else if runs.count % 2 == 0 {
            runs.append(0)
        }
        runs[runs.count - 1] += 1
        switch (encoding, value) {
        case (_, .null): return true
        case (.integers, .integer(let v)):
            bytes.signed(v &- previous)
            previous = v
        case (.scaled(let k), .real(let v)):
            guard let n = PackedEncoding.scaledInteger(v, scale: k) else { return false }
            bytes.signed(n &- previous)
            previous = n
        case (.reals, .real(let v)): bytes.double(v)
        case (.texts, .text(let text)):
            bytes.append(text)
            bytes.append(0)
        case (.reference, .text(let text)):
            let position = key?.positions.position(of: text) ?? 0
            bytes.signed(position &- previous)
            previous = position
        case (_, let value): appendTagged(value)
        }
        return true
    }

    /// Codes the column's REALs as 8-byte doubles from the next value on (after ``append(_:)``
    /// refused one, the caller starts the column over).
    mutating func restartAsReals() {
        encoding = .reals
        bytes = PackedBytesWriter()
        runs = [0]
        previous = 0
    }

    /// The column's blob: the presence runs, then the values.
    func data() -> [UInt8] {
        var head = PackedBytesWriter()
        head.varint(UInt64(runs.count))
        for run in runs { head.varint(UInt64(run)) }
        return head.bytes + bytes.bytes
    }

    private mutating func appendTagged(_ value: RawValue) {
        switch value {
        case .null: break
        case .integer(let v):
            bytes.append(1)
            bytes.signed(v)
        case .real(let v):
            bytes.append(2)
            bytes.double(v)
        case .text(let text):
            bytes.append(3)
            bytes.varint(UInt64(text.count))
            bytes.append(text)
        case .blob(let blob):
            bytes.append(4)
            bytes.varint(UInt64(blob.count))
            bytes.append(blob)
        }
    }
}
