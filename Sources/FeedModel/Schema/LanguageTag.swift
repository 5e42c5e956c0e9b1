/// IETF BCP 47 language tags, as translations.txt names its languages: checked for form and for
/// a known language, folded to lower case for the bundle.
///
/// A tag is a primary language subtag (two letters, an ISO 639-1 code; or three, ISO 639-2/3,
/// which cannot all be listed here and are accepted by form) followed by subtags of one to eight
/// letters or digits separated by `-` (script `Hant`, region `BR` or `419`, variants,
/// extensions, private use `x-…`). `en`, `pt-BR`, `zh-Hant-TW`, `sgn-BE-FR` are tags; `english`,
/// `fr_CA`, `xx` and `e` are not.
package enum LanguageTag {
    /// Whether `tag` is a well-formed tag with a known two-letter language, or a three-letter one.
    package static func isValid(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, first.utf8.allSatisfy(isLetter) else { return false }
        switch first.count {
        case 2: guard iso639_1.contains(first.lowercased()) else { return false }
        case 3: break
        default: return false
        }
        return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.utf8.allSatisfy { isLetter($0) || (48...57).contains($0) } }
    }

    /// The tag as bundles store it and apps pass it: lower case (`pt-br`).
    package static func folded(_ tag: String) -> String { tag.lowercased() }

    private static func isLetter(_ c: UInt8) -> Bool { (65...90).contains(c) || (97...122).contains(c) }

    /// ISO 639-1: every two-letter language code.
    static let iso639_1: Set<String> = Set(
        """
        aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en
        eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja
        jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb
        nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq
        sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
}
