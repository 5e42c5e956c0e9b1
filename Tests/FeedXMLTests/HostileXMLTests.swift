import FeedXML
import Foundation
import TestSupport
import Testing

/// The reader refuses hostile or broken documents with a typed error, reads nothing from
/// outside the document, and keeps memory bounded.
@Suite struct HostileXMLTests {
    /// Reads a whole document, returning its events or the error that stopped it.
    static func read(_ text: String, schema: XMLSchema? = nil, limits: XMLLimits = .standard) -> Result<[XMLNode], XMLError> {
        read(Array(text.utf8), schema: schema, limits: limits)
    }

    static func read(_ bytes: [UInt8], schema: XMLSchema? = nil, limits: XMLLimits = .standard) -> Result<[XMLNode], XMLError> {
        do throws(XMLError) {
            let reader = try XMLStreamReader(bytes: bytes, name: "doc.xml", schema: schema, limits: limits)
            var nodes: [XMLNode] = []
            while let node = try reader.next() { nodes.append(node) }
            return .success(nodes)
        } catch {
            return .failure(error)
        }
    }

    static func error(_ result: Result<[XMLNode], XMLError>) -> XMLError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test func wellFormedDocumentStreamsStartsEndsAndText() throws {
        let nodes = try Self.read("<?xml version=\"1.0\"?>\n<a x=\"1\">\n  <b y=\"&amp;2\"/>\n  <c>hi</c>\n</a>\n").get()
        #expect(nodes.map(\.kind) == [.start, .start, .end, .start, .text, .end, .end])
        #expect(nodes[0].name == "a" && nodes[0]["x"] == "1" && nodes[0].line == 2 && nodes[0].depth == 0)
        #expect(nodes[1].name == "b" && nodes[1]["y"] == "&2" && nodes[1].line == 3 && nodes[1].depth == 1)
        #expect(nodes[4].text == "hi")
    }

    @Test func externalEntityIsRefusedAndTheFileNeverRead() throws {
        let folder = TemporaryFolder()
        let secret = folder.feed("secret", ["passwd": "root:x:0:0:TOP-SECRET-CONTENT\n"]).appendingPathComponent("passwd")
        #expect(FileManager.default.fileExists(atPath: secret.path))
        for target in ["file:///etc/passwd", secret.absoluteString, secret.path] {
            let doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY e SYSTEM \"\(target)\">]>\n<x>&e;</x>\n"
            let result = Self.read(doc)
            let error = try #require(Self.error(result), "\(target) must be refused")
            #expect(error.kind == .entityRefused)
            #expect(error.line >= 2)
            #expect(!error.message.contains("TOP-SECRET") && !error.message.contains("root:x"))
            #expect(error.message.contains("entit"))
        }
    }

    @Test func parameterEntityAndExternalDTDAreNotLoaded() throws {
        let folder = TemporaryFolder()
        let dtd = folder.feed("dtd", ["evil.dtd": "<!ENTITY leak \"LEAKED-FROM-DTD\">"]).appendingPathComponent("evil.dtd")
        // An external DTD is never loaded, so its entity is undeclared: refused.
        let external = Self.read("<?xml version=\"1.0\"?>\n<!DOCTYPE x SYSTEM \"\(dtd.path)\">\n<x>&leak;</x>\n")
        let error = try #require(Self.error(external))
        #expect(error.kind == .entityRefused)
        #expect(!error.message.contains("LEAKED"))
        // A parameter entity pulling a DTD in is refused before anything is read.
        let parameter = Self.read("<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY % p SYSTEM \"\(dtd.path)\"> %p;]>\n<x>&leak;</x>\n")
        #expect(Self.error(parameter)?.kind == .entityRefused)
        // A DOCTYPE naming a DTD but declaring nothing is harmless and tolerated (never loaded).
        let harmless = try Self.read("<?xml version=\"1.0\"?>\n<!DOCTYPE x SYSTEM \"http://127.0.0.1:9/x.dtd\">\n<x>ok</x>\n").get()
        #expect(harmless.contains { $0.text == "ok" })
    }

