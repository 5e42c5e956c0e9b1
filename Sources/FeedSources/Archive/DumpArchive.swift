import CFeedZlib
import FeedModel
import Foundation
import ZIPFoundation

/// A dump's files, from a zip archive or a folder, by name.
///
/// Opening resolves the layout once: `__MACOSX/` and `._*` junk is skipped, entries with unsafe
/// paths (`../x`, `/etc/x`) are reported and never read, a name stored twice is read from its
/// last entry (reported as `duplicate_zip_member`), and a dump whose files all sit in one
/// subfolder is read from that subfolder (reported as `invalid_input_files_in_subfolder`).
package final class DumpArchive {
    package let path: String
    /// File names as GTFS sees them (`stops.txt`), mapped to their member path.
    package private(set) var files: [String: String] = [:]
    /// The folder the files were read from when they all sit in one subfolder rather than at the
    /// top level (nil otherwise).
    package private(set) var subfolder: String?
    private let archive: Archive?
    private let folder: URL?
    private var entries: [String: Entry] = [:]
    /// What a member may unpack to, against zip bombs.
    package let limits: ArchiveLimits

    package init(url given: URL, sink: NoticeSink, limits: ArchiveLimits = .standard) throws(DumpError) {
        // A symbolic link to the dump (a folder linked into place) is read where it points: the
        // folder enumerator does not go through a link.
        let url = given.resolvingSymlinksInPath()
        path = given.path
        self.limits = limits
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .notFound(path: url.path)
        }
        var members: [String] = []
        if isDirectory.boolValue {
            archive = nil
            folder = url
            let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
            let base = url.standardizedFileURL.path + "/"
            while let item = enumerator?.nextObject() as? URL {
                guard (try? item.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let full = item.standardizedFileURL.path
                if full.hasPrefix(base) { members.append(String(full.dropFirst(base.count))) }
            }
        } else {
            folder = nil
            // The end record of a zip lies within its last 65,557 bytes (22 and a comment of at
            // most 65,535): looked for only there. ZIPFoundation's own scan cost about 10 system
            // calls per byte after the archive (51 s for 10 MB of trailing zeros; 1 GB hung).
            try Self.requireEndRecord(url)
            do {
                archive = try Archive(url: url, accessMode: .read, pathEncoding: nil)
            } catch {
                throw .unreadableArchive(path: url.path, reason: "\(error)")
            }
            var copies: [String: Int] = [:]
            for entry in archive! where entry.type == .file {
                // A name stored twice: the last copy is read, as unzip (overwriting) and Python's
                // zipfile do, and the others are reported.
                if entries.updateValue(entry, forKey: entry.path) == nil {
                    members.append(entry.path)
                } else {
                    copies[entry.path, default: 1] += 1
                }
            }
            for (name, count) in copies.sorted(by: { $0.key < $1.key }) {
                sink.add(
                    Notice(
                        .duplicateZipMember, file: name, value: String(count),
                        message: "The archive holds \(count) entries named `\(name)`; tools disagree on which one is the file.",
                        repair: "the last entry read, the \(count - 1) before it ignored"))
            }
            if members.isEmpty && !Self.looksLikeZip(url) {
                throw .unreadableArchive(path: url.path, reason: "no zip directory found")
            }
        }
        resolve(members.sorted(), sink: sink)
    }

    /// What opening this dump again takes, without resolving its layout again: a value other
    /// threads can be given, each opening its own ``DumpArchive`` from it
    /// (``init(reopening:)``; one `Archive` is not safe to share).
    package struct Layout: Sendable {
        let path: String
        let limits: ArchiveLimits
        let files: [String: String]
        let subfolder: String?
        /// The folder read, for a folder dump; nil for a zip.
        let folder: URL?
    }

    /// This dump's layout, for opening it again elsewhere.
    package var layout: Layout {
        Layout(path: path, limits: limits, files: files, subfolder: subfolder, folder: folder)
    }

    /// The dump of `layout` opened again, for reading members on another thread at the same time:
    /// the layout is taken as it is, not resolved again (nothing is reported); a zip's directory
    /// is read again, its last entry of each name kept, as when it was first opened.
    package init(reopening layout: Layout) throws(DumpError) {
        path = layout.path
        limits = layout.limits
        files = layout.files
        subfolder = layout.subfolder
        folder = layout.folder
        guard layout.folder == nil else {
            archive = nil
            return
        }
        let opened: Archive
        do {
            opened = try Archive(url: URL(fileURLWithPath: layout.path), accessMode: .read, pathEncoding: nil)
        } catch {
            throw .unreadableArchive(path: layout.path, reason: "\(error)")
        }
        archive = opened
        let members = Set(layout.files.values)
        for entry in opened where entry.type == .file && members.contains(entry.path) {
            entries[entry.path] = entry
        }
    }

    /// The unpacked size of a file as the dump declares it (0 when unknown): to start the
    /// largest files first.
    package func declaredSize(_ name: String) -> UInt64 {
        guard let member = files[name] else { return 0 }
        if let folder {
            let size = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(member).path)[.size] as? UInt64
            return size ?? 0
        }
        return entries[member].map { UInt64($0.uncompressedSize) } ?? 0
    }

    /// Throws unless a zip end-of-central-directory record (`PK\u{5}\u{6}`) lies within the last
    /// 65,557 bytes of the file.
    static func requireEndRecord(_ url: URL) throws(DumpError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw .unreadableArchive(path: url.path, reason: "cannot read") }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { throw .unreadableArchive(path: url.path, reason: "cannot read") }
        let window = min(size, 65_557)
        guard (try? handle.seek(toOffset: size - window)) != nil, let tail = try? handle.read(upToCount: Int(window)) else {
            throw .unreadableArchive(path: url.path, reason: "cannot read")
        }
        let bytes = [UInt8](tail)
        var index = bytes.count - 22
        while index >= 0 {
            if bytes[index] == 0x50, bytes[index + 1] == 0x4B, bytes[index + 2] == 0x05, bytes[index + 3] == 0x06 { return }
            index -= 1
        }
        throw .unreadableArchive(
            path: url.path,
            reason: size > 65_557
                ? "no zip end record in its last 65,557 bytes, where one must be (data appended after the archive?)"
                : "no zip end record")
    }

    private static func looksLikeZip(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url), let head = try? handle.read(upToCount: 4) else { return false }
        return head == Data([0x50, 0x4B, 0x05, 0x06]) || head == Data([0x50, 0x4B, 0x03, 0x04])
    }

    private func resolve(_ members: [String], sink: NoticeSink) {
        var usable: [String] = []
        for member in members {
            let parts = member.split(separator: "/", omittingEmptySubsequences: false)
            if member.hasPrefix("/") || member.hasPrefix("\\") || parts.contains("..") || member.contains("\\..") {
                sink.add(
                    Notice(
                        .unsafePath, file: member,
                        message: "The archive holds an entry whose path leaves the archive.", repair: "entry ignored"))
                continue
            }
            let name = parts.last.map(String.init) ?? member
            if parts.first == "__MACOSX" || name.hasPrefix("._") || name == ".DS_Store" || name.isEmpty { continue }
            usable.append(member)
        }
        let topLevel = usable.filter { !$0.contains("/") }
        // Decided by the GTFS files themselves: a stray readme.txt at the top does not hide a
        // feed in a subfolder.
        let gtfsNames = Set(GTFSSchema.tables.map(\.fileName))
        if topLevel.contains(where: { gtfsNames.contains($0) }) {
            for member in topLevel { files[member] = member }
            return
        }
        let folders = Set(
            usable.compactMap { m -> String? in
                guard let slash = m.lastIndex(of: "/"), gtfsNames.contains(String(m[m.index(after: slash)...])) else { return nil }
                return String(m[..<slash])
            })
        guard folders.count == 1, let only = folders.first else { return }
        sink.add(
            Notice(
                .invalidInputFilesInSubfolder, file: only + "/",
                message: "The feed's files sit in a subfolder instead of the archive's top level.",
                repair: "files read from the subfolder"))
        subfolder = only
        for member in usable where member.hasPrefix(only + "/") && !member.dropFirst(only.count + 1).contains("/") {
            files[String(member.dropFirst(only.count + 1))] = member
        }
    }

    /// The bytes of one file, or nil when the dump has no such file.
    package func read(_ name: String) throws(DumpError) -> [UInt8]? {
        var bytes: [UInt8] = []
        guard try stream(name, into: { bytes.append(contentsOf: $0) }) else { return nil }
        return bytes
    }

    /// Hands the bytes of one file to `consume` in chunks, as they are read or inflated; never
    /// the whole file at once. Returns false when the dump has no such file. A member that passes
    /// the limits, or fails its CRC-32, throws: what `consume` took of it must then be discarded.
    package func stream(
        _ name: String, chunkBytes: Int = 1 << 16,
        into consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DumpError) -> Bool {
        guard let member = files[name] else { return false }
        if let folder {
            try streamFile(folder.appendingPathComponent(member), member: member, chunkBytes: chunkBytes, into: consume)
            return true
        }
        guard let archive, let entry = entries[member] else { return false }
        let packed = UInt64(entry.compressedSize)
        // The declared size can lie; it is checked again while inflating.
        if let refusal = limits.refusal(unpacked: UInt64(entry.uncompressedSize), packed: packed) {
            throw .unreadableEntry(path: path, entry: member, reason: refusal)
        }
        var unpacked: UInt64 = 0
        var refusal: String?
        // The ratio is checked against the packed bytes read so far, so that a member whose
        // header lies about its sizes stops at the bound as it inflates (a 3.45 GB bomb of 8.5 MB:
        // after 64 MiB, not after 1.7 GB). ZIPFoundation (0.9, Linux) reads `chunkBytes` packed
        // bytes, then hands on full output chunks until that input is spent, ending with one short
        // chunk: so the reads so far are the short chunks seen plus one. (Elsewhere the member's
        // whole packed size is the bound.) DumpArchiveTests' lying bomb fails if that changes.
        var packedReads: UInt64 = 1
        // ZIPFoundation's CRC-32 on Linux is a byte-at-a-time Swift loop; zlib's is several times
        // faster, so the checksum is computed here over each chunk.
        var checksum: UInt = 0
        do {
            _ = try archive.extract(entry, bufferSize: chunkBytes, skipCRC32: true) { chunk in
                unpacked += UInt64(chunk.count)
                var packedSoFar = packed
                if !entry.isCompressed {
                    packedSoFar = unpacked  // stored: every byte read is a byte handed on
                } else {
                    #if os(Linux)
                        packedSoFar = min(packed, packedReads * UInt64(chunkBytes))
                        if chunk.count < chunkBytes { packedReads += 1 }
                    #endif
                }
                refusal = limits.refusal(unpacked: unpacked, packed: packedSoFar)
                if refusal != nil { throw EntryTooLarge() }
                chunk.withUnsafeBytes { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    checksum = crc32(checksum, bytes.baseAddress, UInt32(bytes.count))
                    consume(bytes)
                }
            }
        } catch is EntryTooLarge {
            throw .unreadableEntry(path: path, entry: member, reason: refusal ?? "too large")
        } catch {
            throw .unreadableEntry(path: path, entry: member, reason: "\(error)")
        }
        guard UInt32(truncatingIfNeeded: checksum) == entry.checksum else {
            throw .unreadableEntry(path: path, entry: member, reason: "CRC-32 mismatch: the archive is corrupt")
        }
        return true
    }

    /// A plain file of a dump folder, in chunks (a folder has no packed size: only the size cap holds).
    private func streamFile(
        _ url: URL, member: String, chunkBytes: Int,
        into consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DumpError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw .unreadableEntry(path: path, entry: member, reason: "cannot read the file")
        }
        defer { try? handle.close() }
        var read: UInt64 = 0
        while true {
            let chunk: Data
            do {
                guard let next = try handle.read(upToCount: chunkBytes), !next.isEmpty else { return }
                chunk = next
            } catch {
                throw .unreadableEntry(path: path, entry: member, reason: "cannot read the file: \(error)")
            }
            read += UInt64(chunk.count)
            if read > limits.maxEntryBytes {
                throw .unreadableEntry(path: path, entry: member, reason: "larger than \(limits.maxEntryBytes >> 20) MiB (max_entry_size_mb)")
            }
            chunk.withUnsafeBytes { consume($0.bindMemory(to: UInt8.self)) }
        }
    }
}

private struct EntryTooLarge: Error {}
