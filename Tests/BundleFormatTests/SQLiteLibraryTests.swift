import FeedSQLite
import Testing

/// Process-wide SQLite settings take effect only before SQLite's first use (the compiler applies
/// them first thing); later they are refused and change nothing.
@Suite struct SQLiteLibraryTests {
    @Test func aSettingAfterFirstUseIsRefusedAndSQLiteStillWorks() throws {
        let inUse = try Database(path: ":memory:", mode: .create)  // SQLite is initialised from here on
        #expect(SQLiteLibrary.turnOffMemoryStatistics() == false)
        #expect(try inUse.rows("SELECT 1 + 1") == [[.integer(2)]])
    }
}