    @Test func billionLaughsIsRefusedQuicklyInBoundedMemory() throws {
        var doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        doc += "<!ENTITY lol1 \"" + String(repeating: "&lol;", count: 10) + "\">\n"
        for level in 2...9 {
            doc += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">\n"
        }
        doc += "]>\n<lolz>&lol9;</lolz>\n"
        let before = MemoryProbe.residentBytes()
        let start = CPUClock.thread()
        let result = Self.read(doc)
        let seconds = CPUClock.thread() - start
        let error = try #require(Self.error(result))
        #expect(error.kind == .entityRefused)
        #expect(seconds < 5, "\(seconds) s of CPU")
        // 10^9 "lol"s would be 3 GB; the refusal costs next to nothing.
        #expect(MemoryProbe.residentBytes() - before < 64 << 20)
    }

    @Test func truncatedDocumentIsRefusedWithItsLine() throws {
        let full = "<?xml version=\"1.0\"?>\n<a>\n  <b x=\"1\"/>\n  <b x=\"2\"/>\n  <b x=\"3\"/>\n</a>\n"
        for cut in [full.count - 3, full.count - 12, full.count - 20, 30] {
            let error = try #require(Self.error(Self.read(String(full.prefix(cut)))), "cut at \(cut)")
            #expect(error.kind == .truncated, "cut at \(cut): \(error)")
            #expect(error.line > 0)
        }
        #expect(Self.error(Self.read(""))?.kind == .truncated)
    }

    @Test func invalidUTF8IsRefused() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<a>\n<b name=\"caf".utf8)
        bytes += [0xC3, 0x28]  // an invalid two-byte sequence
        bytes += Array("\"/>\n</a>\n".utf8)
        let error = try #require(Self.error(Self.read(bytes)))
        #expect(error.kind == .invalidEncoding)
        #expect(error.line == 3)
        // A declared single-byte encoding is converted, not refused.
        var latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a n=\"".utf8)
        latin1 += [0xE4]  // ä
        latin1 += Array("\"/>\n".utf8)
        #expect(try Self.read(latin1).get().first?["n"] == "ä")
    }

    @Test func oversizedValuesAreRefused() throws {
        let limits = XMLLimits(maximumValueBytes: 1000)
        let attribute = "<a v=\"" + String(repeating: "x", count: 5000) + "\"/>"
        #expect(Self.error(Self.read(attribute, limits: limits))?.kind == .valueTooLarge)
        let text = "<a>" + String(repeating: "y", count: 5000) + "</a>"
        #expect(Self.error(Self.read(text, limits: limits))?.kind == .valueTooLarge)
        #expect((try? Self.read("<a v=\"short\">ok</a>", limits: limits).get())?.count == 3)
    }

    @Test func contentAfterTheRootIsMalformedNotTruncated() throws {
        #expect(Self.error(Self.read("<a>\n</a>\n<b/>\n"))?.kind == .malformed)
        #expect(Self.error(Self.read("<a>\n</a>\n   <b x=\"1\"/>  "))?.kind == .malformed)
        #expect(Self.error(Self.read("<a>\n<b/>\n<c x=\"1\"/>"))?.kind == .truncated)
        #expect(Self.error(Self.read("<a>\n<b/>\n  \n"))?.kind == .truncated)
    }

    @Test func malformedDocumentGivesLineAndColumn() throws {
        let error = try #require(Self.error(Self.read("<a>\n<b></c>\n</a>\n")))
        #expect(error.kind == .malformed)
        #expect(error.line == 2)
        #expect(error.description.hasPrefix("doc.xml:2"))
    }

    @Test func deepNestingHitsLibxml2sLimit() throws {
        let doc = String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000)
        #expect(Self.error(Self.read(doc)) != nil)
    }
}

/// Resident memory of this process, from /proc (Linux); 0 elsewhere.
enum MemoryProbe {
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
