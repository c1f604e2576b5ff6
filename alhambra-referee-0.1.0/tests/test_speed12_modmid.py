"""The tenth step's changes to Die Obstgärten (issue 34), each held to the code it replaced (kept
below as it was on ``main`` at 1e08d89):

* the refill's ``fruit`` line reads a field's code and a fruit as mostly written by one look-up
  each (else as ``_currency`` and ``_fruit`` read them);
* a purchase's and a claim's hook find the fruit on the bought building's own field without
  ``field_under`` (whose answer that is);
* a fruit line's plan lets a free field of its kind through inline and is kept for its change
  by the line and its player, cleared by every step that changes what a plan reads, instead of
  keyed by the engine's change counter (the module no longer reads ``GameState.changes``);
* a board group's fields are looked for in C (``orchard_points``).

Every finding, unverifiable note, result, winner, view and the module's part at the game's end
are the same as with the former code, over the module's example with lines left out, records
with random edits and simulated games (alone and with Handwerker's market swaps, Wesir's and
Sultan's purchases out of turn, Wechselgeld's change).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import CURRENCIES, Currency, TileKind
from referee.engine import GameReport, check_game
from referee.engine.findings import Finding, problem
from referee.engine.state import GameState, PlayerState
from referee.modules import obstgaerten as og
from referee.modules.base import field_under, token_text
from referee.notation import parse_text
from referee.record.model import ComponentRef, Game, ModuleAction, ModuleChance
from referee.simulate.fuzz import mutate_record
from tests.purchase_onepass_support import chosen
from tests.test_speed11_modrest import _orchard_part, _outcome, _texts


def _part(rep: GameReport) -> tuple[Any, ...] | None:
    """The module's part at the game's end as tests/test_speed11_modrest.py compares it (None:
    an edit left the module out)."""
    state = rep.state
    if state is None or "obstgaerten" not in state.modules:
        return None
    return _orchard_part(rep)


# ----------------------------------------------------------------------------- the former code


def _former_orchard_points(
    board: int, fields: dict[int, int], face_down: int, layout: og.Layout | None = None
) -> tuple[int, str, str]:
    full: list[int] = []
    i = 1
    for pts, kinds in layout or og.BOARDS[board]:
        if all(i + j in fields for j in range(len(kinds))):
            full.append(pts)
        i += len(kinds)
    total = sum(full) + face_down
    parts = "+".join(str(p) for p in full) or "0"
    return total, f"groups {parts}, {face_down} face down", f"Gruppen {parts}, {face_down} verdeckt"


def _former_chance(self: og.Obstgaerten, state: GameState, event: ModuleChance) -> list[Any]:
    verb = event.verb.lower()
    if verb == og.ORCHARD:
        self._boards(state, event)
    elif verb == og.FRUITBOARD:
        self._layout_line(state, event)
    else:
        _former_fruits(self, state, event)
    return []


def _former_fruits(self: og.Obstgaerten, state: GameState, event: Any) -> None:
    data = self.data(state)
    args = event.args
    if not args or len(args) % 2:
        state.flag("FRUIT-DRAW", event.pos, reason="syntax")
        return
    for i in range(0, len(args), 2):
        where, what = args[i], args[i + 1]
        pos = where.pos or event.pos
        cur = og._currency(where.value)
        kind = og._fruit(what.value)
        if cur is None:
            state.flag("FRUIT-DRAW", pos, reason="syntax")
            continue
        if kind is None:
            state.flag("FRUIT-TOKEN", what.pos or pos, token=token_text(what))
            continue
        slot = og._SLOT[cur]
        tile = state.market[slot] if 0 <= slot < len(state.market) else None
        if not isinstance(tile, TileKind):
            state.flag("FRUIT-DRAW", pos, reason="no-tile", field=cur.code)
            continue
        if data.on_market.get(slot) is not None:
            state.flag(
                "FRUIT-DRAW", pos, reason="has-fruit", field=cur.code, kind=data.on_market[slot]
            )
            continue
        data.drawn[kind] += 1
        if data.drawn[kind] > og.PER_KIND:
            state.flag("FRUIT-SUPPLY", what.pos or pos, kind=kind)
        data.on_market[slot] = kind
        data.under[slot] = tile


def _former_plan(
    self: og.Obstgaerten, state: GameState, player: PlayerState, action: ModuleAction
) -> tuple[list[Finding], og._Lay]:
    data = state.modules.get(self.name) or self._kept(state)
    args, pos, who = action.args, action.pos, player.name
    lay = og._Lay()
    if len(args) != 2:
        return [problem("FRUIT-TOKEN", pos, who, token=" ".join(token_text(a) for a in args))], lay
    kind = og._fruit(args[0].value)
    if kind is None:
        return [problem("FRUIT-TOKEN", args[0].pos or pos, who, token=token_text(args[0]))], lay
    held = data.pending.get(who, [])
    lay.take = kind if kind in held else None
    if kind not in held and None not in held:
        shown = " ".join(f"fr:{k}" for k in held if k) or "-"
        lay.take = False
        return [problem("FRUIT-NOT-HELD", pos, who, kind=kind, held=shown)], lay
    where = args[1].value
    board = data.boards.get(who)
    if board is None:
        return [problem("FRUIT-FIELD", pos, who, reason="no-board", kind=kind, field=where)], lay
    out: list[Finding] = []
    lay.board = board
    stated = board in data.used or board in data.layouts
    if not stated and self.option("boards") == "stated":
        out.append(problem("ORCHARD-LAYOUT", pos, who, reason="missing", board=board, name=who))
    taken = data.fields.get(who, {})
    kinds = og._kinds_of(data, board)
    if isinstance(where, str) and where.lower() in og.DOWN:
        free = og._free_field(kinds, taken, kind)
        if free is not None:
            out.append(problem("FRUIT-FACEDOWN", pos, who, kind=kind, free=free))
        lay.down = True
        return out, lay
    wrong = og._field_problem(kinds, taken, kind, where, board)
    if wrong is not None:
        out.append(problem("FRUIT-FIELD", pos, who, **wrong))
    elif isinstance(where, int):
        lay.field, lay.kind = where, kind
    return out, lay


def _former_check_verb(
    self: og.Obstgaerten, ctx: Any, player: PlayerState, action: ModuleAction
) -> list[Finding]:
    found, _lay = _former_plan(self, ctx.state, player, action)
    return found


def _former_action(
    self: og.Obstgaerten, state: GameState, player: PlayerState, action: ModuleAction
) -> list[Any]:
    """The former change, planned afresh every time (what the kept plan stood for)."""
    data = state.modules.get(self.name) or self._kept(state)
    data.planned = None
    lay = _former_plan(self, state, player, action)[1]
    if lay.take is not False:
        name = player.name
        held = data.pending.setdefault(name, [])
        held.remove(lay.take)
        if not held:
            del data.pending[name]
            if data.boards.get(name) is not None:
                data.fields.setdefault(name, {})
    if lay.board is not None:
        data.used.add(lay.board)
    if lay.down:
        data.face_down[player.name] = data.face_down.get(player.name, 0) + 1
    if lay.field is not None:
        data.fields.setdefault(player.name, {})[lay.field] = lay.kind
    return []


def _former_on_purchase(self: og.Obstgaerten, ctx: Any, purchase: Any) -> None:
    if purchase.slot is None:
        return
    data = self.data(ctx.state)
    slot = field_under(data.on_market, data.under, purchase.slot, purchase.tile)
    data.under.pop(slot, None)
    data.followed = ()
    if slot in data.on_market:
        data.pending.setdefault(purchase.player.name, []).append(data.on_market.pop(slot))


def _former_after_plain_purchase(self: og.Obstgaerten, state: GameState, buy: Any) -> None:
    data = self.data(state)
    slot = field_under(data.on_market, data.under, buy.slot, buy.tile)
    data.under.pop(slot, None)
    data.followed = ()
    if slot in data.on_market:
        data.pending.setdefault(buy.player.name, []).append(data.on_market.pop(slot))


def _former_market_taken(
    self: og.Obstgaerten, state: GameState, slot: int, piece: Any, player: PlayerState
) -> None:
    data = self.data(state)
    slot = field_under(data.on_market, data.under, slot, piece)
    data.under.pop(slot, None)
    data.followed = ()
    if slot not in data.on_market:
        return
    kind = data.on_market.pop(slot)
    if kind is not None and data.drawn[kind] > 0:
        data.drawn[kind] -= 1


def _former(mp: pytest.MonkeyPatch) -> None:
    mp.setattr(og, "orchard_points", _former_orchard_points)
    mp.setattr(og.Obstgaerten, "kept_idle", frozenset())  # (the former code kept no answer)
    for name, step in (
        ("chance", _former_chance),
        ("_fruits", _former_fruits),
        ("_plan", _former_plan),
        ("check_verb", _former_check_verb),
        ("action", _former_action),
        ("on_purchase", _former_on_purchase),
        ("after_plain_purchase", _former_after_plain_purchase),
        ("market_taken", _former_market_taken),
    ):
        mp.setattr(og.Obstgaerten, name, step)


# ----------------------------------------------------------------------------- the games

# lines the simulator never writes: fields and fruits spelt otherwise, wrong tokens, a field
# without a building or with a fruit already, fruits laid wrongly
_ODD_LINES = (
    "* fruit gu fr:01",
    "* fruit DI fr:3 De fr:9",
    "* fruit Xx fr:2",
    "* fruit Gu FR:4",
    "* fruit Gu bd:2",
    "* fruit Du",
)


def _edited(texts: list[str], seed: int) -> list[str]:
    """Copies with random edits (deleted, swapped, edited lines) and with odd lines put in."""
    rng = random.Random(seed)
    out = [mutate_record(rng, t, edits=1 + i % 4) for i, t in enumerate(texts * 2)]
    for i, text in enumerate(texts):
        lines = text.splitlines()
        at = [j for j, line in enumerate(lines) if line.startswith("* fruit ")]
        if not at:
            continue
        j = at[len(at) // 2]
        odd = _ODD_LINES[i % len(_ODD_LINES)]
        out.append("\n".join([*lines[: j + 1], odd, *lines[j + 1 :]]) + "\n")
        turn = next((k for k in range(j, len(lines)) if lines[k][:1].isdigit()), None)
        if turn is not None:  # a fruit line of the turn spelt wrongly
            wrong = ("fruit fr:9 3", "fruit fr:2 down", "fruit fr:3 99", "fruit Fr:3 1")[i % 4]
            lines[turn] = lines[turn] + ", " + wrong
            out.append("\n".join(lines) + "\n")
        # a fruit laid by its line onto a field that does not exist, face down, or spelt ``Fr``
        for k, (field, fruit) in enumerate((("99", ""), ("down", ""), ("0", ""), ("", "Fr"))):
            laid = [n for n, line in enumerate(lines) if ", fruit fr:" in line]
            if len(laid) > k:
                n = laid[(k * 7 + i) % len(laid)]
                head, _, tail = lines[n].rpartition(", fruit fr:")
                kind, _, rest = tail.partition(" ")
                where = field or rest.split(",")[0]
                more = rest.partition(",")[2]
                lines2 = list(lines)
                lines2[n] = f"{head}, fruit {fruit or 'fr'}:{kind} {where}" + (
                    f",{more}" if more else ""
                )
                out.append("\n".join(lines2) + "\n")
    return out


def _parsed(texts: list[str]) -> list[Game]:
    """Each game of ``texts``, read once for the checks that compare them (the records are
    frozen: a check changes none); a text the reader refuses gives none."""
    out: list[Game] = []
    for text in texts:
        try:
            out += parse_text(text)
        except Exception:  # an edit the reader refuses: no game to compare
            continue
    return out


def _checked(games: list[Game]) -> list[GameReport | str]:
    """Each game's report; a check that fails (an edit can write a token the module does not
    survive, e.g. a fruit of 5,000 digits: ``int`` refuses it, before and after this step) by
    its exception's type."""
    out: list[GameReport | str] = []
    for g in games:
        try:
            out.append(check_game(g))
        except Exception as exc:  # (compared: the same failure before)
            out.append(type(exc).__name__)
    return out


