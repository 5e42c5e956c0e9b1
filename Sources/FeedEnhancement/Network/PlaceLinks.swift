/// One link between two places, by their positions among the candidates, its figures in the
/// units they are rounded to (a tenth of a metre, a thousandth of confidence), so the
/// ``PlaceLink`` read back has the very same `Double`s; its evidence by number
/// (``PlaceLinks/evidences``). 20 bytes, where a ``PlaceLink`` takes 64 and its evidence more.
struct LinkRecord: Sendable, Equatable {
    /// The two places, the first the smaller id.
    var first: Int32
    var second: Int32
    var tenths: Int32
    var thousandths: Int16
    var evidence: Int32

    var distance: Double { Double(tenths) / 10 }
    var confidence: Double { Double(thousandths) / 1000 }

    init(_ first: Int, _ second: Int, distance: Double, confidence: Double, evidence: Int32) {
        self.first = Int32(first)
        self.second = Int32(second)
        // Both are rounded already (to 0.1 m, to 0.001): these are exact.
        tenths = Int32((distance * 10).rounded())
        thousandths = Int16((confidence * 1000).rounded())
        self.evidence = evidence
    }
}

/// Each evidence text once, numbered: the same words recur over thousands of links ("38 m,
/// both rail").
struct EvidenceTexts: Sendable {
    private(set) var texts: [String] = []
    private var numbers: [String: Int32] = [:]

    mutating func number(_ text: String) -> Int32 {
        if let known = numbers[text] { return known }
        let number = Int32(texts.count)
        numbers[text] = number
        texts.append(text)
        return number
    }
}

/// The links ``SamePlaceMatcher`` finds, each both ways, ordered by the first stop's id then
/// the other's: a collection of ``PlaceLink``s made as they are read, from 20 bytes a link and
/// 4 a direction (issue 41: a hostile square's 4.4 M links held as `PlaceLink`s took 1.7 GB in
/// the matcher).
package struct PlaceLinks: RandomAccessCollection, Sendable, Equatable {
    /// The candidates' ids, by position.
    let ids: [String]
    let records: [LinkRecord]
    let evidences: [String]
    /// Each link read: its record's number times two, plus one when read from its second place.
    let order: [UInt32]

    package var startIndex: Int { 0 }
    package var endIndex: Int { order.count }

    package subscript(position: Int) -> PlaceLink {
        let entry = order[position]
        let record = records[Int(entry >> 1)]
        let (stop, other) = entry & 1 == 0 ? (record.first, record.second) : (record.second, record.first)
        return PlaceLink(
            stop: ids[Int(stop)], other: ids[Int(other)], distance: record.distance, confidence: record.confidence,
            evidence: evidences[Int(record.evidence)])
    }

    /// The id of the link's stop at `position`, and of the other place.
    package func stop(at position: Int) -> String { ids[places(at: position).stop] }
    package func other(at position: Int) -> String { ids[places(at: position).other] }

    /// The places linked, by position among the candidates, as read (stop, then other).
    package func places(at position: Int) -> (stop: Int, other: Int) {
        let entry = order[position]
        let record = records[Int(entry >> 1)]
        return entry & 1 == 0 ? (Int(record.first), Int(record.second)) : (Int(record.second), Int(record.first))
    }

    /// `records` both ways, ordered by id: each place's links gathered by counting (a place
    /// has at most ``SamePlaceMatcher/maxLinksPerPlace``), then sorted by the other's id.
    init(ids: [String], records: [LinkRecord], evidences: [String]) {
        self.ids = ids
        self.records = records
        self.evidences = evidences
        let rank = Self.ranks(ids)
        var start = [Int](repeating: 0, count: ids.count + 1)
        for record in records {
            start[rank[Int(record.first)] + 1] += 1
            start[rank[Int(record.second)] + 1] += 1
        }
        for k in 0..<ids.count { start[k + 1] += start[k] }
        var next = start
        var order = [UInt32](repeating: 0, count: records.count * 2)
        for (n, record) in records.enumerated() {
            let a = rank[Int(record.first)], b = rank[Int(record.second)]
            order[next[a]] = UInt32(n) << 1
            next[a] += 1
            order[next[b]] = UInt32(n) << 1 | 1
            next[b] += 1
        }
        for k in 0..<ids.count where start[k + 1] - start[k] > 1 {
            order[start[k]..<start[k + 1]].sort { x, y in
                let rx = records[Int(x >> 1)], ry = records[Int(y >> 1)]
                let ox = x & 1 == 0 ? rx.second : rx.first, oy = y & 1 == 0 ? ry.second : ry.first
                return rank[Int(ox)] < rank[Int(oy)]
            }
        }
        self.order = order
    }

    /// Each position's place in id order (ties, never in a bundle, by position).
    static func ranks(_ ids: [String]) -> [Int] {
        let sorted = ids.indices.sorted { (ids[$0], $0) < (ids[$1], $1) }
        var rank = [Int](repeating: 0, count: ids.count)
        for (k, index) in sorted.enumerated() { rank[index] = k }
        return rank
    }

    package static func == (a: PlaceLinks, b: PlaceLinks) -> Bool { a.elementsEqual(b) }
}
