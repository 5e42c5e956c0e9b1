import FeedModel

/// fare_products.txt, checked though bundles do not hold fares, as MobilityData's
/// `FareProductDefaultRiderCategoriesValidator`: a fare product's rows may name at most one rider
/// category marked `is_default_fare_category` 1
/// (`fare_product_with_multiple_default_rider_categories`, error, one per fare product, on the
/// row of its second default category). Reported only.
struct FareProductRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let products = feed["fare_products"], categories = feed["rider_categories"]
        guard products.isPresent, categories.isPresent, !products.isEmpty else { return }
        var defaults = Set<String>()
        for case let (id?, flag) in zip(categories.texts(.riderCategoryId), categories.integers(.isDefaultFareCategory)) where flag == 1 {
            defaults.insert(id)
        }
        guard !defaults.isEmpty else { return }
        let ids = products.texts(.fareProductId), riders = products.texts(.riderCategoryId)
        /// Each product's default categories, in order of first row, with the row of each.
        var found: [String: [(category: String, row: Int)]] = [:]
        var order: [String] = []
        for row in 0..<products.count {
            guard let id = ids[row], let rider = riders[row], defaults.contains(rider) else { continue }
            if found[id] == nil { order.append(id) }
            if found[id, default: []].contains(where: { $0.category == rider }) { continue }
            found[id, default: []].append((rider, row))
        }
        for id in order {
            guard let list = found[id], list.count > 1 else { continue }
            sink.add(.fareProductWithMultipleDefaultRiderCategories) {
                Notice(
                    .fareProductWithMultipleDefaultRiderCategories, file: "fare_products.txt",
                    line: Int(products.lines[list[1].row]), field: "rider_category_id", value: id,
                    message: "The fare product has default rider categories \(list[0].category) (line \(products.lines[list[0].row])) and \(list[1].category).")
            }
        }
    }
}
