"""How the engine asks modules (issue 34): the shortcuts give the verdicts of asking everyone.

* A module's ``at_moment`` marked with ``acts_at`` is asked only at those moments; asking every
  enabled module at every moment (the behaviour without marks) gives the same report for every
  module example, so no mark leaves out a moment its module acts at.
* Only the modules whose class overrides ``market_draw`` are asked about a tile drawn for the
  market (the default answers None): asking all of them gives the same reports.
* A game's :class:`~referee.engine.ruleset.Ruleset` is made from a table worked out once per
  profile and module classes; each game's refinements are still its own module instances'.
* A plain purchase (a catalogue tile from a market field, paid with money cards) takes the
  one-pass path when every module that refines a purchase decision or hears of purchases
  leaves it alone (``Module.leaves_plain_purchase``), and a catalogue tile placed or built
  where the base rules find nothing when every module refining ``place.problems`` leaves it
  alone (``Module.leaves_plain_placement``): the same reports as the whole purchase pipeline
  and placement chain, and the one-pass purchase is really taken in module games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import ENGINE_COMPILED

from referee.engine import check_game, extensions
from referee.engine.actions import building, purchase
from referee.engine.extensions import Extensions, Module, acts_at, moments_asked
from referee.engine.ruleset import Ruleset
from referee.engine.turns import Moment
from referee.notation import parse_text
from referee.profiles import DEFAULT_PROFILE
from referee.record.model import Game

_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
EXAMPLES = sorted(_EXAMPLES.glob("module-*.alh")) + sorted(_EXAMPLES.glob("waechter*.alh"))
"""Every module example, and the guards edition's (its rules unit is asked as a module is)."""

