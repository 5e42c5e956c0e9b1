"""Ed25519 signature verification (RFC 8032) in pure Python, standard library only.

Python's standard library has no Ed25519, so the feedc client verifies signed manifests with this
small implementation of the RFC's verification: the public key and R are points on edwards25519,
S must be below the group order L, and the signature is valid when the encoding of
[S]B - [k]A equals R, with k = SHA-512(R || A || message) mod L. That is the check BoringSSL (and
so swift-crypto, which the Swift client uses) makes, encoding against encoding.

Verification only: no secret ever passes through this code, so its running time, which depends on
the public inputs, leaks nothing. About 5 ms a signature.
"""
import hashlib

_P = 2 ** 255 - 19
_L = 2 ** 252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _add(a, b):
    """Sum of two points in extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    e1 = (y1 - x1) * (y2 - x2) % _P
    e2 = (y1 + x1) * (y2 + x2) % _P
    c = 2 * t1 * t2 * _D % _P
    d = 2 * z1 * z2 % _P
    e, f, g, h = e2 - e1, d - c, d + c, e2 + e1
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _multiply(scalar, point):
    result = (0, 1, 1, 0)
    while scalar > 0:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _decode(encoded):
    """The point a 32-byte encoding names, or None when it names none."""
    if len(encoded) != 32:
        return None
    y = int.from_bytes(encoded, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    if x2 == 0:
        if sign:
            return None
        return (0, y, 1, 0)
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P != 0:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P != 0:
        return None
    if (x & 1) != sign:
        x = _P - x
    return (x, y, 1, x * y % _P)


def _encode(point):
    x, y, z, _ = point
    inverse = pow(z, _P - 2, _P)
    x, y = x * inverse % _P, y * inverse % _P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


_BASE = _decode((4 * pow(5, _P - 2, _P) % _P).to_bytes(32, "little"))


def verify(public_key, message, signature):
    """Whether `signature` (64 bytes) is the signature of `message` (bytes) by `public_key`
    (32 bytes)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a = _decode(public_key)
    if a is None:
        return False
    r, s = signature[:32], int.from_bytes(signature[32:], "little")
    if s >= _L:
        return False
    k = int.from_bytes(hashlib.sha512(r + public_key + message).digest(), "little") % _L
    minus_a = ((_P - a[0]) % _P, a[1], a[2], (_P - a[3]) % _P)
    return _encode(_add(_multiply(s, _BASE), _multiply(k, minus_a))) == r
