"""Pieces whose walls are stated at each placement (extension point E6 of the modules digest).

Base tiles never turn. Some module pieces may be turned freely whenever they are built in
("Bei jedem Einbau darf das Gebäude dann beliebig gedreht werden": magic buildings; later
bathhouses, wells): the record then states the walls *as placed* (``place mg:P9ws@1,0``), and
the referee checks that they are one of the four rotations of the printed walls, then applies
every building rule to the piece as turned.

A piece takes part by stating (``referee/geometry/pieces.py`` describes the attributes):

* ``rotatable = True`` and ``printed_walls`` (the walls as printed, in any one orientation);
* ``stated_walls(ref) -> frozenset[Side] | None``: the walls a placing token states (None:
  not stated; the module knows its token);
* ``turned(walls) -> piece``: the same piece lying with these walls;
* optionally ``rotation_rule``: the module's rule code for a wrong rotation (default
  ``PLACE-ROTATION``); its message gets ``tile``, ``printed``, ``stated``, ``allowed``.

A piece whose orientation is more than its walls (a bathhouse names a building type on each
side, a well's spout points one way) provides ``orient_by_token(ref, pos, player) -> (piece,
findings)`` (the piece as the placing token states it) and ``orientations()`` (each distinct
orientation, for the legal-move generator) instead.

A piece that does not turn (``rotatable`` False) but has ``stated_walls`` (a medina token may
repeat its walls) is checked the same way against its one orientation: a token stating other
walls is the module's ``rotation_rule`` (a tile stated two ways).

:func:`orient` is called wherever a piece enters an Alhambra (bought and placed, built from the
reserve, swapped in, handed out at the end); :func:`rotations` serves the legal-move generator
(one move per distinct rotation).
"""

from __future__ import annotations

from referee.catalogue import SIDES, Side, TileKind
from referee.engine.findings import Finding, problem, unverifiable
from referee.engine.rules import BIGBOX, Rule, register_rule
from referee.messages import register_both
from referee.record.model import ComponentRef, Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_CLOCKWISE = {Side.N: Side.E, Side.E: Side.S, Side.S: Side.W, Side.W: Side.N}


def turn_once(walls: frozenset[Side]) -> frozenset[Side]:
    """The walls after a quarter turn clockwise (north becomes east)."""
    return frozenset(_CLOCKWISE[s] for s in walls)


def rotations(walls: frozenset[Side]) -> list[frozenset[Side]]:
    """The distinct orientations of a wall set, starting with ``walls`` itself, turning
    clockwise (one for no walls or four walls, two for opposite walls, else four)."""
    out = [frozenset(walls)]
    cur = frozenset(walls)
    for _ in range(3):
        cur = turn_once(cur)
        if cur not in out:
            out.append(cur)
    return out


def walls_text(walls: frozenset[Side]) -> str:
    """``ne``; ``x`` for no wall."""
    return "".join(s.value.lower() for s in SIDES if s in walls) or "x"


def is_rotatable(piece: object) -> bool:
    return getattr(piece, "rotatable", False) is True


def placements(piece: Any) -> list[Any]:
    """The piece in each of its distinct orientations (the piece itself when it cannot turn)."""
    own = getattr(piece, "orientations", None)  # a piece that turns by more than its walls
    if own is not None:
        return list(own())
    if not is_rotatable(piece):
        return [piece]
    return [piece.turned(w) for w in rotations(piece.printed_walls)]


def orient(piece: Any, ref: object, pos: Pos, player: str | None) -> tuple[Any, list[Finding]]:
    """The piece as the record says it lies, and the findings: a stated orientation that is no
    rotation of the printed walls breaks the piece's rotation rule; a missing one is noted
    (the piece keeps the walls it had: as printed, or as it lay before). A module piece that
    cannot turn but whose token may state walls (``stated_walls``) must be stated as it is."""
    if type(piece) is TileKind:  # a catalogue tile lies as printed: nothing to read
        return piece, []
    own = getattr(piece, "orient_by_token", None)
    if piece is not None and own is not None:
        # a piece whose orientation is more than its walls (a bathhouse's side types, a
        # well's spout): it reads the placing token itself and reports with its own rule
        got: tuple[Any, list[Finding]] = own(ref, pos, player)
        return got
    if piece is None or not hasattr(piece, "stated_walls"):
        return piece, []
    rotatable = is_rotatable(piece)
    stated = piece.stated_walls(ref) if isinstance(ref, ComponentRef) else None
    if stated is None:
        if not rotatable:
            return piece, []
        return piece, [unverifiable(pos, "UNVERIFIED-ORIENTATION", player, tile=str(piece.code))]
    allowed = rotations(piece.printed_walls) if rotatable else [frozenset(piece.walls)]
    found: list[Finding] = []
    if stated not in allowed:
        found.append(
            problem(
                getattr(piece, "rotation_rule", "PLACE-ROTATION"),
                getattr(ref, "pos", None) or pos,
                player,
                tile=str(piece.code),
                printed=walls_text(getattr(piece, "printed_walls", piece.walls)),
                stated=walls_text(stated),
                allowed=", ".join(walls_text(w) for w in allowed),
            )
        )
    return (piece.turned(stated) if rotatable else piece), found


register_rule(
    Rule(
        "PLACE-ROTATION",
        "not a rotation of the printed tile",
        "keine Drehung des aufgedruckten Plättchens",
        f"{BIGBOX} (pieces that may be turned when built in)",
        "{tile} placed with walls {stated}: the printed walls {printed} can only lie as {allowed}",
        "{tile} mit Mauern {stated} gelegt: die aufgedruckten Mauern {printed} können nur als "
        "{allowed} liegen",
    )
)
register_both(
    en={
        "UNVERIFIED-ORIENTATION": "{tile} may be turned when built in, but the record does not "
        "state its walls as placed: it is taken to lie as before (as printed when new)",
    },
    de={
        "UNVERIFIED-ORIENTATION": "{tile} darf beim Einbau gedreht werden, aber die Mitschrift "
        "nennt die Mauern nicht, wie es liegt: es wird angenommen, dass es wie zuvor liegt "
        "(neu: wie aufgedruckt)",
    },
)
