"""Issue 34, twenty-first step (helper "silentc"): Schatzkammer, Angreifer, Stadttore and
Marktplatz when silent, cheaper without a verdict changed (bench/README.md, "Issue 34,
twenty-first step: silent Schatzkammer, Angreifer, Stadttore, Marktplatz, Wechselgeld").

- Der Marktplatz states the kinds of placement its ``placed`` hook acts at
  (``Module.placed_hows``: ``build``, ``swap``); the engine tells it of no other, and builds no
  context for a placement nobody is told of. The same reports as with every placement told.
- Die Tore der Stadt keeps the turn's start as a copy of the cell table (no pair per tile);
  "the tiles laid in this turn" read from it are those the pairs gave.
- Die Angreifer note an exact one-pass purchase (a scout may be earned) as before: the same
  notes, reports and views.
- Die Schatzkammer counts the chests out of the bag once per refill line: the same findings.

Each test checks the module's example (and a copy with a line changed) against the old code,
put back with ``monkeypatch``: a few games, no corpus (the suite's time budget).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _example(name: str) -> str:
    return (ROOT / "examples" / f"module-{name}.alh").read_text(encoding="utf-8")


def _report(text: str) -> Any:
    from referee.api import check_game, parse_game

    return check_game(parse_game(text))


def _views(text: str) -> str:
    """The report and the module views at the end (EN and DE) of a game."""
    from referee.engine import replay
    from referee.notation import parse_text

    (game,) = parse_text(text)
    state, _found = replay(game)
    return repr(state.ext.views(state)) + repr(state.ext.views(state, "de"))


# ------------------------------------------------------------------ Marktplatz


def _told(monkeypatch: Any) -> Counter[str]:
    """Count the kinds of placement Marktplatz's ``placed`` is told of (the module's method,
    wrapped: the engine's own calls go through it, compiled or not)."""
    from referee.modules.marktplatz import Marktplatz

    told: Counter[str] = Counter()
    hook = Marktplatz.placed

    def counted(self: Any, ctx: Any, player: Any, at: Any, piece: Any, how: str) -> None:
        told[how] += 1
        hook(self, ctx, player, at, piece, how)

    monkeypatch.setattr(Marktplatz, "placed", counted)
    return told


