import FeedSQLite

/// One table's rows before they are written, kept compactly, column by column (issue 41): each
/// value a word (an integer, a real's bits, or the number of a text or blob), four bytes while
/// a column's words all fit in four, and its kind (NULL, integer, real, text, blob) once per
/// column while the column's values share one. Each distinct text is kept once per table,
/// whatever the column. A row is read back as the ``SQLValue``s it was appended as, bit for bit
/// (a real's sign and NaN included).
///
/// Held as arrays of `[SQLValue]`, a row cost an array of its own (32 bytes, and 24 a value, a
/// text longer than 15 bytes on the heap besides): a hostile square of 100,000 stops made 9.2 M
/// network rows, 1.7 GB of them. Stored here, a walk (two stop ids, a kind, seconds, metres)
/// takes 24 bytes, and a stop id repeated in thousands of rows is one string.
struct TableRows: Sendable, RandomAccessCollection {
    /// The values in a row: the table's columns.
    let width: Int
    private var columns: [Column]
    /// Each distinct text once, in the order first appended (texts of rows joined from another
    /// table after these: ``append(contentsOf:)``).
    private var texts: [String] = []
    /// The number of each text appended here in `texts`.
    private var textNumbers: [String: UInt32] = [:]
    private var blobs: [[UInt8]] = []
    /// Rows after the stored ones that a stage keeps in its own compact form, made as they
    /// are read (``GeneratedRows``), each part's first row's number beside it.
    private var generated: [(first: Int, rows: any GeneratedRows)] = []

    enum Kind: UInt8 {
        case null, integer, real, text, blob
    }

    /// One column's values.
    private struct Column {
        /// The kind of every value, while they share one (nil for none yet, or once they differ).
        var uniform: Kind?
        /// Each value's kind, once they differ; empty before.
        var kinds: [UInt8] = []
        /// The words, while each fits in 32 bits.
        var narrow: [UInt32] = []
        /// Every word, once one does not fit in 32 bits (`narrow` is then empty).
        var wide: [UInt64]? = nil

        var count: Int { wide?.count ?? narrow.count }

        func kind(_ row: Int) -> Kind { uniform ?? Kind(rawValue: kinds[row])! }
        func word(_ row: Int) -> UInt64 { wide?[row] ?? UInt64(narrow[row]) }

        mutating func append(_ kind: Kind, _ word: UInt64) {
            if kinds.isEmpty {
                if count == 0 {
                    uniform = kind
                } else if uniform != kind {
                    kinds = [UInt8](repeating: uniform!.rawValue, count: count)
                    uniform = nil
                }
            }
            if uniform == nil { kinds.append(kind.rawValue) }
            if wide != nil {
                wide!.append(word)
            } else if word <= UInt32.max {
                narrow.append(UInt32(word))
            } else {
                var all: [UInt64] = []
                all.reserveCapacity(narrow.count + 1)
                all.append(contentsOf: narrow.lazy.map(UInt64.init))
                all.append(word)
                wide = all
                narrow = []
            }
        }
    }

