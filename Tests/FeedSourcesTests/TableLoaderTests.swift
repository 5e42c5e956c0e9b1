import FeedModel
import Testing

@testable import FeedSources

@Suite struct TableLoaderTests {
    private func load(_ schema: TableSchema, _ text: String) -> (Table?, NoticeSink) {
        let sink = NoticeSink()
        return (TableLoader(schema: schema, sink: sink).load(Array(text.utf8)), sink)
    }

    @Test func columnsInAnyOrderWithExtraColumnsAndBOM() throws {
        let (table, sink) = load(GTFSSchema.stops, "\u{FEFF}stop_lon,extra,stop_id,stop_name,stop_lat\r\n18.5,x,S1,\"Rynek, Plac\",53.25\r\n")
        let stops = try #require(table)
        #expect(stops.count == 1)
        #expect(stops.texts(.stopId) == ["S1"])
        #expect(stops.texts(.stopName) == ["Rynek, Plac"])
        #expect(stops.reals(.stopLat) == [53.25])
        #expect(stops.reals(.stopLon) == [18.5])
        #expect(!stops.has(.stopCode))
        #expect(sink.count(of: "unknown_column") == 1)
    }

    @Test func missingRequiredColumnMakesRequiredFileUnusable() {
        let (table, sink) = load(GTFSSchema.stopTimes, "trip_id,arrival_time,departure_time,stop_id\nT1,08:00:00,08:00:00,S1\n")
        #expect(table == nil)
        let notice = sink.samples.first { $0.code == "missing_required_column" }
        #expect(notice?.field == "stop_sequence")
        #expect(notice?.line == 1)
        #expect(notice?.blocksPublication == true)
    }

    @Test func invalidTimeInOptionalFieldIsClearedAndReported() throws {
        let (table, sink) = load(
            GTFSSchema.stopTimes, "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,8:61:00,08:00:00,S1,1\nT1,25:10:00,25:10:00,S2,2\n")
        let stopTimes = try #require(table)
        #expect(stopTimes.integers(.arrivalTime) == [Column.nullInteger, 25 * 3600 + 600])
        let notice = try #require(sink.samples.first { $0.code == "invalid_time" })
        #expect(notice.line == 2)
        #expect(notice.field == "arrival_time")
        #expect(notice.value == "8:61:00")
        #expect(notice.repair == "value cleared")
    }