def test_marktplatz_is_told_of_builds_and_swaps_only_with_the_same_report(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from referee.modules.marktplatz import Marktplatz

    text = _example("marktplatz")
    told = _told(monkeypatch)
    now = _report(text)
    assert told["build"] >= 2  # turns 17 and 32 build from under a market tile
    assert set(told) <= {"build", "swap"}
    monkeypatch.setattr(Marktplatz, "placed_hows", None)  # every placement told, as before
    told.clear()
    assert repr(_report(text)) == repr(now)
    assert told["place"] > 0 and told["build"] >= 2


def test_extensions_keep_the_modules_told_per_kind_of_placement() -> None:
    from referee.engine.extensions import Extensions

    ext = Extensions(["marktplatz", "palastplaner"])
    by_name = {m.name: m for m in ext.modules}
    assert ext.placing == (by_name["marktplatz"], by_name["palastplaner"])
    assert ext._placing_how["place"] == (by_name["palastplaner"],)
    assert ext._placing_how["build"] == ext.placing
    assert Extensions([])._placing_how == {}
    assert ext.placing_place == (by_name["palastplaner"],)
    alone = Extensions(["marktplatz"])
    assert alone._placing_how["distribute"] == () and alone.placing_place == ()
    assert alone.placing  # (a build from the reserve is still told)


# ------------------------------------------------------------------ Stadttore


def _old_fresh(self: Any, state: Any, player: Any) -> set[Any]:
    """Stadttore._fresh as it was (the start's (cell, piece) pairs in a set)."""
    before = state.turn_start.get(player.index)  # (the engine's since issue 34's 22nd step)
    if before is None:
        return set()
    old = set(before.items() if isinstance(before, dict) else before)
    return {c for c, piece in player.alhambra.items() if (c, piece) not in old}


def test_stadttore_reads_the_new_tiles_as_the_pairs_did(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from referee.modules.stadttore import Stadttore

    text = _example("stadttore")
    # the first gate left out: its tile waits for it at the turn's end (GATE-MISSING)
    cut = text.replace(", gate @-1,-3 e", "", 1)
    assert cut != text
    fresh: list[tuple[frozenset[Any], frozenset[Any]]] = []
    new = Stadttore._fresh

    def both(self: Any, state: Any, player: Any) -> set[Any]:
        got = new(self, state, player)
        fresh.append((frozenset(got), frozenset(_old_fresh(self, state, player))))
        return got

    monkeypatch.setattr(Stadttore, "_fresh", both)
    reports = [repr(_report(t)) for t in (text, cut)]
    assert fresh and all(a == b for a, b in fresh)
    assert any(a for a, _b in fresh)  # some turn laid a tile read as new
    assert "GATE-MISSING" in reports[1] and "GATE-MISSING" not in reports[0]
    monkeypatch.setattr(Stadttore, "_fresh", _old_fresh)
    assert [repr(_report(t)) for t in (text, cut)] == reports


def test_stadttore_snapshot_is_a_cell_table_and_pairs_read_the_same() -> None:
    from referee.engine import replay
    from referee.notation import parse_text

    (game,) = parse_text(_example("stadttore"))
    state, _found = replay(game)
    mod = next(m for m in state.ext.modules if m.name == "stadttore")
    # (the engine keeps the tables since issue 34's twenty-second step: GameState.turn_start)
    kept = state.turn_start
    assert kept and all(type(v) is dict for v in kept.values())
    for p in state.players:
        if p.index in kept:
            assert mod._fresh(state, p) == _old_fresh(mod, state, p)


# ------------------------------------------------------------------ Angreifer


def _old_after_plain(self: Any, state: Any, buy: Any) -> None:
    """Angreifer.after_plain_purchase as it was."""
    from referee.modules.angreifer import _earn, _turn_key

    btype = getattr(buy.tile, "type", None)
    if buy.exact and btype is not None and state.turn is not None:
        _earn(self.data(state).earned, (buy.player.name, btype.value, _turn_key(state), True))


def test_angreifer_notes_exact_purchases_as_before(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from referee.modules.angreifer import Angreifer

    text = _example("angreifer")
    notes: list[Any] = []
    new = Angreifer.after_plain_purchase

    def noted(self: Any, state: Any, buy: Any) -> None:
        new(self, state, buy)
        notes.append(list(self.data(state).earned))

    monkeypatch.setattr(Angreifer, "after_plain_purchase", noted)
    now = repr(_report(text)), _views(text)
    assert any(notes)  # exact purchases noted
    fast = list(notes)
    notes.clear()
    monkeypatch.setattr(Angreifer, "after_plain_purchase", _wrap_old(notes))
    assert (repr(_report(text)), _views(text)) == now
    assert notes == fast


def _wrap_old(notes: list[Any]) -> Any:
    def old(self: Any, state: Any, buy: Any) -> None:
        _old_after_plain(self, state, buy)
        notes.append(list(self.data(state).earned))

    return old


# ------------------------------------------------------------------ Schatzkammer


def _old_check_bag(self: Any, state: Any, drawn: list[str], pos: Any) -> None:
    """Schatzkammer._check_bag as it was (the chests out of the bag counted per question)."""
    from referee.modules.schatzkammer import colour_text, per_colour

    data = self.data(state)
    left = data.bag_total()
    if len(drawn) > left:
        state.flag("CHEST-SUPPLY", pos, reason="bag-total", n=len(drawn), left=left)
        return
    for c, n in sorted(Counter(drawn).items()):
        most = data.bag_most(c)
        if n > most:
            state.flag(
                "CHEST-SUPPLY",
                pos,
                reason="bag",
                n=n,
                colour=colour_text(c),
                left=most,
                total=per_colour()[c],
            )


def test_schatzkammer_bag_findings_as_before(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from referee.modules.schatzkammer import Schatzkammer

    text = _example("schatzkammer")
    # the setup's third room with more pavilions than the bag holds (5, one in room 1), and
    # with one more chest than a room takes
    texts = [
        text,
        text.replace("* chests 3 G G G T\n", "* chests 3 P P P P P\n", 1),
        text.replace("* chests 3 G G G T\n", "* chests 3 G G G T P\n", 1),
    ]
    assert len(set(texts)) == 3
    now = [repr(_report(t)) for t in texts]
    assert "CHEST-SUPPLY" in now[1] and "CHEST-SUPPLY" not in now[0]
    monkeypatch.setattr(Schatzkammer, "_check_bag", _old_check_bag)
    assert [repr(_report(t)) for t in texts] == now