    init(width: Int) {
        precondition(width > 0)
        self.width = width
        columns = Array(repeating: Column(), count: width)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { generated.last.map { $0.first + $0.rows.count } ?? columns[0].count }

    /// Appends `rows`, made when read, after the rows so far; no row is stored after them.
    mutating func append(generated rows: any GeneratedRows) {
        generated.append((endIndex, rows))
    }

    /// The generated part row `row` falls in, and the row's number within it; nil for a stored row.
    @inline(__always)
    private func part(_ row: Int) -> (rows: any GeneratedRows, row: Int)? {
        guard let last = generated.last, row >= generated[0].first else { return nil }
        if generated.count == 1 || row >= last.first { return (last.rows, row - last.first) }
        let part = generated.last { $0.first <= row }!
        return (part.rows, row - part.first)
    }

    /// Appends a row of `width` values.
    mutating func append(_ row: [SQLValue]) {
        precondition(row.count == width && generated.isEmpty)
        for (column, value) in row.enumerated() { append(value, column) }
    }

    private mutating func append(_ value: SQLValue, _ column: Int) {
        switch value {
        case .null: columns[column].append(.null, 0)
        case .integer(let v): columns[column].append(.integer, UInt64(bitPattern: v))
        case .real(let v): columns[column].append(.real, v.bitPattern)
        case .text(let v):
            // A text the row before holds in the same column (a timing's id, row after row)
            // takes its number without a hash: on the 21-feed region the hashes cost 5% of the
            // build.
            let above = columns[column].count - 1
            if above >= 0, columns[column].kind(above) == .text {
                let number = columns[column].word(above)
                if texts[Int(number)] == v {
                    columns[column].append(.text, number)
                    return
                }
            }
            columns[column].append(.text, UInt64(number(of: v)))
        case .blob(let v):
            columns[column].append(.blob, UInt64(blobs.count))
            blobs.append(v)
        }
    }

    private mutating func number(of text: String) -> UInt32 {
        if let known = textNumbers[text] { return known }
        let number = UInt32(texts.count)
        textNumbers[text] = number
        texts.append(text)
        return number
    }

    /// The value in `column` of row `row`.
    @inline(__always)
    func value(_ row: Int, _ column: Int) -> SQLValue {
        if let (rows, row) = part(row) { return rows.value(row, column) }
        let values = columns[column]
        switch values.kind(row) {
        case .null: return .null
        case .integer: return .integer(Int64(bitPattern: values.word(row)))
        case .real: return .real(Double(bitPattern: values.word(row)))
        case .text: return .text(texts[Int(values.word(row))])
        case .blob: return .blob(blobs[Int(values.word(row))])
        }
    }

    /// Row `row`'s values.
    subscript(row: Int) -> [SQLValue] {
        var values = [SQLValue](repeating: .null, count: width)
        read(row, into: &values)
        return values
    }

    /// Puts row `row`'s values into `buffer` (of `width` values), which keeps its storage.
    func read(_ row: Int, into buffer: inout [SQLValue]) {
        if let (rows, row) = part(row) { return rows.read(row, into: &buffer) }
        for column in 0..<width { buffer[column] = value(row, column) }
    }

    /// Appends every row of `other` (of the same width). Its texts are added after these, as
    /// they are (a text both hold is then kept twice; one source's ids carry its prefix, so
    /// sources rarely share one), and only the texts appended here later are looked up: joining
    /// the region's 21 sources hashed every text a second time.
    mutating func append(contentsOf other: TableRows) {
        precondition(other.width == width && generated.isEmpty && other.generated.isEmpty)
        guard !other.isEmpty else { return }
        guard !isEmpty else {
            self = other
            return
        }
        let textBase = UInt64(texts.count), blobBase = UInt64(blobs.count)
        texts.append(contentsOf: other.texts)
        blobs.append(contentsOf: other.blobs)
        for column in 0..<width {
            let theirs = other.columns[column]
            for row in 0..<theirs.count {
                let kind = theirs.kind(row), word = theirs.word(row)
                switch kind {
                case .text: columns[column].append(kind, textBase + word)
                case .blob: columns[column].append(kind, blobBase + word)
                default: columns[column].append(kind, word)
                }
            }
        }
    }
}

/// Rows a stage keeps in its own compact form until they are written, each made when it is
/// read: the network stage's links and walks (``SamePlaceRows``, ``StopTransferRows``), 14 and 8
/// bytes a row where stored they take 28 and 24 (issue 41: a hostile square's 9.2 M).
protocol GeneratedRows: Sendable {
    var count: Int { get }
    /// The value in `column` of row `row`.
    func value(_ row: Int, _ column: Int) -> SQLValue
    /// Row `row`'s values, into `buffer` (as many as the table has columns).
    func read(_ row: Int, into buffer: inout [SQLValue])
}
