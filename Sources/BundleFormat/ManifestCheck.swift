import Foundation

/// A manifest received from a server, checked before anything it names is fetched
/// (docs/update-protocol.md, "Limits"): at most ``UpdateLimits/manifestBytes``, no key twice in
/// one object (readers disagree on which one wins), integers within 0…2^53 − 1, no file declared
/// to inflate beyond ``UpdateLimits/ratio`` times its size, and every file on the manifest's own
/// server.
public enum ManifestCheck {
    /// Why a manifest was refused; nothing it names has been fetched.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong, in one sentence.
        public var reason: String
        /// The reason.
        public var description: String { reason }
    }

    /// The manifest in `data`, fetched from `url`, as a client updating from it reads it. A delta
    /// whose file is not on the manifest's server is kept, for the client to refuse when it would
    /// fetch it and take the full bundle instead (docs/update-protocol.md, "Limits": a delta off
    /// the server is no reason to fail); a version's file off the server refuses the manifest.
    public static func decode(_ data: Data, from url: URL) throws(Refusal) -> Manifest {
        guard data.count <= UpdateLimits.manifestBytes else { throw Refusal(reason: "manifest.json is larger than 1 MiB") }
        if let key = firstDuplicateKey(in: data) { throw Refusal(reason: "the key `\(key)` appears twice in one object") }
        if let field = firstNonInteger(in: data) { throw Refusal(reason: "\(field) is not a JSON integer") }
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
        let sizes =
            versions.map { ($0.file, $0.bytes, $0.unpackedBytes, $0.sha256, UpdateLimits.bundleBytes, true) }
            + manifest.deltas.map { ($0.file, $0.bytes, $0.unpackedBytes, $0.sha256, UpdateLimits.deltaBytes, false) }
        for (file, bytes, unpacked, sha256, ceiling, onServer) in sizes {
            if let unpacked, unpacked > bytes.multipliedReportingOverflow(by: UpdateLimits.ratio).partialValue {
                // Rounded up: 100 × `bytes` + 1 is more than 100×.
                let ratio = bytes > 0 ? unpacked / bytes + (unpacked % bytes == 0 ? 0 : 1) : unpacked
                throw Refusal(reason: "\(file): `unpacked_bytes` \(unpacked) would inflate \(ratio)× (more than \(UpdateLimits.ratio)×)")
            }
            if let unpacked, unpacked > ceiling { throw Refusal(reason: "\(file): `unpacked_bytes` \(unpacked) is more than \(ceiling) bytes") }
            // The SHA-256 names the partial download's file: nothing but hex may reach a path.
            guard isLowerHex(sha256, count: 64) else { throw Refusal(reason: "\(file): `sha256` is not 64 lowercase hex digits") }
            if onServer { _ = try resolve(file, against: url) }
        }
        for version in versions where !(version.digest.hasPrefix("sha256:") && isLowerHex(String(version.digest.dropFirst(7)), count: 64)) {
            throw Refusal(reason: "version \(version.version): `digest` is not sha256: and 64 lowercase hex digits")
        }
        var checked = manifest
        checked.latest.encodings = manifest.latest.encodings?.filter { usable($0, from: url) }
        return checked
    }

    /// Whether a client may take `encoded`: its fields within the limits a version's are held
    /// to. One that is not is left out (the client takes the plain bundle), not a reason to refuse
    /// the manifest. Its file must be on the manifest's server, as a version's: checked when it is
    /// fetched, which fails the update otherwise (the Python and JVM clients do the same).
    static func usable(_ encoded: EncodedBundle, from url: URL) -> Bool {
        let range = 0...UpdateLimits.largestInteger
        return range.contains(encoded.bytes) && range.contains(encoded.unpackedBytes)
            && encoded.unpackedBytes <= encoded.bytes.multipliedReportingOverflow(by: UpdateLimits.ratio).partialValue
            && encoded.unpackedBytes <= UpdateLimits.bundleBytes && isLowerHex(encoded.sha256, count: 64)
    }

    /// `file` resolved against the manifest's URL as a browser resolves a relative link; refused
    /// unless it is http(s) on the manifest's own scheme, host and port.
    public static func resolve(_ file: String, against manifest: URL) throws(Refusal) -> URL {
        guard let url = URL(string: file, relativeTo: manifest)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            scheme == manifest.scheme?.lowercased(), url.host?.lowercased() == manifest.host?.lowercased(),
            effectivePort(url) == effectivePort(manifest)
        else {
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
                    if data[end] == UInt8(ascii: "\\") {
                        raw.append(data[end])
                        end = data.index(after: end)
                    }
                    if end < data.endIndex {
                        raw.append(data[end])
                        end = data.index(after: end)
                    }
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

    /// The first field the protocol reads as an integer (`format`; `version`, `bytes` and
    /// `unpacked_bytes` of `latest` and of each of `versions`; `from`, `to`, `bytes` and
    /// `unpacked_bytes` of each of `deltas`) whose value is not written as a JSON integer
    /// (`2.0`, `2e0`, `true`, `"2"`, an object): Swift's decoder reads `2.0` as 2, Python's
    /// parser does not, and two clients must read one manifest alike. Nil when there is none.
    static func firstNonInteger(in data: Data) -> String? {
        let versionFields: Set<String> = ["version", "bytes", "unpacked_bytes"], deltaFields: Set<String> = ["from", "to", "bytes", "unpacked_bytes"]
        let bytes = [UInt8](data)
        var open: [(object: Bool, name: String)] = []  // the containers open, each with its key (or `[]`) in its parent
        var key: String?  // the key of the value that comes next, in an object
        var expectingKey = false
        let delimiters = Set(" \n\r\t,]}".utf8)
        /// Where a value starting now sits, when the protocol reads it as an integer.
        func integerField() -> String? {
            guard let key, !expectingKey, open.first?.object == true, open.last?.object == true else { return nil }
            let path = open.dropFirst().map(\.name)
            switch path {
            case []: return key == "format" ? "`format`" : nil
            case ["latest"]: return versionFields.contains(key) ? "latest: `\(key)`" : nil
            case ["versions", "[]"]: return versionFields.contains(key) ? "versions: `\(key)`" : nil
            case ["deltas", "[]"]: return deltaFields.contains(key) ? "deltas: `\(key)`" : nil
            default: return nil
            }
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if let field = integerField() { return field }
                open.append((byte == UInt8(ascii: "{"), open.last.map { $0.object ? key ?? "" : "[]" } ?? ""))
                expectingKey = byte == UInt8(ascii: "{")
                key = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
                expectingKey = false
                key = nil
            case UInt8(ascii: ","):
                expectingKey = open.last?.object ?? false
            case UInt8(ascii: ":"):
                expectingKey = false
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                if expectingKey {
                    key = String(decoding: decodedKey(Array(bytes[(index + 1)..<min(end, bytes.count)])), as: UTF8.self)
                } else if let field = integerField() {
                    return field
                }
                index = end
            default:
                // A number, `true`, `false` or `null`, up to the next delimiter.
                var end = index
                while end < bytes.count, !delimiters.contains(bytes[end]) { end += 1 }
                let token = bytes[index..<end]
                let digits = token.first == UInt8(ascii: "-") ? token.dropFirst() : token
                if let field = integerField(), digits.isEmpty || !digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                    return field
                }
                index = end - 1
            }
            index += 1
        }
        return nil
    }

    /// A key's bytes with its JSON escapes decoded, so `"a"` and `"\u0061"` are one key.
    private static func decodedKey(_ raw: [UInt8]) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")),
            let text = try? JSONDecoder().decode(String.self, from: Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]))
        else { return raw }
        return Array(text.utf8)
    }
}