    @Test func missingOrInvalidRequiredValueDropsTheRow() throws {
        let (table, sink) = load(
            GTFSSchema.stopTimes,
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n,08:00:00,08:00:00,S1,1\nT1,08:00:00,08:00:00,S2,two\nT1,08:00:00,08:00:00,S3,3\n")
        #expect(try #require(table).texts(.stopId) == ["S3"])
        #expect(sink.samples.first { $0.code == "missing_required_field" }?.line == 2)
        #expect(sink.samples.first { $0.code == "invalid_integer" }?.line == 3)
        #expect(sink.droppedRows["stop_times.txt"] == 2)
    }

    @Test func outOfRangeAndUnexpectedEnum() throws {
        let (table, sink) = load(GTFSSchema.stops, "stop_id,stop_name,stop_lat,stop_lon,location_type\nS1,A,95.0,18.0,0\nS2,B,53.0,18.0,9\n")
        let stops = try #require(table)
        #expect(stops.reals(.stopLat)[0].isNaN)
        #expect(stops.integers(.locationType)[1] == Column.nullInteger)
        #expect(sink.count(of: "number_out_of_range") == 1)
        #expect(sink.count(of: "unexpected_enum_value") == 1)
    }

    @Test func whitespaceIsTrimmedAndReportedOnlyInQuotes() throws {
        // As MobilityData's CSV parser: unquoted values are trimmed silently; a quoted value's
        // spaces were written on purpose and are reported (warning), then trimmed.
        let (table, sink) = load(GTFSSchema.routes, "route_id,route_short_name,route_type\n R1 ,12,3\nR2,\" 7\",3\n")
        let routes = try #require(table)
        #expect(routes.texts(.routeId) == ["R1", "R2"])
        #expect(routes.texts(.routeShortName) == ["12", "7"])
        let notice = try #require(sink.samples.first { $0.code == "leading_or_trailing_whitespaces" })
        #expect(sink.count(of: "leading_or_trailing_whitespaces") == 1)
        #expect(notice.severity == .warning)
        #expect(notice.line == 3 && notice.field == "route_short_name")
    }

    @Test func nonUTF8FileIsReportedWithItsLine() throws {
        var bytes = Array("stop_id,stop_name,stop_lat,stop_lon\nS1,Caf".utf8)
        bytes += [0xE9]  // Latin-1 é
        bytes += Array(",53.0,18.0\n".utf8)
        let sink = NoticeSink()
        let table = TableLoader(schema: GTFSSchema.stops, sink: sink).load(bytes)
        let notice = try #require(sink.samples.first { $0.code == "invalid_utf8" })
        #expect(notice.file == "stops.txt")
        #expect(notice.line == 2)
        #expect(try #require(table).texts(.stopName) == ["Caf\u{FFFD}"])
    }

    /// MobilityData's invalid_character: a text holding U+FFFD, whether the bytes were not UTF-8
    /// or the character was written (a text decoded wrongly upstream); one notice per value, the
    /// text kept. Clean non-ASCII text is not flagged.
    @Test func replacementCharacterIsAnInvalidCharacter() throws {
        var bytes = Array("stop_id,stop_name,stop_lat,stop_lon\nS1,Caf".utf8)
        bytes += [0xE9]  // Latin-1 é
        bytes += Array(",53.0,18.0\nS2,Gda\u{FFFD}sk,53.1,18.1\nS3,Plac Kościeleckich,53.2,18.2\nS4,\"Say \"\"Caf\u{FFFD}\"\"\",53.3,18.3\n".utf8)
        let sink = NoticeSink()
        let stops = try #require(TableLoader(schema: GTFSSchema.stops, sink: sink).load(bytes))
        #expect(stops.texts(.stopName) == ["Caf\u{FFFD}", "Gda\u{FFFD}sk", "Plac Kościeleckich", "Say \"Caf\u{FFFD}\""])
        let found = sink.samples.filter { $0.code == "invalid_character" }
        #expect(found.map(\.line) == [2, 3, 5] && found.allSatisfy { $0.field == "stop_name" && $0.severity == .error })
        #expect(found.first?.value == "Caf\u{FFFD}" && found.first?.repair == "kept as text")
        #expect(!sink.hasBlocking)
    }

    /// MobilityData's invalid_phone_number, without a country to check against: separators,
    /// letters and short service numbers pass; a misplaced `+`, too few or too many digits, or a
    /// character no number holds do not. The optional agency_phone is cleared (a warning).
    @Test func phoneNumbersThatCannotBeDialled() throws {
        for good in ["+1 (316) 265-7221", "311", "1-800-GO-METRO", "(0) 52 582 23 00 ext. 4", "+48 52 58 22 300", "020 7222 1234;ext=2"] {
            #expect(ValueParsing.isPossiblePhoneNumber(good), "\(good)")
        }
        for bad in ["+12", "316+265", "call us", "12", "1234567890123456", "316 265 7221 ☎", "+"] {
            #expect(!ValueParsing.isPossiblePhoneNumber(bad), "\(bad)")
        }
        let text =
            "agency_id,agency_name,agency_url,agency_timezone,agency_phone\nA,One,https://a.example,Europe/Warsaw,call us\nB,Two,https://b.example,Europe/Warsaw,+48 52 58 22 300\n"
        let sink = NoticeSink()
        let agency = try #require(TableLoader(schema: GTFSSchema.agency, sink: sink).load(Array(text.utf8)))
        #expect(agency.texts(.agencyPhone) == [nil, "+48 52 58 22 300"])
        let notice = try #require(sink.samples.first { $0.code == "invalid_phone_number" })
        #expect(sink.count(of: "invalid_phone_number") == 1)
        #expect(notice.line == 2 && notice.field == "agency_phone" && notice.value == "call us" && notice.severity == .warning)
        #expect(notice.repair == "value cleared")
    }

    @Test func rowLengthMismatchIsReported() throws {
        let (table, sink) = load(GTFSSchema.routes, "route_id,route_short_name,route_type\nR1,12\nR2,13,3,extra\n")
        #expect(try #require(table).texts(.routeId) == ["R2"])  // R1 lacks the required route_type
        #expect(sink.count(of: "invalid_row_length") == 2)
    }
}

/// Text no app can use, repaired with a notice each (issue 33): NUL bytes removed, a value over
/// 64 KiB cut at a character boundary; the row is kept either way.
@Suite struct TextRepairTests {
    @Test func nulBytesAreRemovedAndReported() throws {
        let sink = NoticeSink()
        let text = "stop_id,stop_name,stop_lat,stop_lon\nS1,\"Main\u{0}St\",53.1,18.0\nS2,Plain,53.2,18.1\n"
        let stops = try #require(TableLoader(schema: GTFSSchema.stops, sink: sink).load(Array(text.utf8)))
        #expect(stops.texts(.stopName) == ["MainSt", "Plain"])
        let notice = try #require(sink.samples.first { $0.code == "nul_character_in_field" })
        #expect(notice.line == 2)
        #expect(notice.field == "stop_name")
        #expect(notice.file == "stops.txt")
        #expect(notice.repair == "NUL bytes removed")
        #expect(sink.count(of: "nul_character_in_field") == 1)
    }