def _reports(texts: list[str]) -> list[GameReport | str]:
    """Each game's report (:func:`_checked`) of ``texts`` read anew."""
    return _checked(_parsed(texts))


# The copies each test checks, by their index among its different texts (the example, its
# copies, the simulated games, then the edited copies): the others ran no line of ``referee``
# (with the code as it is and with the former code) that these do not (coverage, one context a
# text, on main at 350ea36: bench/README.md, issue 34, eighteenth step, one-pass tests).
KEPT = {  # by the modules played with Die Obstgärten
    (): (
        0,
        1,
        12,
        15,
        16,
        17,
        18,
        19,
        20,
        21,
        22,
        24,
        28,
        29,
        30,
        31,
        34,
        36,
        38,
        39,
        40,
        41,
        42,
        44,
        48,
        57,
        71,
        75,
        104,
        116,
        133,
    ),
    ("handwerker",): (
        12,
        13,
        18,
        20,
        21,
        23,
        24,
        25,
        26,
        28,
        30,
        31,
        32,
        33,
        37,
        39,
        42,
        43,
        44,
        47,
        48,
        57,
        75,
        104,
        133,
    ),
    ("wesir", "sultan"): (
        12,
        13,
        15,
        17,
        18,
        19,
        21,
        22,
        24,
        25,
        26,
        28,
        29,
        30,
        31,
        32,
        33,
        34,
        36,
        37,
        38,
        39,
        41,
        42,
        47,
        68,
        70,
        132,
    ),
    ("handwerker", "wechselgeld"): (
        12,
        13,
        15,
        18,
        19,
        21,
        24,
        25,
        26,
        27,
        28,
        29,
        30,
        31,
        32,
        34,
        35,
        36,
        38,
        40,
        41,
        42,
        43,
        47,
        50,
        56,
        70,
        74,
        131,
    ),
}
KEPT_PLAN = (
    13,
    15,
    16,
    17,
    18,
    19,
    20,
    21,
    23,
    24,
    25,
    26,
    27,
    28,
    29,
    32,
    34,
    35,
    36,
    41,
    42,
    43,
    44,
    51,
    63,
    69,
    72,
    75,
    130,
)


