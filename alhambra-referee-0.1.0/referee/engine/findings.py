"""What a check finds, as data: a rule code with parameters, or a point it cannot verify.

Checks are pure: they return :class:`Finding` values and never touch the state or build
message text. The driver that runs a check (:func:`report`) turns each finding into a
:class:`~referee.engine.rules.Violation` or :class:`~referee.engine.rules.Unverifiable` at its
place in the record, with the turn number the state is at; the message is rendered from the
rule's template in the message catalogue (:mod:`referee.messages`) only when it is shown, in the
language asked for.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from referee.engine.rules import Severity
from referee.record.model import Pos

TYPE_CHECKING = False
if TYPE_CHECKING:
    from referee.engine.state import GameState

UNVERIFIABLE = "UNVERIFIABLE"


@dataclass(frozen=True, slots=True)
class Finding:
    """A broken rule (``code`` of :data:`~referee.engine.rules.RULES`, with an optional
    ``reason``) or, with the code :data:`UNVERIFIABLE`, a point the record leaves open (its
    catalogue key in ``reason``). ``params`` are data; texts come from :mod:`referee.messages`."""

    code: str
    pos: Pos
    player: str | None = None
    params: Mapping[str, object] = field(default_factory=dict)
    severity: Severity = "error"
    reason: str | None = None

    @property
    def unverifiable(self) -> bool:
        return self.code == UNVERIFIABLE


def problem(
    code: str,
    pos: Pos,
    player: str | None = None,
    *,
    severity: Severity = "error",
    reason: str | None = None,
    **params: object,
) -> Finding:
    """A broken rule (``reason``: which of the rule's reason texts, ``CODE/reason``)."""
    return Finding(code, pos, player, params, severity, reason)


def unverifiable(pos: Pos, key: str, player: str | None = None, **params: object) -> Finding:
    """A point the record leaves open (reported, never a violation); ``key`` names its text
    in the catalogue (``UNVERIFIED-...``)."""
    return Finding(UNVERIFIABLE, pos, player, params, "error", key)


def report(state: GameState, findings: Iterable[Finding]) -> None:
    """Record findings on the state's report lists (violations and unverifiable points)."""
    for f in findings:
        if f.code == UNVERIFIABLE:
            state.note(f.pos, f.reason or f.code, f.player, **dict(f.params))
        else:
            state.flag(
                f.code, f.pos, f.player, severity=f.severity, reason=f.reason, **dict(f.params)
            )
