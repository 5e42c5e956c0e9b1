/// Bytes as hex, two digits each (lower case unless `uppercase`): the one hex encoder of the
/// package, for checksums, digests, SigV4 signatures, S3's `%XX` escapes and SQL blob literals.
public func hexString(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    let digits: StaticString = uppercase ? "0123456789ABCDEF" : "0123456789abcdef"
    var out: [UInt8] = []
    out.reserveCapacity(bytes.underestimatedCount * 2)
    digits.withUTF8Buffer { table in
        for byte in bytes {
            out.append(table[Int(byte >> 4)])
            out.append(table[Int(byte & 0xF)])
        }
    }
    return String(decoding: out, as: UTF8.self)
}
