import CFeedZlib
import Foundation

/// An 8-bit RGB or RGBA PNG, decoded: enough to tell a rendered page from a blank one.
public struct PNGImage {
    public var width: Int
    public var height: Int
    /// RGB triples, row by row.
    public var pixels: [UInt8]

    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    public init(_ data: [UInt8]) throws {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Invalid(description: "not a PNG") }
        var offset = 8
        var idat: [UInt8] = []
        var (w, h, channels) = (0, 0, 0)
        func u32(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
        while offset + 8 <= data.count {
            let length = u32(offset)
            let type = String(decoding: data[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = Array(data[(offset + 8)..<(offset + 8 + length)])
            switch type {
            case "IHDR":
                w = u32(offset + 8)
                h = u32(offset + 12)
                guard body[8] == 8, body[12] == 0 else { throw Invalid(description: "bit depth \(body[8]) or interlacing not handled") }
                switch body[9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw Invalid(description: "colour type \(body[9]) not handled")
                }
            case "IDAT": idat += body
            default: break
            }
            offset += 12 + length
        }
        let rowBytes = w * channels
        var raw = [UInt8](repeating: 0, count: h * (rowBytes + 1))
        var rawLength = UInt(raw.count)
        let rc = raw.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { input in uncompress(out.baseAddress, &rawLength, input.baseAddress, UInt(input.count)) }
        }
        guard rc == Z_OK, Int(rawLength) == raw.count else { throw Invalid(description: "zlib \(rc)") }
        // Undo the per-row filters.
        var image = [UInt8](repeating: 0, count: h * rowBytes)
        for y in 0..<h {
            let filter = raw[y * (rowBytes + 1)]
            for x in 0..<rowBytes {
                let value = Int(raw[y * (rowBytes + 1) + 1 + x])
                let a = x >= channels ? Int(image[y * rowBytes + x - channels]) : 0
                let b = y > 0 ? Int(image[(y - 1) * rowBytes + x]) : 0
                let c = x >= channels && y > 0 ? Int(image[(y - 1) * rowBytes + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Invalid(description: "filter \(filter)")
                }
                image[y * rowBytes + x] = UInt8((value + predicted) & 0xFF)
            }
        }
        width = w
        height = h
        pixels = []
        pixels.reserveCapacity(w * h * 3)
        for i in stride(from: 0, to: image.count, by: channels) { pixels += image[i..<(i + 3)] }
    }

    /// Share of pixels that are not (near) white.
    public var inkShare: Double {
        var ink = 0
        for i in stride(from: 0, to: pixels.count, by: 3) where Int(pixels[i]) + Int(pixels[i + 1]) + Int(pixels[i + 2]) < 3 * 240 { ink += 1 }
        return Double(ink) / Double(max(1, width * height))
    }

    /// Distinct colours (capped).
    public var colourCount: Int {
        var seen: Set<Int> = []
        for i in stride(from: 0, to: pixels.count, by: 3) {
            seen.insert(Int(pixels[i]) << 16 | Int(pixels[i + 1]) << 8 | Int(pixels[i + 2]))
            if seen.count > 10_000 { break }
        }
        return seen.count
    }
}
