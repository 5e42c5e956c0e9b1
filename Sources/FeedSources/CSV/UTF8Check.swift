/// Finds the first byte offset at which `bytes` stop being valid UTF-8, or nil when all are valid.
///
/// ASCII runs, the common case in feeds, take the fast path of one comparison per byte.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
    var i = start
    let n = bytes.count
    while i < n {
        let b = bytes[i]
        if b < 0x80 { i += 1; continue }
        let length: Int
        var minimum: UInt32
        var scalar: UInt32
        switch b {
        case 0xC2...0xDF: length = 2; scalar = UInt32(b & 0x1F); minimum = 0x80
        case 0xE0...0xEF: length = 3; scalar = UInt32(b & 0x0F); minimum = 0x800
        case 0xF0...0xF4: length = 4; scalar = UInt32(b & 0x07); minimum = 0x10000
        default: return i
        }
        guard i + length <= n else { return i }
        for k in 1..<length {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return i }
            scalar = scalar << 6 | UInt32(c & 0x3F)
        }
        if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return i }
        i += length
    }
    return nil
}
