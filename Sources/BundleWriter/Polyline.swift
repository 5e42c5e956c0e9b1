/// Google's encoded polyline algorithm: each coordinate as the zig-zag varint of its difference
/// from the previous one, in base-64 text. Every map SDK can decode it.
enum Polyline {
    static func encode(_ points: [(lat: Double, lon: Double)], precision: Double = 1e5) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(points.count * 8)
        var previousLat = 0
        var previousLon = 0
        for point in points {
            let lat = Int((point.lat * precision).rounded())
            let lon = Int((point.lon * precision).rounded())
            append(lat - previousLat, to: &out)
            append(lon - previousLon, to: &out)
            previousLat = lat
            previousLon = lon
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ delta: Int, to out: inout [UInt8]) {
        var value = delta < 0 ? ~(delta << 1) : delta << 1
        while value >= 0x20 {
            out.append(UInt8((0x20 | (value & 0x1F)) + 63))
            value >>= 5
        }
        out.append(UInt8(value + 63))
    }
}
