import Foundation

/// A manifest received from a server, checked before anything it names is fetched
/// (docs/update-protocol.md, "Limits"): at most ``UpdateLimits/manifestBytes``, no key twice in
/// one object (readers disagree on which one wins), integers within 0…2^53 − 1, no file declared
/// to inflate beyond ``UpdateLimits/ratio`` times its size, and every file on the manifest's own
/// server.
public enum ManifestCheck {
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The manifest in `data`, fetched from `url`.
    public static func decode(_ data: Data, from url: URL) throws(Refusal) -> Manifest {
        guard data.count <= UpdateLimits.manifestBytes else { throw Refusal(reason: "manifest.json is larger than 1 MiB") }
        if let key = firstDuplicateKey(in: data) { throw Refusal(reason: "the key `\(key)` appears twice in one object") }
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(data)
        } catch {
            throw Refusal(reason: "\(error)")
        }
        let versions = [manifest.latest] + manifest.versions
        var integers = [manifest.format]
        integers += versions.flatMap { [$0.version, $0.bytes, $0.unpackedBytes ?? 0] }
        integers += manifest.deltas.flatMap { [$0.from, $0.to, $0.bytes, $0.unpackedBytes ?? 0] }
        guard integers.allSatisfy({ (0...UpdateLimits.largestInteger).contains($0) }) else {
            throw Refusal(reason: "an integer is outside 0…2^53 − 1")
        }
        let sizes = versions.map { ($0.file, $0.bytes, $0.unpackedBytes, $0.sha256, UpdateLimits.bundleBytes) }
            + manifest.deltas.map { ($0.file, $0.bytes, $0.unpackedBytes, $0.sha256, UpdateLimits.deltaBytes) }
        for (file, bytes, unpacked, sha256, ceiling) in sizes {
            if let unpacked, unpacked > bytes.multipliedReportingOverflow(by: UpdateLimits.ratio).partialValue {
                throw Refusal(reason: "\(file) is declared to inflate \(unpacked / max(bytes, 1))× (more than \(UpdateLimits.ratio)×)")
            }
            if let unpacked, unpacked > ceiling { throw Refusal(reason: "\(file) is declared to unpack to more than \(ceiling) bytes") }
            // The SHA-256 names the partial download's file: nothing but hex may reach a path.
            guard isLowerHex(sha256, count: 64) else { throw Refusal(reason: "\(file): `sha256` is not 64 lowercase hex digits") }
            _ = try resolve(file, against: url)
        }
        for version in versions where !(version.digest.hasPrefix("sha256:") && isLowerHex(String(version.digest.dropFirst(7)), count: 64)) {
            throw Refusal(reason: "version \(version.version): `digest` is not sha256: and 64 lowercase hex digits")
        }
        return manifest
    }

    /// `file` resolved against the manifest's URL as a browser resolves a relative link; refused
    /// unless it is http(s) on the manifest's own scheme, host and port.
    public static func resolve(_ file: String, against manifest: URL) throws(Refusal) -> URL {
        guard let url = URL(string: file, relativeTo: manifest)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              scheme == manifest.scheme?.lowercased(), url.host?.lowercased() == manifest.host?.lowercased(),
              effectivePort(url) == effectivePort(manifest) else {
            throw Refusal(reason: "`\(file)` is not on the manifest's server")
        }
        return url
    }

    private static func isLowerHex(_ text: String, count: Int) -> Bool {
        text.utf8.count == count && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }

    /// The first key that appears twice in one JSON object of `data`, nil when none does (or the
    /// text is not JSON: the decoder reports that).
    static func firstDuplicateKey(in data: Data) -> String? {
        var objects: [Set<[UInt8]>?] = []  // per open container: its keys, nil for an array
        var expectingKey = false
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            switch byte {
            case UInt8(ascii: "{"):
                objects.append([])
                expectingKey = true
            case UInt8(ascii: "["):
                objects.append(nil)
                expectingKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = objects.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                expectingKey = objects.last.map { $0 != nil } ?? false
            case UInt8(ascii: "\""):
                var end = data.index(after: index)
                var raw: [UInt8] = []
                while end < data.endIndex, data[end] != UInt8(ascii: "\"") {
                    if data[end] == UInt8(ascii: "\\") { raw.append(data[end]); end = data.index(after: end) }
                    if end < data.endIndex { raw.append(data[end]); end = data.index(after: end) }
                }
                if expectingKey, case var keys?? = objects.last {
                    let key = decodedKey(raw)
                    if keys.contains(key) { return String(decoding: key, as: UTF8.self) }
                    keys.insert(key)
                    objects[objects.count - 1] = keys
                    expectingKey = false
                }
                index = end
            default:
                break
            }
            index = data.index(after: index)
        }
        return nil
    }

    /// A key's bytes with its JSON escapes decoded, so `"a"` and `"\u0061"` are one key.
    private static func decodedKey(_ raw: [UInt8]) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")),
              let text = try? JSONDecoder().decode(String.self, from: Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])) else { return raw }
        return Array(text.utf8)
    }
}
