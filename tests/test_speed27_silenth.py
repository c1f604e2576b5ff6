"""Silent Die Schatzkammer and Die Bediensteten cheaper (issue 34, twenty-fifth step).

* Die Schatzkammer's chest majority while nobody holds a chest (Dirk neither) is a kept
  category of the module's own (``_NoneHeld``): its answers are the :class:`Majority`'s that
  ``scoring_parts`` builds otherwise (every participant, Dirk too, quantity 0, not ranked);
  with a chest held anywhere the Majority is built as before;
* a chest line's bag check counts the known chests in one pass (``ChestScratch.visible``: the
  same table, keys in the same order) and reads a chest letter without ``parse_colour``'s call;
* Die Bediensteten's ``servants`` line is a category of the module's own (``_ServantLine``):
  its answers are those of the former :class:`Penalty` with its ``points`` function, at every
  scoring and for the third scoring's penalty taken before the leftover tiles;
* every report and view of the module examples, of silent games and of simulated games where
  the modules act is the same with the former forms patched in.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.catalogue import BuildingType
from referee.engine import check_game
from referee.engine.state import GameState
from referee.modules import bedienstete as bed
from referee.modules import schatzkammer as sk
from referee.notation import parse_text
from referee.record.model import ComponentRef, Coord
from referee.scoring import ScoringParts
from referee.scoring.categories import ORDER_LAST, Majority, Penalty
from referee.scoring.core import ScoringEntry, participant
from referee.scoring.state import scoring_entries
from referee.simulate import simulate_many

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------- the former forms


def _old_chest_parts(self: sk.Schatzkammer, state: GameState, round_no: int) -> Any:
    """Schatzkammer.scoring_parts before this step: the Majority at every scoring."""
    data = self.data(state)
    counts = {name: len(held) for name, held in data.on.items()}
    dirk = sum(data.dirk.values())

    def quantity(p: Any) -> int:
        if p.is_dirk:
            return dirk
        return int(counts.get(p.name, 0))

    table = sk.points_table()
    return ScoringParts(
        categories=(
            Majority(
                "chests",
                "chests",
                "Schatztruhen",
                sk.S_SCORE,
                quantity=quantity,
                table=lambda r: table.get(r, ()),
            ),
        )
    )


def _old_visible(self: sk.ChestScratch) -> Counter[str]:
    out: Counter[str] = Counter()
    for room in self.rooms:
        out.update(room or ())
    for held in self.on.values():
        out.update(held.values())
    out.update(self.dirk)
    out.update(self.pending)
    return out


def _old_colours(self: sk.Schatzkammer, state: Any, args: Any, pos: Any, who: Any) -> list[str]:
    out: list[str] = []
    for a in args:
        c = sk.parse_colour(a.value)
        if c is None:
            state.flag("CHEST-TOKEN", a.pos or pos, who, token=sk.token_text(a.value))
        else:
            out.append(c)
    return out


def _old_servant_parts(self: bed.Bedienstete, state: GameState, round_no: int) -> Any:
    """Bedienstete.scoring_parts before this step: a Penalty with a points function."""
    final = self.data(state).final if round_no == 3 else None

    def points(p: Any) -> tuple[int, str, str] | None:
        player = state.player_named(p.name)
        if player is None:
            return None
        if final is not None and p.name in final:
            n, lost = final[p.name]
            if n == 0:
                return None
            return (
                lost,
                f"{n} without a servant before the leftover tiles",
                f"{n} ohne Bediensteten vor dem Verteilen der restlichen Plättchen",
            )
        n = self.count_without_servant(state, player)
        if n == 0:
            return None
        return n, f"{n} without a servant", f"{n} ohne Bediensteten"

    line = Penalty(
        "servants",
        "servants",
        "Bedienstete",
        bed.S_SCORE,
        points,
        order=ORDER_LAST,
        floor=None if final is not None else "total",
    )
    return ScoringParts(categories=(line,))


def _old_draw(self: bed.Bedienstete, state: Any, args: Any, pos: Any) -> None:
    """Bedienstete._draw before this step (the token's text made for every token)."""
    data = self.data(state)
    total = bed.per_colour()
    for arg in args:
        apos = arg.pos or pos
        t = _old_parse_servant(arg.value)
        token = bed.token_text(arg.value)
        if t is None:
            state.flag("BEDIENSTETE-TOKEN", apos, token=token)
            continue
        if data.drawn[t] >= total[t]:
            state.flag("BEDIENSTETE-SUPPLY", apos, reason="colour-out", token=token, n=total[t])
            continue
        if len(data.open) >= bed.open_size():
            state.flag(
                "BEDIENSTETE-REFILL",
                apos,
                reason="too-many",
                shown=self._row(data.open),
                token=token,
                n=len(data.open) + 1,
            )
            continue
        data.drawn[t] += 1
        data.open.append(t)
        if len(data.open) >= bed.open_size():
            data.idle_start = True


def _old_parse_servant(value: object) -> Any:
    if not isinstance(value, ComponentRef) or value.kind.lower() != bed.KIND:
        return None
    try:
        return BuildingType(value.name.upper())
    except ValueError:
        return None


# ---------------------------------------------------------------------- games


def _example(name: str) -> str:
    return (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")


def _silent(name: str) -> list[str]:
    """Base example games with the module enabled and never used (no line of it: its setup
    lines missing are reported, nobody holds any of its pieces)."""
    out = []
    for game in ("game-3p", "game-4p"):
        text = (ROOT / "examples" / f"{game}.alh").read_text(encoding="utf-8")
        head, rest = text.split("\n", 1)
        out.append(f'{head}\n[Modules "{name}"]\n{rest}')
    return out


def _texts(name: str) -> list[str]:
    return [
        _example(name),
        *_silent(name),
        *simulate_many(3, 2700 + len(name), 2, modules=(name,)),
        *simulate_many(2, 2720 + len(name), 1, modules=(name,)),
    ]


def _outcome(texts: list[str]) -> list[Any]:
    out: list[Any] = []
    for text in texts:
        for game in parse_text(text):
            report = check_game(game)
            state = report.state
            views = None if state is None else repr(state.ext.views(state))
            out.append((repr(report), views))
    return out


def _states(texts: list[str]) -> list[GameState]:
    out = []
    for text in texts:
        for game in parse_text(text):
            state = check_game(game).state
            assert state is not None
            out.append(state)
    return out


def _module(state: GameState, cls: type) -> Any:
    return next(m for m in state.ext.modules if isinstance(m, cls))


def _people(state: GameState, round_no: int, parts: Any) -> list[Any]:
    return [participant(e) for e in scoring_entries(state, round_no, parts)]


def _same_category(new: Any, old: Any, state: GameState, people: list[Any]) -> None:
    for attr in ("key", "label_en", "label_de", "section", "order", "floor"):
        assert getattr(new, attr) == getattr(old, attr), attr
    for round_no in (1, 2, 3):
        got = new.score(round_no, people, state.profile)
        want = old.score(round_no, people, state.profile)
        assert list(got) == list(want)
        assert [repr(s) for s in got.values()] == [repr(s) for s in want.values()]
        assert got == want


# ---------------------------------------------------------------------- Die Schatzkammer


def test_the_chest_majority_nobody_holds_is_the_majority_s_answer() -> None:
    texts = [_example("schatzkammer"), *_silent("schatzkammer")]
    texts += list(simulate_many(2, 2731, 2, modules=("schatzkammer",)))
    kept = held = 0
    for state in _states(texts):
        module = _module(state, sk.Schatzkammer)
        data = module.data(state)
        # the state as checked, then with the chests taken away (nobody holds one), then
        # with a chest for Dirk only, with a Dirk entry of none, with empty player tables
        variants: list[tuple[dict[str, dict[Coord, str]], Counter[str]]] = [
            (data.on, data.dirk),
            ({}, Counter()),
            ({}, Counter({"G": 1})),
            ({p.name: {} for p in state.players}, Counter({"T": 0})),
        ]
        for on, dirk in variants:
            data.on, data.dirk = on, dirk
            for round_no in (1, 2, 3):
                new = module.scoring_parts(state, round_no)
                old = _old_chest_parts(module, state, round_no)
                nobody = not sum(dirk.values()) and not any(on.values())
                assert (new is sk._NONE_HELD_PARTS) is nobody
                kept += nobody
                held += not nobody
                assert len(new.categories) == 1 and not new.adjustments and new.table is None
                people = _people(state, round_no, new)
                _same_category(new.categories[0], old.categories[0], state, people)
    assert kept >= 12 and held >= 4


def test_the_not_ranked_answer_for_any_participants() -> None:
    """Any participants (Dirk or not, names twice): the answers of a Majority whose
    participants all hold 0."""
    old = _old_chest_parts(sk.Schatzkammer(), _FakeState(), 1).categories[0]
    new = sk._NONE_HELD_PARTS.categories[0]
    rng = random.Random(27)
    for _ in range(40):
        people = []
        for _k in range(rng.randint(0, 6)):
            name = rng.choice(["Anna", "Ben", "Cem", "Dirk", "anna"])
            dirk = name == "Dirk" and rng.random() < 0.7
            people.append(participant(ScoringEntry(name, counts={}, is_dirk=dirk)))
        _same_category(new, old, _FakeState(), people)


class _FakeState:
    """What the former chest scoring parts read of a state: the module's part."""

    def __init__(self) -> None:
        self.modules: dict[str, Any] = {"schatzkammer": sk.ChestScratch(rooms=[None] * 3)}
        self.players: list[Any] = []
        self.profile: Any = None


def test_the_known_chests_are_counted_as_before() -> None:
    rng = random.Random(2701)
    colours = list(sk.COLOURS)
    for _ in range(300):
        data = sk.ChestScratch()
        data.rooms = [
            rng.choice([None, [], [rng.choice(colours) for _ in range(rng.randint(1, 4))]])
            for _ in range(3)
        ]
        data.on = {
            name: {Coord(i, 0): rng.choice(colours) for i in range(rng.randint(0, 3))}
            for name in ("Anna", "Ben")[: rng.randint(0, 2)]
        }
        data.dirk = Counter({c: rng.randint(0, 2) for c in rng.sample(colours, rng.randint(0, 3))})
        data.pending = [rng.choice(colours) for _ in range(rng.randint(0, 3))]
        got, want = data.visible(), _old_visible(data)
        assert got == want
        assert list(got.items()) == list(want.items())  # (the same keys in the same order)
        assert data.bag_total(got) == data.bag_total(want)


def test_a_chest_letter_reads_as_parse_colour_reads_it() -> None:
    for text, colour in sk._COLOUR_TEXT.items():
        assert sk.parse_colour(text) == colour
    for text in ["g", "G", "x", "GG", "", "ſ", "ı", "1", "chests"]:
        assert sk._COLOUR_TEXT.get(text, sk.parse_colour(text)) == sk.parse_colour(text)


def test_schatzkammer_reports_as_with_the_former_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts("schatzkammer")
    # a chest line with a lower-case letter, a long s ("ſ": its upper case is S), a wrong
    # token and too many chests for the bag: the same findings either way
    example = _example("schatzkammer")
    first = example.index("* chests 1 ")
    end = example.index("\n", first)
    texts.append(example[:first] + "* chests 1 g ſ x T T" + example[end:])
    got = _outcome(texts)
    monkeypatch.setattr(sk.Schatzkammer, "scoring_parts", _old_chest_parts)
    monkeypatch.setattr(sk.ChestScratch, "visible", _old_visible)
    monkeypatch.setattr(sk.Schatzkammer, "_colours", _old_colours)
    assert _outcome(texts) == got


# ---------------------------------------------------------------------- Die Bediensteten


def test_the_servants_line_is_the_penalty_s_answer() -> None:
    texts = [_example("bedienstete"), *_silent("bedienstete")]
    texts += list(simulate_many(3, 2741, 2, modules=("bedienstete",)))
    lines = 0
    for state in _states(texts):
        module = _module(state, bed.Bedienstete)
        data = module.data(state)
        finals = [data.final, None]
        if state.players:  # a kept third-scoring penalty with a line, one without, a stranger
            finals.append(
                {state.players[0].name: (3, 2), state.players[-1].name: (0, 0), "Zoe": (1, 1)}
            )
        for final in finals:
            data.final = final
            for round_no in (1, 2, 3):
                new = module.scoring_parts(state, round_no)
                old = _old_servant_parts(module, state, round_no)
                assert len(new.categories) == 1 and not new.adjustments and new.table is None
                people = _people(state, round_no, new)
                _same_category(new.categories[0], old.categories[0], state, people)
                lines += len(new.categories[0].score(round_no, people, state.profile))
    assert lines >= 30


def test_a_servant_token_reads_as_before() -> None:
    names = ["G", "g", "T", "x", "", "GG", "sv", "ǵ", "p", "P", "A", "c", "S", "s"]
    for _ in range(2):  # (read twice: the second time from the names read before)
        for kind in ("sv", "SV", "xx"):
            for name in names:
                ref = ComponentRef(kind, name)
                assert bed.parse_servant(ref) == _old_parse_servant(ref)
    assert bed.parse_servant("sv:G") is None


def test_bedienstete_reports_as_with_the_former_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _texts("bedienstete")
    # a servants line with a lower-case code, a wrong token, a colour out and one too many
    example = _example("bedienstete")
    first = example.index("* servants ")
    end = example.index("\n", first)
    line = "* servants sv:g sv:X foo " + " ".join(["sv:P"] * 8) + " sv:T"
    texts.append(example[:first] + line + example[end:])
    got = _outcome(texts)
    assert any(
        "BEDIENSTETE-TOKEN" in report and "BEDIENSTETE-REFILL" in report for report, _v in got
    )
    monkeypatch.setattr(bed.Bedienstete, "scoring_parts", _old_servant_parts)
    monkeypatch.setattr(bed.Bedienstete, "_draw", _old_draw)
    assert _outcome(texts) == got
