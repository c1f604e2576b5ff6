"""Issue 34, tenth step (helper "modrest"): the hidden supply (``referee/engine/hidden.py``) and
Die Baumeister's cheaper paths give what their former forms gave.

* ``HiddenSupply``: every reading and change equals the former code (kept below as
  ``_Former``: ``setdefault`` with a fresh ``Counter``, ``Counter.total``, ``c[name] += 1``,
  ``del``), over random runs of draws, takes, moves, discards -- the answers, and the
  bookkeeping afterwards including the order of the holders (which the supply finding's text
  follows) and of each multiset's names;
* ``drawn_args`` pairs each drawn component with its argument, in ``drawn_tokens``' order;
* Die Baumeister: a card code read by one look-up equals ``card_currency(name).code``; the
  pile windows kept per setup size equal ``pile_windows``; a ``master`` card the player holds
  is found playable without the trial copy exactly where the trial finds nothing; a
  ``master`` line's step reads its own card when another line was checked last.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import check_game
from referee.engine.hidden import UNSEEN, HiddenSupply, Problem, drawn_args, drawn_tokens
from referee.engine.ruleset import Decision, refines
from referee.modules.base import pile_windows
from referee.modules.baumeister import (
    KIND,
    Baumeister,
    _card_code,
    _trial,
    _windows,
    card_currency,
)
from referee.record.model import ComponentRef, GenericArg, ModuleAction

CODES = ["De", "Di", "Du", "Gu"]
HOLDERS = ["@display", "Anna", "Ben", "Cem"]


@dataclass
class _Former(HiddenSupply):
    """``HiddenSupply`` as it was before this step (its changed methods, verbatim)."""

    def held(self, holder: str) -> Counter[str]:
        return self.known.setdefault(holder, Counter())

    def count(self, holder: str) -> int:
        return self.held(holder).total() + self.unseen[holder]

    def in_pool(self) -> int:
        out = sum(c.total() for c in self.known.values()) + self.unseen.total()
        return self.total - out - self.gone.total() - self.gone_unseen

    def seen(self, name: str) -> int:
        return sum(c[name] for c in self.known.values()) + self.gone[name]

    def draw(self, holder: str, name: str | None) -> list[Problem]:
        out: list[Problem] = []
        if self.in_pool() <= 0:
            out.append("empty")
        if name is None:
            self.unseen[holder] += 1
            return out
        left = self.left_of(name)
        if left is not None and left <= 0:
            out.append("supply")
        self.held(holder)[name] += 1
        return out

    def take(self, holder: str, name: str) -> list[Problem]:
        have = self.held(holder)
        if have[name] > 0:
            have[name] -= 1
            if not have[name]:
                del have[name]
            return []
        if self.unseen[holder] > 0:
            left = self.left_of(name)
            self.unseen[holder] -= 1
            if not self.unseen[holder]:
                del self.unseen[holder]
            return ["supply"] if left is not None and left <= 0 else []
        return ["not-held"]

    def move(self, holder: str, to: str, name: str) -> list[Problem]:
        found = self.take(holder, name)
        self.held(to)[name] += 1
        return found

    def discard(self, holder: str, name: str | None) -> list[Problem]:
        if name is None:
            if self.unseen[holder] > 0:
                self.unseen[holder] -= 1
                self.gone_unseen += 1
                return []
            return ["not-held"]
        found = self.take(holder, name)
        if "not-held" not in found:
            self.gone[name] += 1
        return found


def _parts(s: HiddenSupply) -> tuple[object, ...]:
    """The whole bookkeeping, with the order of holders and of each multiset's names."""
    return (
        s.total,
        dict(s.limits),
        [(h, list(c.items())) for h, c in s.known.items()],
        list(s.unseen.items()),
        list(s.gone.items()),
        s.gone_unseen,
    )


def _readings(s: HiddenSupply) -> tuple[object, ...]:
    return (
        s.in_pool(),
        [s.seen(n) for n in [*CODES, "Xx"]],
        [s.left_of(n) for n in [*CODES, "Xx"]],
        dict(s.pool()),
    )


