"""What a check finds, as data: a rule code with parameters, or a point it cannot verify.

Checks are pure: they return :class:`Finding` values and never touch the state or build
message text. The driver that runs a check (:func:`report`) turns each finding into a
:class:`~referee.engine.rules.Violation` or :class:`~referee.engine.rules.Unverifiable` at its
place in the record, with the turn number the state is at; the message is rendered from the
rule's template (:mod:`referee.engine.rules`) only when it is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from referee.engine.rules import Severity
from referee.record.model import Pos

if TYPE_CHECKING:
    from referee.engine.state import GameState

UNVERIFIABLE = "UNVERIFIABLE"


@dataclass(frozen=True, slots=True)
class Finding:
    """A broken rule (``code`` of :data:`~referee.engine.rules.RULES`) or, with the code
    :data:`UNVERIFIABLE`, a point the record leaves open (``params`` ``en``/``de``)."""

    code: str
    pos: Pos
    player: str | None = None
    params: Mapping[str, object] = field(default_factory=dict)
    severity: Severity = "error"

    @property
    def unverifiable(self) -> bool:
        return self.code == UNVERIFIABLE


def problem(
    code: str,
    pos: Pos,
    player: str | None = None,
    *,
    severity: Severity = "error",
    **params: object,
) -> Finding:
    """A broken rule."""
    return Finding(code, pos, player, params, severity)


def unverifiable(pos: Pos, en: str, de: str, player: str | None = None) -> Finding:
    """A point the record leaves open (reported, never a violation)."""
    return Finding(UNVERIFIABLE, pos, player, {"en": en, "de": de})


def report(state: GameState, findings: Iterable[Finding]) -> None:
    """Record findings on the state's report lists (violations and unverifiable points)."""
    for f in findings:
        if f.code == UNVERIFIABLE:
            state.note(f.pos, str(f.params["en"]), str(f.params["de"]), f.player)
        else:
            state.flag(f.code, f.pos, f.player, severity=f.severity, **dict(f.params))