_KEPT: dict[str, tuple[int, ...]] = {
    "module-all-four": (0, 1, 4, 5, 8, 9, 10, 13),
    "module-angreifer": (0, 1, 2, 4, 5, 6, 12, 13),
    "module-arbeiter": (0, 1, 4, 6, 10, 11),
    "module-ausbauten": (0, 1, 2, 5, 6, 7, 11, 12),
    "module-badehaeuser": (0, 1, 4, 6, 8, 12),
    "module-bauland": (0, 1, 4, 7, 9, 13),
    "module-baumeister": (0, 1, 4, 5, 6, 9),
    "module-baustellen": (0, 1, 4, 6, 7, 9, 11, 12),
    "module-bazare": (0, 1, 4, 5, 6, 7, 13),
    "module-bedienstete": (0, 1, 3, 8, 9),
    "module-bonuskarten": (0, 1, 4, 11, 12, 13),
    "module-charaktere": (0, 1, 3, 4, 5, 6, 7, 8, 10, 11, 12),
    "module-diamanten": (0, 1, 3, 4, 6, 7, 8, 11, 12),
    "module-diebe": (0, 1, 2, 4, 7, 8, 10, 12, 13),
    "module-falkner": (0, 1, 3, 4, 5, 11, 12),
    "module-farben": (0, 1, 2, 3, 4, 8, 9, 10),
    "module-feldlager": (0, 1, 2, 4, 5, 9, 10, 12),
    "module-grossprojekte": (0, 1, 4, 5, 8, 10, 11, 13),
    "module-haendler": (0, 1, 2, 3, 6, 7, 9, 11, 12),
    "module-handwerker": (0, 1, 3, 5, 7, 8, 9, 11),
    "module-karawanserei": (0, 1, 2, 4, 5, 7, 10, 12, 13),
    "module-machtgebaeude": (0, 1, 2, 4, 6, 7, 9, 12),
    "module-magisch": (0, 1, 3, 4, 5, 6, 11),
    "module-marktplatz": (0, 1, 2, 5, 6, 10),
    "module-mauern": (0, 1, 4, 5, 6, 7, 10, 12),
    "module-mauren": (0, 1, 3, 6, 7, 12),
    "module-medina": (0, 1, 3, 4, 5, 9, 11),
    "module-menagerie": (0, 1, 4, 5, 11),
    "module-obstgaerten": (0, 1, 2, 3, 5, 6, 10),
    "module-palastplaner": (0, 1, 2, 4, 9),
    "module-plaetze": (0, 1, 3, 4, 9, 12, 13),
    "module-schaetze": (0, 1, 4, 5, 6, 9, 10, 11),
    "module-schatzkammer": (0, 1, 2, 4, 5, 6, 7, 8, 9, 13),
    "module-schluessel": (0, 1, 3, 4, 5, 6, 7),
    "module-stadttore": (0, 1, 4, 5, 7, 9, 11),
    "module-sultan": (0, 1, 3, 4, 5, 6, 7, 9, 12),
    "module-wachtuerme": (0, 1, 2, 3, 4, 5, 6, 7, 8, 13),
    "module-wave-a": (0, 1, 2, 4, 5, 9, 12),
    "module-wave-a-first-expansion": (0, 1, 2, 3, 4, 6, 7, 8, 10, 11, 13),
    "module-wave-b": (0, 1, 2, 3, 4, 7, 8, 9, 10, 12),
    "module-wave-b-first-expansion": (0, 1, 2, 3, 4, 5, 6, 7, 10, 11),
    "module-wave-c": (0, 1, 2, 3, 4, 5, 6, 7, 11),
    "module-wave-c-first-expansion": (0, 1, 3, 4, 6, 8, 9, 11),
    "module-wave-d": (0, 1, 5, 6, 7, 8, 9, 10),
    "module-wave-d-first-expansion": (0, 1, 2, 4, 5, 6, 8, 9, 11, 12),
    "module-wave-e": (0, 1, 2, 3, 4, 5, 8, 10, 13),
    "module-wave-e-first-expansion": (0, 1, 4, 5, 7),
    "module-wave-f": (0, 1, 2, 3, 4, 6, 7, 8, 13),
    "module-wave-f-first-expansion": (0, 1, 2, 3, 4, 5, 7, 9, 10, 13),
    "module-wechselgeld": (0, 1, 2, 4, 5, 6),
    "module-wechselscheine": (0, 1, 3, 4, 5, 7, 13),
    "module-wechselstuben": (0, 1, 2, 4, 5, 7, 8, 12, 13),
    "module-wertungskaertchen": (0, 1, 3, 5, 10),
    "module-wesir": (0, 1, 3, 4, 5, 7, 10, 12),
    "module-wuensche": (0, 1, 2, 4, 7, 10, 13),
    "module-wunschbrunnen": (0, 1, 4, 6, 7, 8, 12),
    "waechter": (0, 1, 4, 5, 6, 7, 8, 10, 12),
    "waechter-two-player": (0, 1, 3, 4, 5, 6, 7),
}
"""The copies of each example (indices in :func:`_variants`'s list) that the three parts of
the shortcuts' test check: the other copies ran no line of ``referee`` (with the shortcuts and
in each part's general path, then three tests) that these do not (coverage, one context a text
and test, on main at c7568e1: bench/README.md, issue 34, seventeenth step, one-pass tests)."""


