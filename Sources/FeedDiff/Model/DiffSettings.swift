/// Thresholds of the comparison; written into the JSON so a reader knows what "moved" meant.
public struct DiffSettings: Codable, Sendable, Equatable {
    /// A stop is "moved" when its position changed by more than this, in metres; a stop whose id
    /// changed is "renumbered" when one of the same name lies within it.
    public var samePlaceMetres: Double = 25
    /// A kind's ids are "churned" when fewer than this share of the smaller side's ids are kept.
    public var churnKeptShare: Double = 0.5
    /// Days from the first date of full service (at least half the busiest date's trips)
    /// searched for each day type's representative date.
    public var representativeWindowDays: Int = 28
    /// Dates later than this many days after a side's first date of service are not compared
    /// (calendars running to 2099 would otherwise "gain" decades).
    public var calendarHorizonDays: Int = 1830

    /// Thresholds, the defaults unless told.
    public init(
        samePlaceMetres: Double = 25, churnKeptShare: Double = 0.5, representativeWindowDays: Int = 28,
        calendarHorizonDays: Int = 1830
    ) {
        self.samePlaceMetres = samePlaceMetres
        self.churnKeptShare = churnKeptShare
        self.representativeWindowDays = representativeWindowDays
        self.calendarHorizonDays = calendarHorizonDays
    }

    enum CodingKeys: String, CodingKey {
        case samePlaceMetres = "same_place_m"
        case churnKeptShare = "churn_kept_share"
        case representativeWindowDays = "representative_window_days"
        case calendarHorizonDays = "calendar_horizon_days"
    }
}
