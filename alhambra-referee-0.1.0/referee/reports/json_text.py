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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_DEPTH = 200  # deeper documents go to json.dumps (no recursion limit reached here)
_INF = float("inf")


class _Unusual(Exception):
    """A value this writer leaves to ``json.dumps``."""


_WORDS = {True: "true", False: "false", None: "null"}  # ``True == 1``: looked up by identity


class _Keys(dict[str, str]):
    """``"key": `` of every key written, worked out on first use (bounded): a document holds
    the same few keys again and again. A key that is not exactly a ``str`` is left to
    ``json.dumps`` (a subclass of ``str`` equal to a key kept here is written as that key's
    text, which is what ``json.dumps`` writes for it)."""

    def __missing__(self, key: str) -> str:
        if type(key) is not str:
            raise _Unusual  # json.dumps turns other keys into text: left to it
        if len(self) >= 4096:
            self.clear()
        text = self[key] = encode_basestring(key) + ": "
        return text


_KEYS = _Keys()


class _Frames(dict[str, tuple[str, str, str, str, str, str]]):
    """Per indent of a container: the indent of its items, the opening of a dict, the
    separator of items, the closing of a dict, the opening and the closing of a list."""

    def __missing__(self, indent: str) -> tuple[str, str, str, str, str, str]:
        if len(self) >= 256:
            self.clear()
        inner = indent + "  "
        frame = self[indent] = (
            inner,
            "{\n" + inner,
            ",\n" + inner,
            "\n" + indent + "}",
            "[\n" + inner,
            "\n" + indent + "]",
        )
        return frame


_FRAMES = _Frames()


def _write(obj: Any, indent: str, depth: int) -> str:
    t = type(obj)
    if t is dict:
        if not obj:
            return "{}"
        if depth >= _DEPTH:
            raise _Unusual
        inner, opening, sep, closing, _, _ = _FRAMES[indent]
        parts: list[str] = []
        append = parts.append
        keys = _KEYS  # '"key": ', a key not exactly a str raising _Unusual
        for k, v in obj.items():
            tv = type(v)
            if tv is str:
                append(keys[k] + encode_basestring(v))
            elif tv is int:
                append(keys[k] + int.__repr__(v))
            elif v is None or tv is bool:
                append(keys[k] + _WORDS[v])
            else:
                append(keys[k] + _write(v, inner, depth + 1))
        return opening + sep.join(parts) + closing
    if t is list or t is tuple:
        if not obj:
            return "[]"
        if depth >= _DEPTH:
            raise _Unusual
        inner, _, sep, _, opening, closing = _FRAMES[indent]
        items: list[str] = []
        append = items.append
        for v in obj:  # the common leaves without a call
            tv = type(v)
            if tv is str:
                append(encode_basestring(v))
            elif tv is int:
                append(int.__repr__(v))
            elif v is None or tv is bool:
                append(_WORDS[v])
            else:
                append(_write(v, inner, depth + 1))
        return opening + sep.join(items) + closing
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
