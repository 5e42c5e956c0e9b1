/// The service window before and after, and the dates that gained or lost service.
public struct CalendarChanges: Codable, Sendable, Equatable {
    /// First and last dates (`YYYY-MM-DD`) any trip runs, per side; nil when no trip ever runs.
    public var oldWindow: DateRange?
    /// The new side's first and last dates; nil when no trip ever runs.
    public var newWindow: DateRange?
    /// Dates with trips on the new side and none on the old one, as runs of consecutive dates.
    public var gained: [DateRange]
    /// Dates with trips on the old side and none on the new one.
    public var lost: [DateRange]
    /// Dates with trips on both sides, but a different number of them.
    public var changedDates: Int

    /// Calendar changes by their parts.
    public init(oldWindow: DateRange?, newWindow: DateRange?, gained: [DateRange], lost: [DateRange], changedDates: Int) {
        self.oldWindow = oldWindow
        self.newWindow = newWindow
        self.gained = gained
        self.lost = lost
        self.changedDates = changedDates
    }

    enum CodingKeys: String, CodingKey {
        case gained, lost
        case oldWindow = "old_window"
        case newWindow = "new_window"
        case changedDates = "changed_dates"
    }

    /// True when the window and every date's trips are the same.
    public var isEmpty: Bool { oldWindow == newWindow && gained.isEmpty && lost.isEmpty && changedDates == 0 }
}

/// A run of dates, `YYYY-MM-DD`, both ends included.
public struct DateRange: Codable, Sendable, Equatable {
    /// The run's first date, `YYYY-MM-DD`.
    public var first: String
    /// The run's last date, `YYYY-MM-DD`.
    public var last: String
    /// Dates of the run that count: with service (a window), or that gained or lost it.
    public var dates: Int

    /// A run from `first` to `last` counting `dates`.
    public init(first: String, last: String, dates: Int) {
        self.first = first
        self.last = last
        self.dates = dates
    }

    /// "2019-07-01 … 2019-09-30 (79 dates)", or one date.
    public var label: String { first == last ? first : "\(first) … \(last) (\(dates) dates)" }
}

/// What the HTML map draws: the changed lines' stop sequences and, for context, the new side's
/// stops. Not part of the JSON.
public struct DiffGeometry: Sendable, Equatable {
    /// How a drawn line differs: on the new side only, the old side only, or both.
    public enum Status: String, Sendable { case added, removed, changed }

    /// One changed line, as the map draws it.
    public struct Line: Sendable, Equatable {
        /// The line's label, for the legend.
        public var label: String
        /// Added, removed or changed: its colour on the map.
        public var status: Status
        /// `#RRGGBB` or nil.
        public var color: String?
        /// One polyline per direction, as `[lat, lon]` points along its ordered stops.
        public var paths: [[[Double]]]
    }

    /// The changed lines.
    public var lines: [Line] = []
    /// Positions of the new side's stops (at most a few thousand), drawn faintly.
    public var contextStops: [[Double]] = []

    /// Nothing to draw.
    public init() {}
}