NAME = st.one_of(st.none(), st.sampled_from([*CODES, "Xx"]))
OPS = st.lists(
    st.tuples(
        st.sampled_from(["draw", "take", "move", "put_back", "discard", "count", "shown"]),
        st.sampled_from(HOLDERS),
        st.sampled_from(HOLDERS),
        NAME,
    ),
    max_size=40,
)


@settings(deadline=None, max_examples=300)  # no timing: a busy machine must not fail it
@given(OPS, st.integers(0, 20), st.integers(0, 3))
def test_hidden_supply_as_before(
    ops: list[tuple[str, str, str, str | None]], total: int, g: int
) -> None:
    new = HiddenSupply(total, {c: 3 for c in CODES})
    old = _Former(total, {c: 3 for c in CODES})
    new.gone_unseen = old.gone_unseen = g
    for op, holder, to, name in ops:
        if op == "draw" or op == "discard":
            assert getattr(new, op)(holder, name) == getattr(old, op)(holder, name)
        elif op in ("take", "put_back"):
            code = name or "Gu"
            assert getattr(new, op)(holder, code) == getattr(old, op)(holder, code)
        elif op == "move":
            code = name or "Di"
            assert new.move(holder, to, code) == old.move(holder, to, code)
        elif op == "count":
            assert new.count(holder) == old.count(holder)
        else:
            assert new.shown(holder, KIND) == old.shown(holder, KIND)
        assert _parts(new) == _parts(old)
        assert _readings(new) == _readings(old)


def test_drawn_args_pairs_each_drawn_component_with_its_argument() -> None:
    args = [
        GenericArg(ComponentRef("mb", "Gu")),
        GenericArg("Anna"),
        GenericArg(UNSEEN),
        GenericArg(ComponentRef("co", "Di")),
        GenericArg(ComponentRef("MB", "de")),
    ]
    pairs, other = drawn_args(args, "mb")
    assert [a for a, _ in pairs] == [args[0], args[2], args[4]]
    assert ([n for _, n in pairs], other) == drawn_tokens(args, "mb")
    assert drawn_tokens(args, "mb") == (["Gu", None, "de"], [args[1], args[3]])


@pytest.mark.parametrize("name", ["Gu", "gu", "GU", "Di", "de", "DU", "Xy", "", "G", 7, None])
def test_card_code_by_one_look_up(name: object) -> None:
    cur = card_currency(name)  # type: ignore[arg-type]
    assert _card_code(name) == (None if cur is None else cur.code)


@pytest.mark.parametrize("reshuffles", [0, 1])
@pytest.mark.parametrize("setup_after", [-1, 0, 1, 7, 20, 43, 80])
@pytest.mark.parametrize("tol", [0.0, 0.1, 0.25])
def test_kept_pile_windows(reshuffles: int, setup_after: int, tol: float) -> None:
    state: Any = SimpleNamespace(
        reshuffles=reshuffles, setup_after=setup_after, profile=SimpleNamespace(pile_tolerance=tol)
    )
    for _ in range(2):  # worked out, then kept
        assert _windows(state) == pile_windows(state, (3, 5))


@settings(deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(HOLDERS), st.dictionaries(st.sampled_from(CODES), st.integers(0, 3))
    ),
    st.dictionaries(st.sampled_from(HOLDERS[1:]), st.integers(0, 2)),
    st.sampled_from(HOLDERS[1:]),
    st.sampled_from(CODES),
)
def test_held_card_needs_no_trial(
    known: dict[str, dict[str, int]], unseen: dict[str, int], holder: str, code: str
) -> None:
    """``check_verb`` leaves the trial out where the player is known to hold the card: there,
    and only there among the cases without an unseen card, the trial's discard finds nothing."""
    cards = HiddenSupply(
        16, {c: 4 for c in CODES}, {h: Counter(v) for h, v in known.items()}, Counter(unseen)
    )
    before = _parts(cards)
    own = cards.known.get(holder)
    fast = own is not None and own.get(code, 0) > 0
    found = _trial(cards, holder).discard(holder, code)
    if fast:
        assert found == []
    elif not cards.unseen.get(holder):
        assert found == ["not-held"]
    assert _parts(cards) == before


