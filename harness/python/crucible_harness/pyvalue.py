"""PyValue: tagged JSON for Python values crossing a trust boundary (contract: src/verdict/pyvalue.ts).

`encode` runs in the candidate process C on values the candidate produced: it reads plain builtin values by
EXACT type (`type(x) is int`), never through methods the candidate could override, and turns anything else
into an opaque tag. `decode` runs in the tester T, in C (arguments) and in the zygote (validation): it builds
fresh builtin objects only, from strictly checked JSON, under depth and size caps.
"""
import base64
import builtins
import collections
import json
import math

MAX_DEPTH = 100
MAX_NODES = 5_000_000
MAX_INT_DIGITS = 50_000
REPR_CHARS = 200

# Captured at import (before any candidate code runs in this process) so later monkey-patching of the
# names cannot change what counts as a plain value.
_int, _float, _bool, _str, _bytes, _complex = int, float, bool, str, bytes, complex
_list, _tuple, _set, _frozenset, _dict = list, tuple, set, frozenset, dict
_type, _repr, _len = type, repr, len
_dict_items = dict.items
_list_iter, _tuple_iter = list.__iter__, tuple.__iter__
_set_iter, _fset_iter = set.__iter__, frozenset.__iter__
_int_repr, _float_repr = int.__repr__, float.__repr__
_int_hex, _int_bits = int.__index__, int.bit_length
# Ints beyond this many bits travel in hexadecimal ("0x..."/"-0x..."): converting to and from hex is linear
# time, decimal is quadratic (a 10**6-digit int takes seconds), see CPython's int_max_str_digits notes.
HEX_ABOVE_BITS = 4096
MAX_HEX_CHARS = 2_000_000


def _int_payload(x):
    if _int_bits(x) > HEX_ABOVE_BITS:
        return hex(_int_hex(x))
    return _int_repr(x)
# dict subclasses from the standard library whose equality with a plain dict is the plain dict's (their
# contents are read through dict.items, not through any method the candidate could rebind).
_DICT_LIKE = (collections.OrderedDict, collections.defaultdict, collections.Counter)


class TooLarge(Exception):
    pass


class DecodeError(Exception):
    pass


def _opaque(value, what=None):
    name = what
    if name is None:
        try:
            t = _type(value)
            name = f"{t.__module__}.{t.__qualname__}"
            if not isinstance(name, _str):
                name = "object"
        except BaseException:
            name = "object"
    try:
        r = _repr(value)
        if _type(r) is not _str:
            r = "<repr is not a str>"
    except BaseException:
        r = "<repr failed>"
    return {"o": name[:REPR_CHARS], "r": r[:REPR_CHARS]}


def _float_payload(x):
    if x != x:
        return "nan"
    if x == math.inf:
        return "inf"
    if x == -math.inf:
        return "-inf"
    return x


def encode(value):
    """Python value -> PyValue JSON structure. Values past the caps become one opaque tag."""
    budget = [MAX_NODES]

    def enc(x, depth):
        budget[0] -= 1
        if budget[0] < 0 or depth > MAX_DEPTH:
            raise TooLarge()
        t = _type(x)
        if x is None or t is _bool or t is _str:
            return x
        if t is _int:
            return {"i": _int_payload(x)}
        if t is _float:
            return {"f": _float_payload(x)}
        if t is _complex:
            return {"c": [_float_payload(x.real), _float_payload(x.imag)]}
        if t is _list:
            return {"l": [enc(v, depth + 1) for v in _list_iter(x)]}
        if t is _tuple:
            return {"t": [enc(v, depth + 1) for v in _tuple_iter(x)]}
        if t is _set:
            return {"s": [enc(v, depth + 1) for v in _set_iter(x)]}
        if t is _frozenset:
            return {"fs": [enc(v, depth + 1) for v in _fset_iter(x)]}
        if t is _dict or t in _DICT_LIKE:
            return {"d": [[enc(k, depth + 1), enc(v, depth + 1)] for k, v in _dict_items(x)]}
        if t is _bytes:
            return {"b": base64.b64encode(x).decode("ascii")}
        return _opaque(x)

    try:
        return enc(value, 0)
    except TooLarge:
        return {"o": "crucible.TooLarge", "r": "value exceeds the transfer limits (depth or size)"}
    except RecursionError:
        return {"o": "crucible.TooLarge", "r": "value exceeds the transfer limits (recursion)"}


def dumps(obj):
    """Strict JSON text: no NaN/Infinity literals (they travel as tags). One encoder for every call (what
    json.dumps(obj, allow_nan=False, separators=(",", ":")) would build anew each time)."""
    return _ENCODER.encode(obj)


_ENCODER = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


def _reject_constant(name):
    raise DecodeError(f"non-standard JSON constant {name}")


