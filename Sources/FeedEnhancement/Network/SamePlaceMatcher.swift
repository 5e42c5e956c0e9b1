import FeedModel

/// A stop or station a rider could take for a place of its own: a station, or a stop that no
/// station groups. Platforms are represented by their station.
package struct PlaceCandidate: Sendable {
    package var id: String
    /// The source it comes from (its pipeline id).
    package var source: String
    package var name: String
    package var point: Point
    /// Served by rail, subway, tram or another guided mode (its own lines or its platforms').
    package var guided: Bool

    package init(id: String, source: String, name: String, point: Point, guided: Bool) {
        self.id = id
        self.source = source
        self.name = name
        self.point = point
        self.guided = guided
    }
}

/// Two places a rider sees as one: a station shared by agencies, or a stop at its door.
package struct PlaceLink: Sendable, Equatable {
    package var stop: String
    package var other: String
    /// Metres between the two.
    package var distance: Double
    /// 0–1: nearer, alike names and both guided raise it; 1 for a link made by hand.
    package var confidence: Double
    /// What the link rests on, in words: "38 m", "38 m, names share `millbrae`", "override".
    package var evidence: String

    package init(stop: String, other: String, distance: Double, confidence: Double, evidence: String) {
        self.stop = stop
        self.other = other
        self.distance = distance
        self.confidence = confidence
        self.evidence = evidence
    }
}