def _variants(path: Path, every: bool = False) -> list[str]:
    """The example, and copies with one line of play left out (about twelve, spread over the
    record): games that break rules, so the modules' checks at each moment have something to
    report. (The same-output corpus's mutated records of every module are the wider check.)
    Unless ``every``, only the copies :data:`_KEPT` names for the example."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit() or line.startswith("* ")]
    step = max(4, len(body) // 12)
    out = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[2::step]]
    kept = None if every else _KEPT.get(path.stem)
    once = list(dict.fromkeys(out))  # (the indices count different texts)
    return out if kept is None else [once[i] for i in kept if i < len(once)]


def _games(texts: list[str]) -> list[Game]:
    """The games of ``texts``, read once: each test below checks them several times (a check
    leaves the records as they are)."""
    return [game for text in texts for game in parse_text(text)]


def _reports(games: list[Game]) -> list[str]:
    return [_seedless(repr(check_game(game))) for game in games]


def _seedless(text: str) -> str:
    """``text`` (a report's ``repr``) with the items of every ``frozenset({...})`` sorted.

    A frozenset's ``repr`` lists its items in hash order, and the hash of an enum member (a
    tile's walls, ``frozenset({<Side.S: 'S'>, <Side.E: 'E'>})``) follows the process's hash
    seed; two equal sets made in different orders may list their items in different orders
    even in one process (a collision is resolved by the order of insertion)."""
    out: list[str] = []
    i = 0
    while (start := text.find("frozenset({", i)) != -1:
        body = start + len("frozenset({")
        items, end = _top_items(text, body)
        out.append(text[i:body])
        out.append(", ".join(sorted(_seedless(item) for item in items)))
        i = end
    out.append(text[i:])
    return "".join(out)


def _top_items(text: str, at: int) -> tuple[list[str], int]:
    """The comma-separated items from ``at`` up to the ``}`` closing the braces opened before
    it, and the index of that ``}`` (brackets and quoted strings followed)."""
    items: list[str] = []
    depth, quote, escaped, first = 0, "", False, at
    for k in range(at, len(text)):
        c = text[k]
        if quote:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                if text[first:k].strip():
                    items.append(text[first:k].strip())
                return items, k
            depth -= 1
        elif c == "," and depth == 0:
            items.append(text[first:k].strip())
            first = k + 1
    raise AssertionError(f"unclosed frozenset in a report: {text[at - 11 : at + 60]!r}")


def test_reports_are_compared_without_the_hash_seed() -> None:
    walls = "Tile(walls=frozenset({<Side.S: 'S'>, <Side.E: 'E'>}), name='a, {b}')"
    again = "Tile(walls=frozenset({<Side.E: 'E'>, <Side.S: 'S'>}), name='a, {b}')"
    assert (
        _seedless(walls)
        == _seedless(again)
        == ("Tile(walls=frozenset({<Side.E: 'E'>, <Side.S: 'S'>}), name='a, {b}')")
    )
    assert _seedless("x=frozenset({}) y=frozenset({(1, 2), (0, 3)})") == (
        "x=frozenset({}) y=frozenset({(0, 3), (1, 2)})"
    )
    quoted = "frozenset({'b\\\\', 'a\\'}', 'c'})"  # the items 'b\\', 'a\'}', 'c'
    assert _seedless(quoted) == "frozenset({'a\\'}', 'b\\\\', 'c'})"


def _as_it_is(games: list[Game]) -> tuple[list[str], bool, bool]:
    """The reports of the games with the shortcuts as they are (what each part of the test
    below compares its general path with), and whether in those checks a module ever left a
    plain purchase to the one-pass path and a turn ever took its one-pass steps (both counters
    only watch: the answers are the engine's)."""
    asked: list[bool] = []
    taken: list[bool] = []
    leave = purchase._modules_leave_purchases
    acting = Extensions.acting_at

    def counted_leave(state: object, p: object, idx: int) -> bool:
        got = leave(state, p, idx)  # type: ignore[arg-type]
        asked.append(got)
        return got

    def counted_acting(self: Extensions, moments: tuple[Any, ...]) -> bool:
        got = acting(self, moments)
        taken.append(not got)
        return got

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(purchase, "_modules_leave_purchases", counted_leave)
        patch.setattr(Extensions, "acting_at", counted_acting)
        reports = _reports(games)
    return reports, any(asked), any(taken)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_shortcuts_report_as_the_general_paths(path: Path) -> None:
    """The example's copies (:func:`_variants`), read once and checked four times: with the
    shortcuts as they are, then with each of the three shortcuts below turned off alone (the
    general path for it, the others as they are): the same reports each time. (Three tests of
    an example each, before: the reading was done four times and the reports kept in the
    run's store; one test reads the copies once, bench/README.md, issue 34, twenty-second
    step.)"""
    games = _games(_variants(path))
    shortcut, asked, taken = _as_it_is(games)
    assert shortcut

    # 1. modules asked only where they act, and about a tile drawn for the market only when
    # their class overrides market_draw: asking every enabled module everywhere reports the same
    every = Extensions.overriding

    def overriding(self: Extensions, hook: str) -> tuple[Module, ...]:
        return tuple(self.modules) if hook == "market_draw" else every(self, hook)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extensions, "moments_asked", lambda cls: None)
        patch.setattr(Extensions, "overriding", overriding)
        assert _reports(games) == shortcut

    # 2. plain purchases and placements left alone by every module take the one-pass path: the
    # whole purchase pipeline and placement chain report the same (compiled, purchase.py calls
    # its own _modules_leave_purchases past the patch: this part is left out there)
    if not ENGINE_COMPILED:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(purchase, "_modules_leave_purchases", lambda state, p, idx: False)
            patch.setattr(
                building,
                "_modules_refine_here",
                lambda state, p, at, tile: "place.problems" in state.rules.refined,
            )
            assert _reports(games) == shortcut
        # every module with a plain purchase kept is tried on it (the shortcut is not dead code)
        if path.stem in {"module-wachtuerme", "module-diamanten", "module-schaetze"}:
            assert asked

    # 3. core._turn closes the refill, begins and ends the turn in one pass (without
    # settle_before / begin_turn / end_turn) when no enabled module acts at those moments:
    # the same reports as the general calls, which a module game took before
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Extensions, "acting_at", lambda self, moments: True)
        assert _reports(games) == shortcut
    if path.stem in {"module-wesir", "module-angreifer", "module-diamanten"}:
        assert taken  # modules that act at none of those moments: the shortcut is taken