@pytest.mark.parametrize(
    "with_", [(), ("handwerker",), ("wesir", "sultan"), ("handwerker", "wechselgeld")]
)
def test_obstgaerten_reports_as_the_former_code(
    with_: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = 12400 + len(with_) * 7 + len("".join(with_))
    texts = _texts("obstgaerten", seed, 3, with_)
    games = _parsed(chosen(texts + _edited(texts, seed), KEPT[with_]))  # (read once, checked
    # twice)
    now = _checked(games)
    with pytest.MonkeyPatch.context() as mp:
        _former(mp)
        before = _checked(games)
    assert len(now) == len(before) > 10
    codes = set()
    for a, b in zip(now, before, strict=True):
        if isinstance(a, str) or isinstance(b, str):
            assert a == b
            continue
        assert _outcome(a) == _outcome(b)
        assert _part(a) == _part(b)
        codes |= {v.code for v in a.violations}
    if not with_:  # the odd lines were read and reported
        assert {"FRUIT-DRAW", "FRUIT-TOKEN", "FRUIT-NOT-HELD", "FRUIT-FIELD"} <= codes


def test_a_kept_plan_is_the_plan_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wherever a fruit line's change uses the plan its check kept, planning it afresh in that
    state gives the same (the plan is cleared by every step changing what it reads)."""
    used = {"kept": 0, "afresh": 0}
    plan = og.Obstgaerten._plan

    def watched(self: og.Obstgaerten, state: GameState, player: Any, action: Any) -> list[Any]:
        data = state.modules.get(self.name)
        kept = data.planned if data is not None else None
        if kept is not None and kept[0] is action and kept[1] is player:
            used["kept"] += 1
            assert vars(plan(self, state, player, action)[1]) == vars(kept[2])
        else:
            used["afresh"] += 1
        return action_step(self, state, player, action)

    action_step = og.Obstgaerten.action
    texts = _texts("obstgaerten", 12480, 3, ("handwerker",))  # (made before the watch)
    games = _parsed(chosen(texts + _edited(texts, 12480), KEPT_PLAN))
    monkeypatch.setattr(og.Obstgaerten, "action", watched)
    _checked(games)
    assert used["kept"] > 20


def test_a_kept_plan_is_cleared_by_a_bought_fruit() -> None:
    """A plan kept by a fruit line's check is not used after a step that changed the bought
    fruits (here a purchase's hook): the change plans again."""
    text = (
        '[Event "t"]\n[Players "Anna, Ben"]\n[Modules "obstgaerten"]\n\n'
        "* orchard Anna bd:1 Ben bd:2\n"
    )
    game = parse_text(text)[0]
    state = check_game(game).state
    assert state is not None
    module = next(m for m in state.ext.modules if isinstance(m, og.Obstgaerten))
    data = module.data(state)
    anna = state.players[0]
    line = ModuleAction("fruit", ())
    data.planned = (line, anna, og._Lay(take=3))
    data.pending["Ben"] = [2]
    module._lay_default(state, "Ben", data)
    assert data.planned is None


# ----------------------------------------------------------------------------- the readers


@pytest.mark.parametrize(
    "text", ["Gu", "gu", "GU", "gU", "Di", "di", "DI", "De", "de", "DE", "Du", "du", "DU", "Xx", ""]
)
def test_a_field_code_is_read_as_the_currency(text: str) -> None:
    cur = Currency.of_code(text)
    assert og._SLOT_OF_CODE.get(text, None if cur is None else og._SLOT[cur]) == (
        None if cur is None else CURRENCIES.index(cur)
    )
    if cur is not None:
        assert og._CODES[og._SLOT[cur]] == cur.code


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(sorted(og.BOARDS)),
    st.dictionaries(st.integers(0, 30), st.integers(1, 7), max_size=25),
    st.integers(0, 5),
)
def test_a_board_is_scored_as_before(board: int, fields: dict[int, int], down: int) -> None:
    assert og.orchard_points(board, fields, down) == _former_orchard_points(board, fields, down)


def test_a_fruit_token_is_read_by_its_look_up_as_by_fruit() -> None:
    for kind in ("fr", "FR", "Fr", "bd"):
        for name in ("1", "7", "8", "01", "0", "x", ""):
            ref = ComponentRef(kind, name)
            fast = og._FRUIT_OF.get(ref.name) if ref.kind == og.FR else None
            assert (og._fruit(ref) if fast is None else fast) == og._fruit(ref)
