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

    static func decode(_ text: String, precision: Double = 1e5) -> [(lat: Double, lon: Double)] {
        var points: [(Double, Double)] = []
        var lat = 0
        var lon = 0
        var iterator = text.utf8.makeIterator()
        func next() -> Int? {
            var result = 0
            var shift = 0
            while let byte = iterator.next() {
                let chunk = Int(byte) - 63
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return (result & 1) != 0 ? ~(result >> 1) : result >> 1 }
            }
            return nil
        }
        while let dLat = next(), let dLon = next() {
            lat += dLat
            lon += dLon
            points.append((Double(lat) / precision, Double(lon) / precision))
        }
        return points
    }
}
