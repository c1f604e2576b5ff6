"""Die Künste der Mauren: the base-building count per price class is kept with each Alhambra
(issue 34, "inside the modules"); it must equal a fresh count at every moment of a game, on
copies of the state and after a building left the Alhambra (rulebook-bigbox-de-2019.txt § DIE
KÜNSTE DER MAUREN, L2212-2215: "Besitzt ein Spieler ... mindestens 2 Gebäude ... des gleichen
Preises")."""

from __future__ import annotations

from collections import Counter

from referee.catalogue import TileKind
from referee.engine.state import PlayerState
from referee.engine.walk import walk
from referee.modules.mauren import base_buildings, price_class
from referee.notation import parse_text
from referee.simulate import simulate_text


def fresh(player: PlayerState, typed: bool) -> Counter[int]:
    """The count as the module made it before it was kept: every piece looked at again."""
    out: Counter[int] = Counter()
    for piece in [p for _c, p in player.alhambra.items()] + list(player.reserve):
        if isinstance(piece, TileKind) and piece.type is not None:
            out[price_class(piece.price)] += 1
        elif typed and getattr(piece, "type", None) is not None:
            price = getattr(piece, "price", None)
            if isinstance(price, int):
                out[price_class(price)] += 1
    return out


def test_the_kept_count_equals_a_fresh_count_at_every_step_and_on_copies() -> None:
    game = parse_text(simulate_text(4, 11, modules=("mauren",)))[0]
    steps = 0
    for step in walk(game, snapshots=False):
        for player in step.state.players:
            for typed in (False, True):
                assert base_buildings(player, typed) == fresh(player, typed)
                assert list(base_buildings(player, typed)) == list(fresh(player, typed))
        steps += 1
    assert steps > 50
    # a copy keeps the count, and a change of the copy leaves the original's alone
    state = step.state
    player = max(state.players, key=lambda p: len(p.alhambra))
    before = base_buildings(player)
    trial = state.copy()
    moved = trial.players[player.index]
    at = next(c for c, p in moved.alhambra.items() if isinstance(p, TileKind))
    piece = moved.alhambra.remove(at)
    assert base_buildings(moved) == fresh(moved, False)
    assert base_buildings(moved)[price_class(piece.price)] == before[price_class(piece.price)] - 1
    assert base_buildings(player) == before == fresh(player, False)
    moved.alhambra.place(at, piece)
    assert base_buildings(moved) == before