def test_marks_are_united_along_super() -> None:
    class Base(Module):
        @acts_at(Moment.TURN_END)
        def at_moment(self, ctx: object, moment: object) -> None:
            pass

    class Marked(Base):
        @acts_at(Moment.TURN_START)
        def at_moment(self, ctx: object, moment: object) -> None:
            super().at_moment(ctx, moment)

    class Unmarked(Base):
        def at_moment(self, ctx: object, moment: object) -> None:
            super().at_moment(ctx, moment)

    assert moments_asked(Marked) == {Moment.TURN_START, Moment.TURN_END}
    assert moments_asked(Unmarked) is None  # asked at every moment
    assert moments_asked(Module) == frozenset()


def test_each_games_ruleset_binds_its_own_modules() -> None:
    names = ["wechselstuben", "bazare", "stadttore", "wesir"]
    one, two = Extensions(names), Extensions(names)
    first = Ruleset(DEFAULT_PROFILE, one.modules)
    second = Ruleset(DEFAULT_PROFILE, two.modules)
    assert first.refined == second.refined and first.refined
    assert first.answer is not second.answer
    for decision in first.refined:
        assert first.refined_by(decision) == second.refined_by(decision)
        for a, b in zip(first._chain[decision], second._chain[decision], strict=True):
            assert a.func.__self__ in one.modules  # type: ignore[attr-defined]
            assert b.func.__self__ in two.modules  # type: ignore[attr-defined]
    # the same modules in another order: the same refinement order (``after``, else as given)
    again = Ruleset(DEFAULT_PROFILE, Extensions(names).modules)
    assert [m.name for m in again.modules] == [m.name for m in first.modules]
    # a game without modules keeps the profile's shared ruleset
    assert Ruleset.of(DEFAULT_PROFILE) is Ruleset.of(DEFAULT_PROFILE)


def test_plain_purchase_asks_only_modules_taking_part() -> None:
    names = ["wachtuerme", "wesir", "wechselgeld", "obstgaerten"]  # wesir: no purchase rule
    ext = Extensions(names)
    part = ext.taking_part(purchase._PLAIN_DECISIONS, ("on_purchase",))
    assert [m.name for m in part] == ["wachtuerme", "wechselgeld", "obstgaerten"]
    assert part is ext.taking_part(purchase._PLAIN_DECISIONS, ("on_purchase",))  # once a game
    tower, coins = part[0], part[1]
    assert tower.purchases_by_components and not coins.purchases_by_components
    # a refining module's base answers stay reachable for the one-pass path
    rules = Ruleset(DEFAULT_PROFILE, ext.modules)
    assert rules.answer["pay.price"] is not rules.base_answer["pay.price"]
    assert rules.base_answer["pay.price"](None, printed=7) == 7


