"""Hidden draws (extension point E12): components drawn at random from a supply, where some
players (or the person writing the record) may not see what came.

A record names such a draw in a chance line, each drawn component by its token or by ``?``
when it was not seen (``* change Ben co:Gu co:Di ?``: three coins, the third unseen). The
referee then checks what the record lets it check:

* how many were drawn, against what the supply still holds (``in_pool``);
* every named component against how many of that name exist (``limits``: the supply per name,
  possibly data only a picture showed);
* a component a holder spends later: a known one he holds, or one of his unseen ones, which is
  then *revealed* (and checked against the supply like a draw);

and reports as *unverifiable* (never as a violation) what it cannot: which components an unseen
draw brought (:data:`UNVERIFIED_KEY`).

:class:`HiddenSupply` is the bookkeeping (a multiset per holder plus a count of unseen ones,
and what went out of the game); a module keeps one in its scratch state and maps the
:data:`Problem` strings its methods return to its own rule codes. Nothing here reports.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import repeat

from referee.messages import register_both
from referee.record.model import ComponentRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, TypeAlias

UNSEEN = "?"
"""How a record writes a drawn component nobody (or not everybody) saw."""

UNVERIFIED_KEY = "UNVERIFIED-HIDDEN-DRAW"
"""The catalogue text of an unseen draw: ``{name}``, ``{count}``, ``{what}``."""

Problem: TypeAlias = 'Literal["empty", "supply", "not-held"]'
"""``empty``: the supply holds nothing to draw; ``supply``: more components of a name are known
than exist; ``not-held``: the holder has neither that component nor an unseen one."""


@dataclass
class HiddenSupply:
    """A supply of ``total`` components (``limits``: how many of each name exist) from which
    holders draw, some draws unseen.

    ``known[holder]`` are the components a holder is known to have, ``unseen[holder]`` how many
    more he has that nobody named; ``gone`` / ``gone_unseen`` left the game."""

    total: int
    limits: dict[str, int] = field(default_factory=dict)
    known: dict[str, Counter[str]] = field(default_factory=dict)
    unseen: Counter[str] = field(default_factory=Counter)
    gone: Counter[str] = field(default_factory=Counter)
    gone_unseen: int = 0

    # ---------------------------------------------------------------- reading

    def held(self, holder: str) -> Counter[str]:
        """The known components of ``holder`` (a live multiset)."""
        # as ``known.setdefault(holder, Counter())``, without a new empty multiset at each call
        have = self.known.get(holder)
        if have is None:
            have = self.known[holder] = Counter()
        return have

    def count(self, holder: str) -> int:
        """How many components ``holder`` has, seen or not."""
        return self.held(holder).total() + self.unseen.get(holder, 0)

    def in_pool(self) -> int:
        """How many components the supply (bag, deck) still holds."""
        # the ``Counter.total()`` of each multiset, summed in C (``sum`` of its values)
        out = sum(map(sum, map(dict.values, self.known.values()))) + sum(self.unseen.values())
        return self.total - out - sum(self.gone.values()) - self.gone_unseen

    def seen(self, name: str) -> int:
        """How many components of ``name`` are known outside the supply."""
        # ``c[name]`` of each multiset (0 where missing), read in C
        return sum(map(dict.get, self.known.values(), repeat(name), repeat(0))) + self.gone.get(
            name, 0
        )

    def left_of(self, name: str) -> int | None:
        """How many of ``name`` the supply can still hold at most (None: no limit known)."""
        limit = self.limits.get(name)
        return None if limit is None else limit - self.seen(name)

    def pool(self) -> Counter[str]:
        """What the supply holds by name, when every component outside it is known."""
        return Counter({n: max(0, lim - self.seen(n)) for n, lim in self.limits.items()})

    def shown(self, holder: str, kind: str) -> str:
        """``holder``'s components as a record writes them (``co:Gu co:Gu ?``)."""
        items = [f"{kind}:{n}" for n in sorted(self.held(holder).elements())]
        items += [UNSEEN] * self.unseen[holder]
        return " ".join(items)

    # ---------------------------------------------------------------- changes

    def draw(self, holder: str, name: str | None) -> list[Problem]:
        """``holder`` draws one component (``name`` None: unseen). Applied as written; the
        problems say what was impossible."""
        out: list[Problem] = []
        if self.in_pool() <= 0:
            out.append("empty")
        if name is None:
            self.unseen[holder] += 1
            return out
        left = self.left_of(name)
        if left is not None and left <= 0:
            out.append("supply")
        have = self.held(holder)
        have[name] = have.get(name, 0) + 1  # (``+= 1`` without ``Counter.__missing__``)
        return out

    def take(self, holder: str, name: str) -> list[Problem]:
        """``holder`` hands over one ``name``: a known one, else one of his unseen ones, which
        is thereby revealed (checked against the supply). Not held: reported; nothing moves."""
        # (counts read with ``get``: the same 0 where missing, without ``Counter.__missing__``)
        have = self.held(holder)
        n = have.get(name, 0)
        if n > 0:
            if n > 1:
                have[name] = n - 1
            else:
                have.pop(name)  # (``del``, without ``Counter.__delitem__``'s Python call)
            return []
        unseen = self.unseen
        n = unseen.get(holder, 0)
        if n > 0:
            left = self.left_of(name)
            if n > 1:
                unseen[holder] = n - 1
            else:
                unseen.pop(holder)
            return ["supply"] if left is not None and left <= 0 else []
        return ["not-held"]

    def move(self, holder: str, to: str, name: str) -> list[Problem]:
        """One ``name`` passes from ``holder`` to ``to`` (e.g. a card from the display into a
        hand); when ``holder`` has none, it still arrives (as played) and ``not-held`` is
        returned."""
        found = self.take(holder, name)
        have = self.held(to)
        have[name] = have.get(name, 0) + 1
        return found

    def put_back(self, holder: str, name: str) -> list[Problem]:
        """``holder`` returns one ``name`` into the supply (e.g. coins paid go back into the
        bag)."""
        return self.take(holder, name)

    def discard(self, holder: str, name: str | None) -> list[Problem]:
        """One component of ``holder`` leaves the game (``name`` None: an unseen one)."""
        if name is None:
            if self.unseen.get(holder, 0) > 0:
                self.unseen[holder] -= 1
                self.gone_unseen += 1
                return []
            return ["not-held"]
        found = self.take(holder, name)
        if "not-held" not in found:
            self.gone[name] = self.gone.get(name, 0) + 1
        return found

    def state_known(self, holder: str, names: Iterable[str]) -> list[Problem]:
        """A position states ``holder``'s components: taken out of the supply."""
        out: list[Problem] = []
        for n in names:
            out += self.draw(holder, n)
        return out


