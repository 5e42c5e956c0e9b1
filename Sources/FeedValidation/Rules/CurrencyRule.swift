import FeedModel

/// Currencies of the fare files, checked though bundles do not hold fares, as MobilityData's
/// parser and its generated `@CurrencyAmount` check (errors, one per value). Reported only.
///
/// - `invalid_currency`: `fare_attributes.currency_type` or `fare_products.currency` is not an
///   ISO 4217 code Java's `Currency.getInstance` knows (upper case, active or recently withdrawn).
/// - `invalid_float`: `fare_products.amount` is not a decimal number (read as text so that its
///   decimals are kept).
/// - `invalid_currency_amount`: the amount's decimals (its BigDecimal scale: `2.5` has one,
///   `2.50` two, `25E1` minus one) are not the currency's minor-unit digits (2 for USD and EUR, 0
///   for JPY, 3 for KWD; a code without minor unit such as XAU fits no amount).
struct CurrencyRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let attributes = feed["fare_attributes"]
        if attributes.isPresent {
            for (row, code) in attributes.texts(.currencyType).enumerated() {
                guard let code, Self.digits(code) == nil else { continue }
                invalidCurrency(attributes, row, "currency_type", code, sink)
            }
        }
        let products = feed["fare_products"]
        guard products.isPresent else { return }
        let amounts = products.texts(.amount)
        for (row, code) in products.texts(.currency).enumerated() {
            let digits = code.flatMap(Self.digits)
            if let code, digits == nil { invalidCurrency(products, row, "currency", code, sink) }
            guard let amount = amounts[row] else { continue }
            guard let scale = Self.scale(amount) else {
                sink.add(.invalidFloat) {
                    Notice(
                        .invalidFloat, file: "fare_products.txt", line: Int(products.lines[row]),
                        field: "amount", value: amount, message: "The value is not a valid decimal number.")
                }
                continue
            }
            guard let code, let digits, scale != digits else { continue }
            sink.add(.invalidCurrencyAmount) {
                Notice(
                    .invalidCurrencyAmount, file: "fare_products.txt", line: Int(products.lines[row]),
                    field: "amount", value: amount,
                    message: digits < 0
                        ? "\(code) has no minor unit: no amount fits it."
                        : "An amount in \(code) has \(digits) decimals; this one has \(scale).")
            }
        }
    }

    private func invalidCurrency(_ table: Table, _ row: Int, _ field: String, _ code: String, _ sink: NoticeSink) {
        sink.add(.invalidCurrency) {
            Notice(
                .invalidCurrency, file: table.schema.fileName, line: Int(table.lines[row]),
                field: field, value: code, message: "The value is not an ISO 4217 currency code.")
        }
    }

    /// The scale of a decimal as Java's `new BigDecimal(text)` reads it (digits after the point
    /// minus the exponent), or nil when it is not one.
    static func scale(_ text: String) -> Int? {
        var mantissa = Substring(text), exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let value = Int(text[text.index(after: e)...]) else { return nil }
            mantissa = text[..<e]
            exponent = value
        }
        if mantissa.first == "+" || mantissa.first == "-" { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.joined().count > 0, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
        return (parts.count == 2 ? parts[1].count : 0) - exponent
    }

    /// The minor-unit digits of an ISO 4217 code (-1 for codes without one), nil for an unknown code.
    static func digits(_ code: String) -> Int? {
        guard code.utf8.count == 3 else { return nil }
        if let known = exceptions[code] { return known }
        return twoDigits.contains(code) ? 2 : nil
    }

    /// Java's codes whose minor unit is not 2 decimals.
    static let exceptions: [String: Int] = {
        var map: [String: Int] = [:]
        for code in "ADP BEF BIF BYR CLP DJF ESP GNF GRD ISK ITL JPY KMF KRW LUF MGF PTE PYG RWF TPE TRL UGX UYI VND VUV XAF XOF XPF".split(separator: " ") {
            map[String(code)] = 0
        }
        for code in "BHD IQD JOD KWD LYD OMR TND".split(separator: " ") { map[String(code)] = 3 }
        for code in "CLF UYW".split(separator: " ") { map[String(code)] = 4 }
        for code in "XAG XAU XBA XBB XBC XBD XDR XPD XPT XSU XTS XUA XXX".split(separator: " ") { map[String(code)] = -1 }
        return map
    }()

    /// Java's other codes, of 2 decimals: ISO 4217's active codes and those withdrawn since 1999.
    static let twoDigits: Set<String> = Set(
        """
        AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD \
        CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL \
        GHS GIP GMD GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR \
        LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB \
        PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP \
        SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL \
        AFA ATS AYM AZM BGL BYB CSD CYP DEM EEK FIM FRF GHC GWP IEP LTL LVL MRO MTL MZM NLG ROL RUR SDD \
        SIT SKK SRG STD TMM VEB VEF XFO XFU YUM ZMK ZWD ZWN ZWR
        """.split(separator: " ").map(String.init))
}
