/// A single pass over JSON text, before `JSONSerialization` parses it, for what that parser
/// cannot tell or should not be given: how deeply arrays and objects nest (a hostile file nested
/// thousands deep must not exhaust the stack) and the first key repeated within one object
/// (MobilityData's Gson adapter stops at it: `geo_json_duplicated_element`; Foundation keeps
/// one of the values silently).
///
/// It does not validate the JSON otherwise; the parser does. Keys are compared as written, so
/// `"a"` and `"\u0061"` count as different keys.
struct JSONKeyScan {
    /// The deepest nesting of arrays and objects found, up to the point the scan stopped.
    private(set) var depth = 0
    /// The first key found twice in one object, decoded as written (escapes kept).
    private(set) var duplicateKey: String?
    /// Whether the nesting went beyond `maxDepth`; the scan stops there.
    private(set) var tooDeep = false

    /// Nesting deeper than this is refused: GeoJSON needs six levels (a MultiPolygon's
    /// positions); 64 leaves room for foreign members.
    static let maxDepth = 64

    init(_ bytes: [UInt8]) {
        /// One open object's keys (nil for an array) and whether a key comes next.
        var stack: [(keys: Set<[UInt8]>?, expectKey: Bool)] = []
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                stack.append((byte == UInt8(ascii: "{") ? [] : nil, byte == UInt8(ascii: "{")))
                depth = max(depth, stack.count)
                if stack.count > Self.maxDepth {
                    tooDeep = true
                    return
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if let top = stack.last, top.keys != nil { stack[stack.count - 1].expectKey = true }
            case UInt8(ascii: ":"):
                if !stack.isEmpty { stack[stack.count - 1].expectKey = false }
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                let end = min(index, count)
                if let top = stack.last, top.keys != nil, top.expectKey, duplicateKey == nil {
                    let key = Array(bytes[start..<end])
                    if !stack[stack.count - 1].keys!.insert(key).inserted {
                        duplicateKey = String(decoding: key, as: UTF8.self)
                    }
                }
            default:
                break
            }
            index += 1
        }
    }
}