def drawn_tokens(args: Iterable[object], kind: str) -> tuple[list[str | None], list[object]]:
    """The components a chance line names: ``kind:NAME`` tokens (the name as written) and
    ``?`` (None). Returns (drawn, the arguments that are neither)."""
    pairs, other = drawn_args(args, kind)
    return [name for _, name in pairs], other


def drawn_args(
    args: Iterable[object], kind: str
) -> tuple[list[tuple[object, str | None]], list[object]]:
    """:func:`drawn_tokens` with each drawn component's argument: (argument, name or None)
    for each ``kind:NAME`` and ``?``, in order, and the arguments that are neither."""
    drawn: list[tuple[object, str | None]] = []
    other: list[object] = []
    for a in args:
        v = getattr(a, "value", a)
        # a component first: it never equals ``?`` (its dataclass equality, asked first,
        # would be a Python call for nothing)
        if isinstance(v, ComponentRef):
            if v.kind.lower() == kind:
                drawn.append((a, v.name))
            else:
                other.append(a)
        elif v == UNSEEN:
            drawn.append((a, None))
        else:
            other.append(a)
    return drawn, other


def limits_of(data: Mapping[str, object]) -> dict[str, int]:
    """A ``{name: count}`` mapping read from module YAML data."""
    return {str(k): int(v) for k, v in data.items()}  # type: ignore[call-overload]


register_both(
    en={
        UNVERIFIED_KEY: "{name} gets {count} × {what} unseen (?): which ones is not checked "
        "until they are revealed",
    },
    de={
        UNVERIFIED_KEY: "{name} erhält {count} × {what} ungesehen (?): welche, bleibt "
        "ungeprüft, bis sie aufgedeckt werden",
    },
)

__all__ = [
    "UNSEEN",
    "UNVERIFIED_KEY",
    "HiddenSupply",
    "Problem",
    "drawn_args",
    "drawn_tokens",
    "limits_of",
]
