"""Regular expressions compiled on first use (start-up, issue 13).

Compiling a pattern costs 50-750 µs (a class of Unicode characters the most); a one-game
``check`` compiled some that it never used (the line breaks ``str.splitlines`` knows, the
header scan's patterns, the fast reader's patterns for strings and annotations).
:func:`lazy_pattern` gives an object that compiles its pattern the first time one of its
attributes is asked for and from then on answers with the compiled pattern's own bound methods
(kept on the object, so a later ``.match`` costs what it costs on a pattern). Use it for
patterns that are only called as methods (``re.sub(lazy, ...)`` would not accept it).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_ATTRIBUTES = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "split",
    "sub",
    "subn",
    "scanner",
    "pattern",
    "flags",
    "groups",
    "groupindex",
)


class _Compiled:
    """A lazy pattern once compiled: the pattern's bound methods and attributes, as plain
    instance attributes (no ``__getattr__`` on this class, so a lookup costs what one on the
    pattern costs)."""

    def __repr__(self) -> str:
        return f"lazy_pattern({self.pattern!r}, {self.flags!r})"  # type: ignore[attr-defined]


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # the first use of any attribute
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(*self._source)
        for attribute in _ATTRIBUTES:
            setattr(self, attribute, getattr(compiled, attribute))
        self.__class__ = _Compiled  # type: ignore[assignment]
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_pattern({self._source[0]!r}, {self._source[1]!r})"


def lazy_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done when the pattern is first used."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]  # stands in for one