/// Finds the places of different sources that are one place (issue 28): each pair within
/// `samePlaceDistance` whatever its names, and each pair within `sameNameDistance` whose names
/// share a distinctive word (``PlaceNameKey``) and one of them is served by rail. Two places
/// linked to a third and within `sameNameDistance` of each other are linked too. Within one source, only places the feed left
/// ungrouped that have the same name, are both guided and stand within `samePlaceDistance`
/// (PATH lists its 33rd Street three times). Then the overrides: a `split` removes a link, a
/// `join` makes one. Every link is returned both ways, in id order.
///
/// Tried on BART, Caltrain and Amtrak, and on New York's subway, PATH, Amtrak and WMATA: the
/// interchanges are 4 to 182 m apart (Millbrae 37 m, Washington Union Station 106 m, the E
/// train's World Trade Center 182 m); the closest different places with alike names are 276 m
/// apart (Seventh Avenue's 23 St and PATH's 23rd Street), and with unlike names 239 m
/// (Cortlandt St and PATH's World Trade Center).
package struct SamePlaceMatcher: Sendable {
    package var settings: NetworkSettings

    package init(settings: NetworkSettings) {
        self.settings = settings
    }

    package func links(_ candidates: [PlaceCandidate], sink: NoticeSink, overridesFile: String = "overrides") -> PlaceLinks {
        let reach = max(settings.samePlaceDistance, settings.sameNameDistance)
        // Names are read only for the pairs that get that far (most never do: one source's bus
        // stops): reading all 20,579 of the 21-feed region's took most of the matcher's time.
        var names: [PlaceNameKey?] = Array(repeating: nil, count: candidates.count)
        func name(_ index: Int) -> PlaceNameKey {
            if let known = names[index] { return known }
            let key = PlaceNameKey(candidates[index].name)
            names[index] = key
            return key
        }
        let tree = NearestPoints(candidates.map(\.point))
        // Each candidate's nearest places that could be linked to it (the cheap refusals first),
        // at most `maxLinksPerPlace`: however dense the stops, a place has a bounded number of
        // links, and closing them (places linked to a third) stays linear in the stops.
        var nearest: [[Int32]] = Array(repeating: [], count: candidates.count)
        var near: [(distance: Double, id: String, index: Int)] = []
        var capped = 0, most = (count: 0, id: "")
        for (i, a) in candidates.enumerated() where a.point.isValid {
            near.removeAll(keepingCapacity: true)
            let examined = tree.nearest(to: a.point, within: reach, first: 2 * Self.maxLinksPerPlace + 1, limit: Self.maxExamined + 1) {
                $0.count(where: { j in i != j && couldLink(a, candidates[j], distance: (a.point.distance(to: candidates[j].point) * 10).rounded() / 10) })
                    > Self.maxLinksPerPlace
            }
            for j in examined where i != j {
                let b = candidates[j]
                let distance = (a.point.distance(to: b.point) * 10).rounded() / 10
                guard couldLink(a, b, distance: distance) else { continue }
                near.append((distance, b.id, j))
            }
            if near.count > Self.maxLinksPerPlace || examined.count > Self.maxExamined {
                capped += 1
                if near.count > most.count { most = (near.count, a.id) }
                near.sort { ($0.distance, $0.id) < ($1.distance, $1.id) }
                near.removeSubrange(min(near.count, Self.maxLinksPerPlace)...)
            }
            nearest[i] = near.map { Int32($0.index) }.sorted()
        }
        if capped > 0 {
            sink.add(
                Notice(
                    .denseNetworkCapped, file: "stops.txt", field: "same_place_m", value: most.id,
                    message:
                        "\(capped) places have more than \(Self.maxLinksPerPlace) candidates to be one place with (\(most.id): \(most.count)); each keeps its nearest \(Self.maxLinksPerPlace).",
                    repair: "nearest \(Self.maxLinksPerPlace) kept"))
        }
        // Links as 20-byte records, their evidence by number: a hostile square's 4.4 M links
        // held as `PlaceLink`s were 1.7 GB (issue 41).
        var evidences = EvidenceTexts()
        // Room as the nearest lists give it (a link needs each place among the other's nearest),
        // not grown by doubling.
        var records: [LinkRecord] = []
        records.reserveCapacity(nearest.reduce(0) { $0 + $1.count } / 2)
        var direct: [[PlaceClosure.Direct]] = nearest.map { list in
            var links: [PlaceClosure.Direct] = []
            links.reserveCapacity(list.count)
            return links
        }
        for (i, a) in candidates.enumerated() {
            for j32 in nearest[i] {
                // Each pair once, from the smaller id, and only when each is among the other's
                // nearest (with no place capped, every pair within reach).
                let j = Int(j32)
                let b = candidates[j]
                guard a.id < b.id, Self.holds(nearest[j], i), let link = link(a, { name(i) }, b, { name(j) }) else { continue }
                let number = Int32(records.count)
                records.append(LinkRecord(i, j, distance: link.distance, confidence: link.confidence, evidence: evidences.number(link.evidence)))
                direct[i].append(PlaceClosure.Direct(other: j32, record: number))
                direct[j].append(PlaceClosure.Direct(other: Int32(i), record: number))
            }
        }
        nearest = []
        var found = PlaceClosure(settings: settings, candidates: candidates).links(&direct, records: records, evidences: &evidences)
        direct = []
        records = []
        applyOverrides(to: &found, candidates: candidates, evidences: &evidences, sink: sink, file: overridesFile)
        return PlaceLinks(ids: candidates.map(\.id), records: found, evidences: evidences.texts)
    }

    /// Whether the sorted `places` hold `place`.
    private static func holds(_ places: [Int32], _ place: Int) -> Bool {
        var (low, high) = (0, places.count)
        while low < high {
            let mid = (low + high) / 2
            if places[mid] < place { low = mid + 1 } else { high = mid }
        }
        return low < places.count && places[low] == place
    }

    /// The most places one place is linked to, and candidates it is compared with: on the 21-feed
    /// region the most candidates a place has is 25 (a Seattle light rail station, 2026-12-01), in
    /// New York's complexes fewer, so no real place is cut; a hostile square of thousands is.
    package static let maxLinksPerPlace = 48

    /// The most places within reach of one place that are compared with it, nearest first:
    /// however crowded a square, finding a place's candidates costs this many measurements, not
    /// the square's stops. On the 21-feed region the most places within 250 m of one is far
    /// fewer, so none is left out there.
    package static let maxExamined = 512

    /// What ``link(_:_:_:_:)`` refuses before it reads names: too far, or one source's stops
    /// that are not both rail, or another source's beyond the near distance where no rail calls.
    private func couldLink(_ a: PlaceCandidate, _ b: PlaceCandidate, distance: Double) -> Bool {
        guard distance <= max(settings.samePlaceDistance, settings.sameNameDistance) else { return false }
        if a.source == b.source { return distance <= settings.samePlaceDistance && a.guided && b.guided }
        return distance <= settings.samePlaceDistance || a.guided || b.guided
    }

    private func link(_ a: PlaceCandidate, _ aNamed: () -> PlaceNameKey, _ b: PlaceCandidate, _ bNamed: () -> PlaceNameKey) -> PlaceLink? {
        let distance = (a.point.distance(to: b.point) * 10).rounded() / 10
        // The cheap refusals first: most pairs are one source's bus stops a street apart.
        guard couldLink(a, b, distance: distance) else { return nil }
        let aName = aNamed(), bName = bNamed()
        let shared = aName.sharedDistinctive(bName)
        let similarity = aName.similarity(bName)
        var evidence = "\(Int(distance.rounded())) m"
        if !shared.isEmpty { evidence += ", names share " + shared.map { "`\($0)`" }.joined(separator: ", ") }
        if a.source == b.source {
            guard distance <= settings.samePlaceDistance, a.guided, b.guided, !aName.words.isEmpty, aName.words == bName.words else { return nil }
            evidence += ", same name, one source"
        } else if distance > settings.samePlaceDistance {
            // Farther than the near distance, by name: only where rail calls (two agencies' bus
            // stops on one street share its name a block apart).
            guard !shared.isEmpty, distance <= settings.sameNameDistance, a.guided || b.guided else { return nil }
        }
        if a.guided && b.guided { evidence += ", both rail" }
        let near = 1 - distance / max(settings.samePlaceDistance, settings.sameNameDistance)
        let confidence = min(1, 0.35 + 0.35 * near + 0.2 * similarity + (shared.isEmpty ? 0 : 0.1) + (a.guided && b.guided ? 0.1 : 0))
        let (first, second) = a.id < b.id ? (a.id, b.id) : (b.id, a.id)
        return PlaceLink(stop: first, other: second, distance: distance, confidence: (confidence * 1000).rounded() / 1000, evidence: evidence)
    }

    /// The overrides, in the file's order (a later one for the same pair wins): a `split`
    /// removes a link, a `join` makes one.
    private func applyOverrides(
        to found: inout [LinkRecord], candidates: [PlaceCandidate], evidences: inout EvidenceTexts, sink: NoticeSink, file: String
    ) {
        guard !settings.overrides.isEmpty else { return }
        var position: [String: Int] = [:]
        for (index, candidate) in candidates.enumerated() where position[candidate.id] == nil { position[candidate.id] = index }
        // Each pair's last word, by its places' positions (the smaller id first).
        var decided: [UInt64: LinkRecord?] = [:]
        func key(_ a: Int, _ b: Int) -> UInt64 { UInt64(UInt32(a)) << 32 | UInt64(UInt32(b)) }
        for override in settings.overrides {
            let unknown = [override.stop, override.other].filter { position[$0] == nil }
            guard unknown.isEmpty, let x = position[override.stop], let y = position[override.other] else {
                sink.add(
                    Notice(
                        .placeOverrideUnknownStop, file: file, line: override.line, field: "stop_id",
                        value: unknown.joined(separator: ", "),
                        message: "The override names a stop that is not a station or an ungrouped stop of the bundle.",
                        repair: "override ignored"))
                continue
            }
            let (first, second) = candidates[x].id < candidates[y].id ? (x, y) : (y, x)
            if override.join {
                let (a, b) = (candidates[first], candidates[second])
                let distance = (a.point.distance(to: b.point) * 10).rounded() / 10
                decided[key(first, second)] = LinkRecord(
                    first, second, distance: distance.isNaN ? 0 : distance, confidence: 1, evidence: evidences.number("override"))
            } else {
                decided[key(first, second)] = .some(nil)
            }
        }
        found.removeAll { decided[key(Int($0.first), Int($0.second))] != nil }
        for (_, record) in decided.sorted(by: { $0.key < $1.key }) { if let record { found.append(record) } }
    }
}