# Neues Bauland's choice ("Anschließend sucht er sofort eines der Baugebäude aus",
# rulebook-bigbox-de-2019.txt § Dirk Henn: Neues Bauland, Änderungen im Spielablauf): whether
# anything came between a plot's purchase and ``plot`` was told by comparing the turn's mark,
# every enabled module's view (as the purchase left them) included. When the engine's change
# counter (GameState.changes) says that nothing ran between (it moved once: the choice's own
# start), the views are left out of the comparison; otherwise they are taken at the first change
# after the purchase (GameState.wait_for_change), not at the purchase. The views so taken must
# be those of the purchase, and the answer the general comparison's, each time.
_BAULAND_RECORDS = [
    "1. Ben: buy De bl:1_12n pay De9 De3, plot C\n",
    "1. Ben: buy De bl:1_12n pay De9 De3, take Gu1, plot C\n",
    "1. Ben: buy De bl:1_12n pay De9 De3, place bl:1_12n@1,0, plot C\n",
    "1. Ben: buy De bl:1_12n pay De9 De3, buy Di bl:1_2x pay Di9, plot C\n",
    "1. Ben: buy De bl:1_12n pay De9 De3, plot C, place bl:1_12n@1,0\n",
    "1. Ben: buy De bl:1_12n pay De9 De3, plot X, take Gu1, plot C\n",
    "1. Ben: buy De bl:1_12n pay De9 De3\n2. Cem: take Gu1\n",
]


def test_bauland_choice_by_the_change_counter_reports_as_the_whole_mark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_module_bauland import PLOTS, SETUP

    from referee.modules import bauland

    cls = bauland.Bauland
    on_purchase, late, at_change = cls.on_purchase, cls._late, cls._views_at_change
    eager: dict[tuple[Any, ...], tuple[str, ...]] = {}  # the views at each purchase
    fast: list[bool] = []
    lazy: list[bool] = []

    def purchase_then_views(self: Any, ctx: Any, purchase: Any) -> None:
        on_purchase(self, ctx, purchase)
        waiting = self.data(ctx.state).waiting
        if waiting is not None:
            eager[waiting[:3]] = bauland._views(ctx.state, self)

    def views_checked(self: Any, state: Any, action: Any) -> None:
        at_change(self, state, action)
        waiting = self.data(state).waiting
        if waiting is not None and waiting[3][2] is not None:
            lazy.append(True)
            assert waiting[3][2] == eager[waiting[:3]]  # the views of the purchase

    def late_checked(self: Any, state: Any, player: Any, before: bool = False) -> Any:
        got = late(self, state, player, before)
        waiting, t = self.data(state).waiting, state.turn
        if not before and waiting is not None and t is not None and waiting[0] == t.number:
            fast.append(state.changes == waiting[3][0] + 1)
            mark = (*waiting[3][1], eager[waiting[:3]])
            whole = bauland._turn_mark(state, player, self, len(t.pending))
            assert (got is None) == (whole == mark)  # the general comparison's answer
        return got

    after_plain = cls.after_plain_purchase

    def plain_then_views(self: Any, state: Any, buy: Any) -> None:  # (a plot bought in one pass)
        after_plain(self, state, buy)
        waiting = self.data(state).waiting
        if waiting is not None:
            eager[waiting[:3]] = bauland._views(state, self)

    monkeypatch.setattr(cls, "on_purchase", purchase_then_views)
    monkeypatch.setattr(cls, "after_plain_purchase", plain_then_views)
    monkeypatch.setattr(cls, "_views_at_change", views_checked)
    monkeypatch.setattr(cls, "_late", late_checked)
    texts = [SETUP.format(modules="bauland", plots=PLOTS) + body for body in _BAULAND_RECORDS]
    for name in ("module-bauland", "module-wave-c", "module-wave-c-first-expansion"):
        texts += _variants(_EXAMPLES / f"{name}.alh", every=True)
    reports = _reports(_games(texts))
    assert reports
    assert True in fast  # the shortcut was taken (a choice right after its purchase)
    assert False in fast  # and the general comparison (something ran between)
    assert lazy  # views taken at a change after a purchase
