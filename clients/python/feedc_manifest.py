"""manifest.json of the feedc update protocol (docs/update-protocol.md): parsed strictly, so
that every field the client uses is present, of its type and within its limits.

Refused (the manifest is unusable): a body that is not UTF-8 JSON, a key repeated in an object
(two parsers could read two different manifests), integers that are not JSON integers in
0 ... 2^53 - 1, checksums that are not lowercase hex, and an `unpacked_bytes` beyond the limits.
A version's optional `encodings` (docs/packed-bundle.md) never makes it unusable: `chosen_encoding`
skips an entry it does not know or whose fields are not valid.
"""
import json
import re

from feedc_limits import (BUNDLE_UNPACKED_MAX, DELTA_UNPACKED_MAX, MAX_INTEGER, PACKED_UNPACKED_MAX, RATIO_MAX,
                          UpdateError)

_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}\Z")
_VERSION_FIELDS = "version:int digest:digest file:str bytes:int sha256:hex"
_DELTA_FIELDS = "from:int to:int file:str bytes:int sha256:hex"
_ENCODING_FIELDS = "encoding:str file:str bytes:int sha256:hex unpacked_bytes:int"
KNOWN_ENCODINGS = ("packed-gzip",)


def _unusable(message):
    return UpdateError("unusable manifest: " + message)


def _object(pairs):
    """object_pairs_hook: a dict, refusing a key that occurs twice."""
    result = {}
    for key, value in pairs:
        if key in result:
            raise ValueError("the key `%s` occurs twice in one object" % key)
        result[key] = value
    return result


def _is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INTEGER


_CHECKS = {
    "int": (_is_integer, "an integer in 0 ... 2^53 - 1"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "hex": (lambda v: isinstance(v, str) and _HEX64.match(v) is not None, "64 lowercase hex digits"),
    "digest": (lambda v: isinstance(v, str) and _DIGEST.match(v) is not None, "`sha256:` and 64 lowercase hex digits"),
}


def _require(entry, fields, where):
    if not isinstance(entry, dict):
        raise _unusable("%s is not an object" % where)
    for field in fields.split():
        name, kind = field.split(":")
        check, wanted = _CHECKS[kind]
        if not check(entry.get(name)):
            raise _unusable("%s: `%s` missing or not %s" % (where, name, wanted))


def _require_unpacked(entry, where, hard_max):
    """The optional `unpacked_bytes`: an integer, at most RATIO_MAX x `bytes` and `hard_max`."""
    if "unpacked_bytes" not in entry:
        return
    unpacked = entry["unpacked_bytes"]
    if not _is_integer(unpacked):
        raise _unusable("%s: `unpacked_bytes` is not an integer in 0 ... 2^53 - 1" % where)
    if unpacked > RATIO_MAX * entry["bytes"] or unpacked > hard_max:
        raise _unusable("%s: `unpacked_bytes` %d is more than %d x `bytes` or %d"
                        % (where, unpacked, RATIO_MAX, hard_max))


def parse_manifest(body):
    """The manifest (bytes) as a dict, its fields checked; UpdateError when unusable."""
    try:
        manifest = json.loads(body.decode("utf-8"), object_pairs_hook=_object)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise _unusable(str(error) or type(error).__name__) from None
    _require(manifest, "format:int bundle:str", "manifest")
    _require(manifest.get("latest"), _VERSION_FIELDS, "latest")
    _require_unpacked(manifest["latest"], "latest", BUNDLE_UNPACKED_MAX)
    if not isinstance(manifest.get("versions"), list) or not isinstance(manifest.get("deltas"), list):
        raise _unusable("`versions` or `deltas` missing")
    for entry in manifest["versions"]:
        _require(entry, _VERSION_FIELDS, "versions")
        _require_unpacked(entry, "versions", BUNDLE_UNPACKED_MAX)
    for entry in manifest["deltas"]:
        _require(entry, _DELTA_FIELDS, "deltas")
        _require_unpacked(entry, "deltas", DELTA_UNPACKED_MAX)
    return manifest


def chosen_encoding(version, known=KNOWN_ENCODINGS):
    """The first entry of the version's `encodings` whose `encoding` is `known` and whose fields
    are valid (`file`, `bytes`, `sha256` and the required `unpacked_bytes` as for a version), or
    None: then the version's own `file`, the plain bundle (docs/packed-bundle.md). None too when
    the version lacks the plain bundle's `unpacked_bytes`: the install is always capped by it. An
    entry unpacking to more than PACKED_UNPACKED_MAX is passed over: this client reads a packed
    table's blob whole, and takes the plain bundle of a larger one."""
    if not _is_integer(version.get("unpacked_bytes")):
        return None
    entries = version.get("encodings")
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, dict) or not isinstance(entry.get("encoding"), str) or entry["encoding"] not in known:
            continue
        try:
            _require(entry, _ENCODING_FIELDS, "encodings")
            _require_unpacked(entry, "encodings", PACKED_UNPACKED_MAX)
        except UpdateError:
            continue
        return entry
    return None