@cache
def _simulated(modules: tuple[str, ...]) -> list[Any]:
    from referee.notation import parse_text
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    profile = load_profile("queen-bigbox-2019")
    return [
        parse_text(simulate_text(n, 9100 + n, profile, f"builders {n}", modules), f"m{n}.alh")[0]
        for n in (2, 3, 5)
    ]


def _reports(games: list[Any]) -> list[object]:
    out: list[object] = []
    for game in games:
        report = check_game(game)
        assert report.complete
        out.append(
            (
                [(v.code, v.pos, v.message("en")) for v in report.violations],
                [(n.key, n.pos, n.message("en")) for n in report.unverifiable],
            )
        )
    return out


@pytest.mark.parametrize("modules", [("baumeister",), ("baumeister", "wesir", "diebe")])
def test_master_step_reads_its_checked_line(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``master`` line's step plays the card its check read (kept by the line's identity):
    the findings equal those of a run where every step reads its line again, and the step
    reads no line its check read."""
    games = _simulated(modules)
    kept = _reports(games)
    calls = {"read": 0, "checked": 0}
    read, check = Baumeister._master_card, Baumeister.check_verb

    def counted_read(self: Baumeister, action: ModuleAction, player: str) -> Any:
        calls["read"] += 1
        return read(self, action, player)

    def counted_check(self: Baumeister, ctx: Any, player: Any, action: ModuleAction) -> Any:
        calls["checked"] += 1
        return check(self, ctx, player, action)

    monkeypatch.setattr(Baumeister, "_master_card", counted_read)
    monkeypatch.setattr(Baumeister, "check_verb", counted_check)
    assert _reports(games) == kept
    assert calls["checked"] > 0 and calls["read"] == calls["checked"]

    def forgetting_check(self: Baumeister, ctx: Any, player: Any, action: ModuleAction) -> Any:
        found = check(self, ctx, player, action)
        self._checked = None  # the step reads its line again, as before this step
        return found

    monkeypatch.setattr(Baumeister, "check_verb", forgetting_check)
    assert _reports(games) == kept


@pytest.mark.parametrize("modules", [("baumeister",), ("baumeister", "wesir", "diebe")])
def test_display_question_as_before(
    modules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every display question the refinement adds what the former code added (the
    display's known cards, 0 where it has no multiset yet), and the multiset it keeps in the
    module's part is the supply's own."""
    games = _simulated(modules)
    asked = {"n": 0, "cards": 0}
    answer = Baumeister.builders_in_display

    def watched(self: Baumeister, ctx: Any, occupied: int, **args: Any) -> int:
        data = ctx.state.modules.get(self.name)
        have = None if data is None else data.cards.known.get("@display")
        want = occupied + (0 if have is None else have.total())
        got = answer(self, ctx, occupied, **args)
        assert got == want
        data = ctx.state.modules[self.name]
        assert data.display is data.cards.known["@display"]
        asked["n"] += 1
        asked["cards"] += got - occupied
        return got

    refines(Decision.DISPLAY_OCCUPIED)(watched)  # asked as the module's refinement is
    monkeypatch.setattr(Baumeister, "builders_in_display", watched)
    _reports(games)
    assert asked["n"] > 0 and asked["cards"] > 0


def test_display_multiset_copied_as_one() -> None:
    from referee.modules.baumeister import BuilderScratch

    data = BuilderScratch(HiddenSupply(16, {c: 4 for c in CODES}))
    data.cards.draw("Anna", "Gu")
    data.display = data.cards.held("@display")
    data.cards.draw("@display", "Di")
    twin = data.copy()
    assert isinstance(twin, BuilderScratch)
    assert twin.display is twin.cards.known["@display"] and twin.display == {"Di": 1}
    assert twin.display is not data.display
