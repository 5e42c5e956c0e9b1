import BundleFormat
import FeedSQLite
import Foundation

/// Why two bundles could not be compared.
public enum DiffError: Error, Sendable, CustomStringConvertible {
    /// A file is missing, not a bundle, or not readable.
    case unreadable(path: String, reason: String)

    /// The path and the reason, in one line.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): \(reason)"
        }
    }
}

/// Compares two bundle files (`.sqlite` or `.sqlite.gz`, any versions of one bundle) and says
/// what changed. Only bundles: a raw dump is compiled first (`FeedPipeline.DiffInput`).
public struct BundleDiffer: Sendable {
    /// The thresholds the comparison uses.
    public var settings: DiffSettings

    /// A differ with the given thresholds, the defaults unless told.
    public init(settings: DiffSettings = DiffSettings()) {
        self.settings = settings
    }

    /// The diff from `old` to `new`; the labels name the sides in the output.
    public func diff(old: URL, new: URL, oldLabel: String? = nil, newLabel: String? = nil) throws(DiffError) -> FeedDiff {
        do {
            let pair = try BundlePair(old: old, new: new)
            return try compare(pair, oldLabel: oldLabel ?? old.path, newLabel: newLabel ?? new.path)
        } catch let error as DiffError {
            throw error
        } catch let error as BundleFileError {
            guard case .unreadable(let path, let reason) = error else { throw .unreadable(path: old.path, reason: "\(error)") }
            throw .unreadable(path: path, reason: reason)
        } catch {
            throw .unreadable(path: "\(old.path), \(new.path)", reason: "\(error)")
        }
    }

    private func compare(_ pair: BundlePair, oldLabel: String, newLabel: String) throws -> FeedDiff {
        let oldData = try SideData(pair: pair, side: "o", settings: settings)
        let newData = try SideData(pair: pair, side: "n", settings: settings)
        var counts = try TableComparison.counts(pair)
        let identical = counts.values.allSatisfy(\.isZero)

        let stops = StopComparer(old: oldData, new: newData, settings: settings).compare()
        let lines = LineComparer(old: oldData, new: newData, renumberedStops: stops.renumbered).compare()
        let calendar = CalendarComparer(old: oldData.calendar, new: newData.calendar).compare()
        let translations = try TranslationComparer.compare(pair)
        let network = try NetworkComparer.compare(pair)

        // Churn is judged on ids as they are, before any renumbering is recognised.
        let churn = ["routes", "stops", "trips", "calendar", "shapes"].compactMap { kind -> IdChurn? in
            guard let c = counts[kind] else { return nil }
            let kept = c.old - c.removed, smaller = min(c.old, c.new)
            guard smaller >= 3, Double(kept) < settings.churnKeptShare * Double(smaller) else { return nil }
            return IdChurn(kind: kind, old: c.old, new: c.new, kept: kept)
        }
        for (kind, renumbered) in [("routes", lines.renumbered), ("stops", stops.renumbered.count)] {
            guard var c = counts[kind] else { continue }
            c.added -= renumbered
            c.removed -= renumbered
            c.renumbered = renumbered
            counts[kind] = c
        }

        let sides = try [(pair.oldFile, oldData, oldLabel), (pair.newFile, newData, newLabel)].map { file, data, label in
            DiffSide(
                label: label, bundle: data.meta["bundle"], version: data.meta["version"].flatMap(Int.init),
                digest: try ContentDigest.compute(file), serviceStart: data.meta["service_start"],
                serviceEnd: data.meta["service_end"], dayTypeDates: data.dayTypeDates)
        }
        let geometry = DiffGeometryBuilder(old: oldData, new: newData).build(lines.changes)
        // Same rows in every shared column is not enough: a column only one side has (a newer
        // schema) is a difference too, and the digests tell.
        return FeedDiff(
            identical: identical && sides[0].digest == sides[1].digest, old: sides[0], new: sides[1], counts: counts, idChurn: churn,
            lines: lines.changes, stops: stops.changes, calendar: calendar, settings: settings, geometry: geometry,
            translations: translations, network: network)
    }
}
