"""The rules of the geometry layers (E20-E24) and the re-validation of a whole Alhambra (E21).

Registered here with their texts in English and German (the base building rules live in the
catalogue of :mod:`referee.messages`); the checks themselves are in
:mod:`referee.geometry.general`.

- ``PLACE-SIDE`` (Die Feldlager, captions: "Nicht erlaubt: Bastion oder grüne Seite an Bastion",
  "Grüne Seite oder Bastion an Gebäudeseite ohne Stadtmauer"; "Erlaubt: Grüne Seite an grüne
  Seite sowie Bastion an Stadtmauer");
- ``PLACE-CLOSED`` (Die Wachtürme, caption: "An die lange Seite des Wachturmplättchens darf
  nichts angebaut werden");
- ``REMOVE-LOCKED`` (Die Tore der Stadt: "Weder ein platziertes Stadttor noch die beiden
  darunter liegenden Gebäudeplättchen dürfen umgebaut werden"; Die Wachtürme: never redesigned);
- ``LAYOUT-BROKEN`` (Die Mauern: "Auch nach dem Bauen einer Mauer muss die Alhambra gemäß den
  Bauregeln aufgebaut sein"): a change that is no placement (a wall added, a piece put on or
  taken off an edge or a corner) leaves the Alhambra breaking a building rule; the finding
  names the rule.
"""

from __future__ import annotations

from referee.engine.findings import Finding, problem
from referee.engine.rules import BASE, BIGBOX, Rule, register_rule
from referee.messages import register_both

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.engine.state import PlayerState
    from referee.record.model import Pos

S_BUILD = f"{BASE} § Alhambra-Bauregeln"
S_REDESIGN = f"{BASE} § Alhambra umbauen"

register_rule(
    Rule(
        "PLACE-SIDE",
        "sides that may not meet",
        "unzulässig aneinanderliegende Seiten",
        f"{BIGBOX} § Die Feldlager",
        "the {tile} at {at} meets {cells} with a side it may not meet: a bastion must meet "
        "a city wall, a green side only a green side",
        "{tile} auf {at} grenzt mit einer unzulässigen Seite an {cells}: eine Bastion muss an "
        "eine Stadtmauer grenzen, eine grüne Seite nur an eine grüne Seite",
    )
)
register_rule(
    Rule(
        "PLACE-CLOSED",
        "nothing may be built on this side",
        "an dieser Seite darf nichts angebaut werden",
        f"{BIGBOX} § Die Wachtürme",
        "the {tile} at {at} touches {cells} at a closed side: nothing may lie there (the long "
        "side of a watchtower)",
        "{tile} auf {at} berührt {cells} an einer geschlossenen Seite: dort darf nichts liegen "
        "(die lange Seite eines Wachturms)",
    )
)
register_rule(
    Rule(
        "REMOVE-LOCKED",
        "locked against redesign",
        "gegen Umbau gesperrt",
        f"{BIGBOX} § Die Tore der Stadt",
        "the tile at {at} may not be redesigned: a piece locks {cells}",
        "das Plättchen auf {at} darf nicht umgebaut werden: ein Teil sperrt {cells}",
    )
)
register_rule(
    Rule(
        "LAYOUT-BROKEN",
        "the Alhambra breaks a building rule after a change",
        "die Alhambra verletzt nach einer Änderung eine Bauregel",
        f"{BIGBOX} § Die Mauern",
        "{player}: after {change} the Alhambra breaks the {rule} ({cells}): {summary}",
        "{player}: nach {change} verletzt die Alhambra die Regel „{rule}“ ({cells}): {summary}",
    )
)
register_both(
    {
        "GEOMETRY:PLACE-SIDE": "a bastion or green side meets a side it may not meet",
        "GEOMETRY:PLACE-CLOSED": "something lies on a side where nothing may be built",
        "GEOMETRY:REMOVE-LOCKED": "a piece locks this tile against redesign",
    },
    {
        "GEOMETRY:PLACE-SIDE": "eine Bastion oder grüne Seite grenzt an eine unzulässige Seite",
        "GEOMETRY:PLACE-CLOSED": "an einer Seite, an der nichts angebaut werden darf, liegt etwas",
        "GEOMETRY:REMOVE-LOCKED": "ein Teil sperrt dieses Plättchen gegen Umbau",
    },
)


def layout_now(p: PlayerState) -> list[Any]:
    """What the building rules say about ``p``'s whole Alhambra now (before a change: pass it
    to :func:`revalidate` so that only what the change breaks is reported)."""
    from referee.geometry import layout_problems

    if p.counts is not None or p.alhambra_unknown:
        return []
    return layout_problems(p.alhambra)


def revalidate(
    p: PlayerState, pos: Pos, change: str, before: list[Any] | None = None
) -> list[Finding]:
    """The whole Alhambra of ``p`` checked again after a change that is no placement (E21):
    one ``LAYOUT-BROKEN`` finding per building rule it breaks, naming the rule and the cells.
    ``change`` says what changed (``"wall @1,0 N"``), as written in the record; ``before``:
    :func:`layout_now` before the change (what was broken already is not reported again)."""
    from referee.engine.rules import rule

    out: list[Finding] = []
    known = set(before or ())
    for pr in layout_now(p):
        if pr in known:
            continue
        out.append(
            problem(
                "LAYOUT-BROKEN",
                pos,
                p.name,
                change=change,
                rule=_RuleName(rule(pr.code)),
                cells=", ".join(str(c) for c in pr.cells),
                summary=_Summary(pr.code),
                broken=pr.code,
            )
        )
    return out


class _RuleName:
    """A rule's name as a message parameter, in the language the message is shown in."""

    def __init__(self, r: Rule) -> None:
        self.r = r

    def text(self, lang: str = "en") -> str:
        return self.r.name(lang)


class _Summary:
    def __init__(self, code: str) -> None:
        self.code = code

    def text(self, lang: str = "en") -> str:
        from referee.messages import lookup

        return lookup(lang, f"GEOMETRY:{self.code}") or self.code
