import FeedModel

extension CivilDate {
    static func dayType(_ day: Int) -> DayType {
        switch weekday(day) {
        case 5: .saturday
        case 6: .sunday
        default: .weekday
        }
    }
}
