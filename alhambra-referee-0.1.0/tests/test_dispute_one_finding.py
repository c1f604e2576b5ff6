"""Issue 31, messages: "One mistake gives one finding: a refused purchase does not add
PLACE-MISSING for the tile; one missing refill line does not give a violation for every
following turn; BUY-UNDERPAID does not follow BUY-CURRENCY for the same card."

Rule texts (rulebook-base-de-2003.txt):
- § Am Ende Ihres Spielzuges: "Nachdem Sie Ihren Zug beendet haben, ist der nächste Spieler an
  der Reihe. Dazu werden nun fehlende Geldkarten und fehlende Gebäudeplättchen wieder auf
  jeweils vier Stück ergänzt." -- the cards and tiles were turned up even where the scribe did
  not write them: they are unknown from then on, not missing on every later turn.
- § Gebäudeplättchen kaufen und platzieren: Kaufen: "Dafür zahlt er mindestens den
  aufgedruckten Preis in der Währung, die der Bauhof für das gewählte Plättchen anzeigt."
"""

from __future__ import annotations

from pathlib import Path

from referee import check_game, parse_game

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"


def _codes(name: str, drop: list[int] | None = None, edits: list[tuple[str, str]] = []):  # type: ignore[no-untyped-def]  # noqa: B006
    lines = (EX / name).read_text(encoding="utf-8").splitlines()
    for n in sorted(drop or [], reverse=True):
        del lines[n - 1]
    text = "\n".join(lines) + "\n"
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    report = check_game(parse_game(text, name))
    return [(v.code, v.reason, v.line) for v in report.violations]


def _line_of(name: str, text: str, nth: int = 1) -> int:
    hits = [
        i
        for i, line in enumerate((EX / name).read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith(text)
    ]
    return hits[nth - 1]


def test_the_game_is_valid_as_written() -> None:
    assert _codes("game-3p.alh") == []


def test_one_missing_display_line_is_one_finding() -> None:
    """The scribe left out the display refill after turn 2 (`* display Gu8`): one
    REFILL-DISPLAY at the next turn; the card lies in the display unknown, so later turns
    and the take of Gu8 that the record writes later are no findings."""
    line = _line_of("game-3p.alh", "* display", 3)
    assert _codes("game-3p.alh", [line]) == [("REFILL-DISPLAY", "not-refilled", line)]


def test_one_missing_market_line_is_one_finding() -> None:
    """The scribe left out a market refill (`* market Di:C5`): one REFILL-MARKET; the field
    holds an unknown tile from then on (the record's later purchase of C5 is that tile)."""
    line = _line_of("game-3p.alh", "* market", 2)
    assert _codes("game-3p.alh", [line]) == [("REFILL-MARKET", "not-refilled", line)]


def test_a_refused_purchase_adds_no_place_missing() -> None:
    """Cem pays a Di tile with Gu9 and writes no placement: BUY-CURRENCY only. A purchase that
    is not refused still owes its placement (PLACE-MISSING)."""
    buy = "buy Di G8ne pay Di4 Di4, reserve G8ne"
    assert _codes("illegal-buy.alh", edits=[(buy, "buy Di G8ne pay Gu9")]) == [
        ("BUY-CURRENCY", None, 14)
    ]
    assert _codes("illegal-buy.alh", edits=[(buy, "buy Di G8ne pay Gu9, reserve G8ne")]) == [
        ("BUY-CURRENCY", None, 14)
    ]
    codes = _codes(
        "illegal-buy.alh",
        edits=[("* deal Cem De6 De5 Gu9", "* deal Cem De6 De5 Di9"), (buy, "buy Di G8ne pay Di9")],
    )
    assert codes == [("PLACE-MISSING", None, 14)]


def test_buy_underpaid_does_not_follow_buy_currency() -> None:
    """Gu9 on the Di field is the wrong currency: the same card is not also counted short."""
    buy = "buy Di G8ne pay Di4 Di4, reserve G8ne"
    codes = _codes("illegal-buy.alh", edits=[(buy, "buy Di G8ne pay De5, reserve G8ne")])
    assert [c for c, _, _ in codes] == ["BUY-CURRENCY"]


def test_a_refill_line_written_one_turn_late_is_one_finding() -> None:
    """The scribe wrote a refill after the next turn instead of before it: one finding (the
    refill was late), and the late line names the unknown card or tile (drawn once, so the
    bag and the deck stay right)."""
    assert _codes("illegal-refill.alh") == [("REFILL-DISPLAY", "not-refilled", 15)]
    line = _line_of("game-3p.alh", "* market", 2)
    assert _codes(
        "game-3p.alh",
        edits=[
            ("* market Di:C5\n13. Cem: buy Du S3 pay Du3, take Di9, place S3@0,-1\n", ""),
            (
                "* display Du9, market Du:T7\n",
                "13. Cem: buy Du S3 pay Du3, take Di9, place S3@0,-1\n"
                "* display Du9, market Du:T7\n* market Di:C5\n",
            ),
        ],
    ) == [("REFILL-MARKET", "not-refilled", line)]
