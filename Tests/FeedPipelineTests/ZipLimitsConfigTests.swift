import FeedPipeline
import FeedSources
import Foundation
import TestSupport
import Testing

/// `zip_limits:` sets a bundle's per-member size cap and compression-ratio bound; bad values are
/// config errors.
@Suite struct ZipLimitsConfigTests {
    private func parse(_ limits: String) throws(ConfigError) -> PipelineConfig {
        try PipelineConfigParser().parse(
            "bundles:\n  - name: b\n\(limits)    sources:\n      - id: m\n        path: Samples/metro\n",
            file: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"))
    }

    @Test func limitsAreReadAndDefaultWhenAbsent() throws {
        #expect(try parse("").bundles[0].archiveLimits == .standard)
        let limits = try parse("    zip_limits:\n      max_entry_size_mb: 8192\n      max_compression_ratio: 50\n").bundles[0].archiveLimits
        #expect(limits.maxEntryBytes == 8192 << 20)
        #expect(limits.maxRatio == 50)
    }

    @Test func badLimitsAreConfigErrors() {
        #expect(throws: ConfigError.self) { try parse("    zip_limits:\n      max_compression_ratio: 0.5\n") }
        #expect(throws: ConfigError.self) { try parse("    zip_limits:\n      max_entry_size_mb: 0\n") }
        #expect(throws: ConfigError.self) { try parse("    zip_limits:\n      max_ratio: 10\n") }
    }
}