# One decoder for every parse: json.loads with a keyword argument builds a new JSONDecoder (and its scanner) per
# call, which on a candidate's short life was a measurable share of its CPU and copy-on-write faults.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def loads(text):
    """Strict JSON parse (rejects NaN/Infinity literals) of a str, or of bytes in a JSON encoding (as json.loads
    detects it: RFC 8259 / json.detect_encoding). Raises DecodeError."""
    try:
        if isinstance(text, (bytes, bytearray)):
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        return _DECODER.decode(text)
    except DecodeError:
        raise
    except (ValueError, RecursionError) as e:
        raise DecodeError(f"malformed JSON: {str(e)[:100]}") from None


class OpaqueValueUsed(BaseException):
    """Raised when test code inspects a value the candidate returned that could not cross the boundary.

    A BaseException so that `except Exception` in test code cannot swallow it."""


def _refuse(self, *args, **kwargs):
    raise OpaqueValueUsed(f"the candidate returned a non-plain object ({self._kind}); it cannot be compared")


class Opaque:
    """Stands for a candidate object that is not plain data: equal to nothing, and any inspection fails."""

    __slots__ = ("_kind", "_repr")

    def __init__(self, kind, rep):
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_repr", rep)

    def __repr__(self):
        return f"<opaque {self._kind}: {self._repr}>"

    __str__ = __repr__
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __bool__ = __len__ = __iter__ = __contains__ = __getitem__ = __hash__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _refuse
    __floordiv__ = __mod__ = __neg__ = __abs__ = __float__ = __int__ = __index__ = __round__ = _refuse


def _float_from(p):
    if _type(p) is _str:
        if p == "nan":
            return math.nan
        if p == "inf":
            return math.inf
        if p == "-inf":
            return -math.inf
        raise DecodeError("bad float payload")
    if _type(p) is _int or _type(p) is _float:
        if _type(p) is _int and _len(_int_repr(p)) > 400:
            raise DecodeError("float payload too large")
        return _float(p)
    raise DecodeError("bad float payload")


def decode(obj, allow_opaque=True):
    """PyValue JSON structure -> fresh builtin Python value. Raises DecodeError on anything malformed."""
    budget = [MAX_NODES]

    def seq(v, depth):
        if _type(v) is not _list:
            raise DecodeError("expected a JSON array")
        return [dec(e, depth + 1) for e in v]

    def dec(v, depth):
        budget[0] -= 1
        if budget[0] < 0 or depth > MAX_DEPTH:
            raise DecodeError("value exceeds the transfer limits (depth or size)")
        t = _type(v)
        if v is None or t is _bool or t is _str:
            return v
        if t is not _dict or _len(v) == 0:
            raise DecodeError(f"unexpected JSON {t.__name__}")
        if _len(v) == 2 and "o" in v and "r" in v:
            if not allow_opaque or _type(v["o"]) is not _str or _type(v["r"]) is not _str:
                raise DecodeError("unexpected opaque value")
            return Opaque(v["o"][:REPR_CHARS], v["r"][:REPR_CHARS])
        if _len(v) != 1:
            raise DecodeError("a tagged value has exactly one key")
        (tag, p), = v.items()
        if tag == "i":
            if _type(p) is _str and ("0x" in p[:3]):
                body = p[3:] if p[0] == "-" else p[2:]
                if not (0 < _len(body) <= MAX_HEX_CHARS) or not body.isascii() or \
                        _len(body.strip("0123456789abcdef")) != 0:
                    raise DecodeError("bad int payload")
                return _int(p, 16)
            if _type(p) is not _str or not (0 < _len(p) <= MAX_INT_DIGITS + 1):
                raise DecodeError("bad int payload")
            digits = p[1:] if p[0] == "-" else p
            if not digits or not digits.isascii() or not digits.isdigit():
                raise DecodeError("bad int payload")
            return _int(p)
        if tag == "f":
            return _float_from(p)
        if tag == "c":
            if _type(p) is not _list or _len(p) != 2:
                raise DecodeError("bad complex payload")
            return _complex(_float_from(p[0]), _float_from(p[1]))
        if tag == "l":
            return seq(p, depth)
        if tag == "t":
            return _tuple(seq(p, depth))
        if tag == "s" or tag == "fs":
            items = seq(p, depth)
            try:
                return _set(items) if tag == "s" else _frozenset(items)
            except TypeError:
                raise DecodeError("unhashable set element") from None
        if tag == "d":
            if _type(p) is not _list:
                raise DecodeError("bad dict payload")
            out = {}
            for pair in p:
                if _type(pair) is not _list or _len(pair) != 2:
                    raise DecodeError("bad dict entry")
                k = dec(pair[0], depth + 1)
                try:
                    out[k] = dec(pair[1], depth + 1)
                except TypeError:
                    raise DecodeError("unhashable dict key") from None
            return out
        if tag == "b":
            if _type(p) is not _str:
                raise DecodeError("bad bytes payload")
            try:
                return base64.b64decode(p.encode("ascii"), validate=True)
            except (ValueError, UnicodeEncodeError):
                raise DecodeError("bad bytes payload") from None
        raise DecodeError("unknown tag")

    try:
        return dec(obj, 0)
    except RecursionError:
        raise DecodeError("value nested too deeply") from None
    except OpaqueValueUsed:
        # an Opaque used as a set element / dict key
        raise DecodeError("opaque value used as a set element or dict key") from None
