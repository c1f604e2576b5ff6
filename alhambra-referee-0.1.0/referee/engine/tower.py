"""Module tiles in the tile tower (extension point E5 of the modules digest).

Several modules mix their own tiles into the tower ("werden mit den übrigen Gebäuden gemischt
und in den Plättchenturm gelegt": magic buildings, medinas, bazaars, bathhouses, wells, plots).
A module declares them with :meth:`~referee.engine.extensions.Module.tower_components`
(identity -> count); the engine

* adds them to the tiles in the tower when the game is set up (:func:`fill_tower`), so the
  game end ("nicht mehr komplett aufgefüllt"), Dirk's third ("ein Drittel ... der noch im Turm
  verbliebenen Plättchen") and ``TILE-SUPPLY`` count them;
* resolves a component token drawn from the tower (``* market Gu:md:5n``, ``* dirk mg:P9n``,
  a position's market or Dirk's tiles) through the owning module's
  :meth:`~referee.engine.extensions.Module.tower_piece` (:func:`draw_from_tower`): the piece
  lies on the market field or with Dirk, is bought, placed, reserved, given to Dirk and
  redesigned like a tile (it has ``walls``, ``type``, ``price``, ``code`` and ``matches``);
* keeps the supply: one copy fewer per draw; a draw past the count is ``TILE-SUPPLY``
  (reason ``module-used-up``: more tiles than exist).

``state.tower`` holds the module tiles not yet seen, keyed ``module:identity``.
"""

from __future__ import annotations

from referee.catalogue import catalogue
from referee.engine.state import decrement
from referee.messages import register_both

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.extensions import Module
    from referee.engine.state import GameState
    from referee.record.model import ComponentRef, Pos


def tower_key(module: Module, identity: str) -> str:
    return f"{module.name}:{identity}"


def fill_tower(state: GameState) -> None:
    """Put every enabled module's tower tiles into the tower (at the start of a game), after
    the base tiles they replace left it (:meth:`~referee.engine.extensions.Module.tower_replaces`:
    back into the box)."""
    by_code = None
    for m in state.ext.modules:
        for code, n in m.tower_replaces().items():
            if by_code is None:
                by_code = {t.code.lower(): t for t in catalogue().tiles}
            kind = by_code.get(code.lower())
            if kind is None:
                raise ValueError(f"module {m.name}: {code} is no base tile")
            out = min(n, state.bag.get(kind, 0))
            if out > 0:
                state.bag[kind] -= out
                state.bag_count -= out
    for m in state.ext.modules:
        for identity, n in m.tower_components().items():
            if n > 0:
                state.tower[tower_key(m, identity)] += n
                state.bag_count += n


def tower_total(state: GameState, module: Module) -> int:
    """How many of ``module``'s tiles are still in the tower (unseen)."""
    prefix = f"{module.name}:"
    return sum(n for k, n in state.tower.items() if k.startswith(prefix))


def take_from_tower(
    state: GameState, module: Module, identity: str, token: str, pos: Pos, player: str | None = None
) -> bool:
    """One of ``module``'s tiles ``identity`` has been seen (drawn, or stated in a position):
    one fewer in the tower. More than exist is reported (``TILE-SUPPLY``); False then."""
    key = tower_key(module, identity)
    if state.tower[key] <= 0:
        total = module.tower_components().get(identity, 0)
        state.flag(
            "TILE-SUPPLY",
            pos,
            player,
            reason="module-used-up",
            tile=token,
            count=total,
            module=module.name,
        )
        return False
    decrement(state.tower, key)
    return True


def draw_from_tower(state: GameState, ref: ComponentRef, pos: Pos) -> object | None:
    """The piece a component token drawn from the tower names (its module resolves it), with
    the supply kept; None when no enabled module owns the token (reported) or the module
    could not read it."""
    m = state.ext.kind_handler(ref.kind)
    if m is None:
        from referee.engine.core import unhandled_component

        unhandled_component(state, ref, ref.pos or pos)
        return None
    if not m.tower_components():  # e.g. a square: its module has no tiles in the tower
        state.flag(
            "TILE-SUPPLY",
            ref.pos or pos,
            reason="not-in-tower",
            tile=f"{ref.kind}:{ref.name}",
            module=m.name,
        )
        return None
    got = m.tower_piece(state, ref, ref.pos or pos)
    if got is None:
        return None
    identity, piece = got
    take_from_tower(state, m, identity, f"{ref.kind}:{ref.name}", ref.pos or pos)
    return piece


def is_tower_piece(piece: object) -> bool:
    """A module tile that came out of the tower: bought and given like a tile (it has a
    price), as opposed to pieces taken otherwise (a square)."""
    return getattr(piece, "from_tower", False) is True


register_both(
    en={
        "TILE-SUPPLY/module-used-up": "{tile}: the module {module} has {count} such tile(s), "
        "and all of them are already out of the tower (more tiles than exist)",
        "TILE-SUPPLY/not-in-tower": "{tile} is no tile of the tower: the module {module} mixes "
        "none of its pieces into it",
    },
    de={
        "TILE-SUPPLY/module-used-up": "{tile}: das Modul {module} hat {count} solche(s) "
        "Plättchen, und alle sind schon aus dem Turm (mehr Plättchen als es gibt)",
        "TILE-SUPPLY/not-in-tower": "{tile} ist kein Plättchen aus dem Turm: das Modul {module} "
        "mischt keine seiner Teile hinein",
    },
)
