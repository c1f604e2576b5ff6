"""JSON text as ``json.dumps(obj, ensure_ascii=False, indent=2)`` writes it, made faster.

With ``indent`` set, the standard library does not use its C encoder: it walks the document with
a pure-Python generator that yields every bracket, separator and value as a piece of its own,
and ``check --format json`` spent more time there than in the report itself (issue 34: JSON
output was 1.3 times slower than text). :func:`dumps` writes the same text from a walk that
joins whole containers at once; strings are escaped by the standard library's C function
(``json.encoder.encode_basestring``, what ``ensure_ascii=False`` uses) and numbers are written
as ``int.__repr__`` and ``float.__repr__`` write them, as ``json`` does.

Only the plain types are written here (``dict`` with ``str`` keys, ``list``, ``tuple``,
``str``, ``int``, finite ``float``, ``bool``, ``None``, exactly these classes); anything else
(a subclass, another key type, NaN or an infinity, a document nested deeper than
:data:`_DEPTH`) makes :func:`dumps` hand the whole document to ``json.dumps``, so the text is
the same in every case. ``tests/test_json_text.py`` compares the two on made and on
hypothesis-drawn documents.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

_DEPTH = 200  # deeper documents go to json.dumps (no recursion limit reached here)
_INF = float("inf")


class _Unusual(Exception):
    """A value this writer leaves to ``json.dumps``."""


_WORDS = {True: "true", False: "false", None: "null"}  # ``True == 1``: looked up by identity


def _value(v: Any, indent: str, depth: int) -> str:
    """The text of one value inside a container (the common leaves without a call)."""
    t = type(v)
    if t is str:
        return encode_basestring(v)
    if t is int:
        return int.__repr__(v)
    if v is None or t is bool:
        return _WORDS[v]
    return _write(v, indent, depth)


def _write(obj: Any, indent: str, depth: int) -> str:
    t = type(obj)
    if t is dict:
        if not obj:
            return "{}"
        if depth >= _DEPTH:
            raise _Unusual
        inner = indent + "  "
        parts: list[str] = []
        append = parts.append
        for k, v in obj.items():
            if type(k) is not str:
                raise _Unusual  # json.dumps turns other keys into text: left to it
            tv = type(v)
            if tv is str:
                append(encode_basestring(k) + ": " + encode_basestring(v))
            elif tv is int:
                append(encode_basestring(k) + ": " + int.__repr__(v))
            elif v is None or tv is bool:
                append(encode_basestring(k) + ": " + _WORDS[v])
            else:
                append(encode_basestring(k) + ": " + _write(v, inner, depth + 1))
        return "{\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + "}"
    if t is list or t is tuple:
        if not obj:
            return "[]"
        if depth >= _DEPTH:
            raise _Unusual
        inner = indent + "  "
        items = [_value(v, inner, depth + 1) for v in obj]
        return "[\n" + inner + (",\n" + inner).join(items) + "\n" + indent + "]"
    if t is str:
        return encode_basestring(obj)
    if t is int:
        return int.__repr__(obj)
    if obj is None or t is bool:
        return _WORDS[obj]
    if t is float:
        if obj != obj or obj == _INF or obj == -_INF:
            raise _Unusual
        return float.__repr__(obj)
    raise _Unusual


def dumps(obj: Any, prefix: str = "") -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2)``, every line after the first indented
    by ``prefix`` as well (``check`` writes each game inside its document's list)."""
    try:
        return _write(obj, prefix, 0)
    except _Unusual:
        text = json.dumps(obj, ensure_ascii=False, indent=2)
        return text.replace("\n", "\n" + prefix) if prefix else text
