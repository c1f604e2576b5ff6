"""Die Gebäude der Macht (buildings of power): the rules of the section that do not depend on
the turn platform, as pure functions -- the groundwork of the module ``machtgebaeude``.

NOT a registered module yet (no :class:`~referee.modules.base.BundledModule` here, so a
``Modules`` header cannot switch it on): the functions the module will call, each with its
rulebook text and tests (``tests/test_machtgebaeude_rules.py``); the plan of the whole module,
its notation and the platform gaps it needs, is ``docs/modules/machtgebaeude.md``.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Mike Elliott: Die Gebäude der Macht (text
L3605-3657, L3663-3706, heading L3658-3659).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.geometry.grid import Alhambra
from referee.geometry.queries import second_longest_wall
from referee.geometry.walls import longest_outer_wall

DIE_FACES = range(1, 7)


@dataclass(frozen=True, slots=True)
class WallPoints:
    """The wall points of an Alhambra with black dice (Gebäude der Wehrhaftigkeit)."""

    longest: int
    second: int
    cap: int  # the sum of the black dice
    points: int


def defence_points(longest: int, second: int, black_dice: Sequence[int]) -> WallPoints:
    """ "Bei einer Wertung darf er ab jetzt 2 Mauerstücke abrechnen: Wie gewöhnlich das längste
    Mauerstück und zusätzlich das zweitlängste. Vom zweitlängsten Mauerstück darf er jedoch
    maximal die Summe seiner schwarzen Würfel anrechnen." (L3666-3671). Without a black die
    only the longest counts (the base rule)."""
    for pips in black_dice:
        if pips not in DIE_FACES:
            raise ValueError(f"a die shows 1-6, not {pips}")
    cap = sum(black_dice)
    extra = min(second, cap) if black_dice else 0
    return WallPoints(longest, second, cap, longest + extra)


def alhambra_defence_points(
    alh: Alhambra, black_dice: Sequence[int], how: str = "rest", mode: Any = "trail"
) -> WallPoints:
    """:func:`defence_points` of an Alhambra: its longest outer wall and its second-longest
    (``how``: ``rest``, the longest run left once the longest is taken away, or ``piece``, the
    longest run of another piece of wall -- the digest's ambiguity (b))."""
    longest = longest_outer_wall(alh, mode).length
    second = second_longest_wall(alh, mode, how).length  # type: ignore[arg-type]
    return defence_points(longest, second, black_dice)


def prosperity_after_use(pips: int) -> int | None:
    """ "Hat er den weißen Würfel benutzt, dreht er ihn um 1 Auge herunter. Nach der 1 geht der
    Würfel aus dem Spiel." (L3680-3682): the die's face after a use (None: out of the game)."""
    if pips not in DIE_FACES:
        raise ValueError(f"a die shows 1-6, not {pips}")
    return pips - 1 if pips > 1 else None


def prosperity_price(price: int, white_dice_used: int) -> int:
    """ "In jedem Zug darf er bei einem Gebäudekauf maximal einen seiner weißen Würfel
    einsetzen. Auch wenn er mehrere besitzt, darf er nur einen einsetzen. Dadurch wird das
    Gebäude um 1 billiger." (L3675-3679)"""
    if white_dice_used not in (0, 1):
        raise ValueError("at most one white die per purchase")
    return price - white_dice_used


@dataclass(frozen=True, slots=True)
class HiddenAward:
    """Who gets the two tiles of a market field with a hidden tile at the end: the player with
    the most money of the currency chooses (``first``), the second-most gets the other
    (``second``); None: the tile(s) leave the game."""

    first: str | None
    second: str | None


def hidden_tile_awards(money: Mapping[str, int]) -> HiddenAward:
    """ "darf sich der Spieler mit dem meisten Geld dieser Währung eines der beiden dort
    liegenden Plättchen aussuchen. Der Spieler mit dem zweitmeisten Geld dieser Währung erhält
    das andere Plättchen. Haben mehrere Spieler das meiste Geld, so gehen beide Plättchen aus dem
    Spiel. Haben mehrere Spieler das zweitmeiste Geld, so geht das übriggebliebene Plättchen aus
    dem Spiel." (L3687-3697). Players with no money of the currency have none to compare (as the
    base leftover distribution: nobody gets a tile for no money)."""
    ranked = sorted(((v, k) for k, v in money.items() if v > 0), reverse=True)
    if not ranked:
        return HiddenAward(None, None)
    top = ranked[0][0]
    tops = [k for v, k in ranked if v == top]
    if len(tops) > 1:
        return HiddenAward(None, None)
    rest = [(v, k) for v, k in ranked if v != top]
    if not rest:
        return HiddenAward(tops[0], None)
    second = rest[0][0]
    seconds = [k for v, k in rest if v == second]
    return HiddenAward(tops[0], seconds[0] if len(seconds) == 1 else None)