    @Test func aValueOver64KiBIsCutAtACharacterBoundary() throws {
        let sink = NoticeSink()
        // 65,535 ASCII bytes then "é" (2 bytes): byte 65,536 falls inside the "é".
        let long = String(repeating: "a", count: 65_535) + "é" + String(repeating: "b", count: 100)
        let text = "stop_id,stop_name,stop_lat,stop_lon\nS1,\(long),53.1,18.0\n"
        let stops = try #require(TableLoader(schema: GTFSSchema.stops, sink: sink).load(Array(text.utf8)))
        let name = try #require(stops.texts(.stopName).first ?? nil)
        #expect(name == String(repeating: "a", count: 65_535))
        let notice = try #require(sink.samples.first { $0.code == "field_too_long" })
        #expect(notice.line == 2)
        #expect(notice.field == "stop_name")
        #expect(notice.severity == .warning)
        #expect(notice.message.contains("65637 bytes"))
        // A value of exactly 64 KiB is kept whole.
        let exact = String(repeating: "c", count: 65_536)
        let kept = NoticeSink()
        let table = try #require(TableLoader(schema: GTFSSchema.stops, sink: kept).load(Array("stop_id,stop_name\nS1,\(exact)\n".utf8)))
        #expect(table.texts(.stopName) == [exact])
        #expect(kept.count(of: "field_too_long") == 0)
    }

    /// Bytes that are not UTF-8 decode to U+FFFD (three bytes each): the bound applies to what is
    /// stored, so 40,000 such bytes (120,000 once decoded) are cut too. And a cluster of 40,000
    /// combining marks is cut at a scalar boundary in one pass (stepping back by characters took
    /// 54 s on it).
    @Test func theBoundIsOnTheStoredTextAndCutsALongClusterAtOnce() throws {
        let sink = NoticeSink()
        let invalid = [UInt8](repeating: 0xFF, count: 40_000)
        let bytes = Array("stop_id,stop_name\nS1,".utf8) + invalid + Array("\n".utf8)
        let stops = try #require(TableLoader(schema: GTFSSchema.stops, sink: sink).load(bytes))
        let name = try #require(stops.texts(.stopName).first ?? nil)
        #expect(name.utf8.count <= 65_536)
        #expect(name.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        #expect(sink.count(of: "field_too_long") == 1)

        let marks = NoticeSink()
        let cluster = "e" + String(repeating: "\u{301}", count: 40_000)
        let table = try #require(TableLoader(schema: GTFSSchema.stops, sink: marks).load(Array("stop_id,stop_name\nS1,\(cluster)\n".utf8)))
        let cut = try #require(table.texts(.stopName).first ?? nil)
        #expect(cut.utf8.count == 65_535, "e (1 byte) and 32,767 marks (2 bytes each)")
        #expect(cut.unicodeScalars.count == 32_768)
        #expect(marks.count(of: "field_too_long") == 1)
    }
}
