"""Every rule parameter changes a verdict or a score: the same record, two profiles.

Each test names the texts the two values come from (see docs/profiles.md for the quotes).
Records are short (a setup and a turn or two; the engine accepts a record that just ends) or
the complete two-player examples in examples/.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from referee.catalogue import Side, catalogue
from referee.engine import GameReport, check_game
from referee.geometry import Alhambra
from referee.notation import parse_text
from referee.profiles import PARAMETERS, RuleProfile, load_profile, parse_profile
from referee.record.model import Coord
from referee.scoring import ScoringEntry, score_round

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
QUEEN = RuleProfile()


def profile(**changes: object) -> RuleProfile:
    return dataclasses.replace(QUEEN, name="test", **changes)  # type: ignore[arg-type]


def check(text: str, prof: RuleProfile | str | None) -> GameReport:
    games = parse_text(text, "t.alh")
    assert len(games) == 1 and not games[0].errors, games[0].errors
    return check_game(games[0], load_profile(prof) if isinstance(prof, str) else prof)


def errors(report: GameReport) -> list[str]:
    return [v.code for v in report.violations if v.severity == "error"]


def warnings(report: GameReport) -> list[str]:
    return [v.code for v in report.violations if v.severity == "warning"]


HEAD = '[Players "Anna, Ben"]\n[Youngest "Ben"]\n\n'
MARKET = "* market Gu:S9 Di:C11 De:P4 Du:T13\n* dirk P2 P3 S3 A4 A5 C5\n"

# Ben (youngest) is dealt first and has the fewest cards: he starts by every profile.
BASE = (
    HEAD + "* deal Ben Gu9 Di9 Di2\n"
    "* deal Anna De5 Du5 De4 Du6\n"
    "* display Gu1 Di1 De1 Du2\n" + MARKET + "start Ben\n"
    "1. Ben: buy Gu S9 pay Gu9, buy Di C11 pay Di9 Di2, take Gu1 Di1 De1 Du2,"
    " reserve S9, reserve C11\n"
    "* display Gu3 Di3 De3 Du3, market Gu:G6 Di:G7\n"
    "2. Anna: buy De P4 pay De4, take Gu3, place P4@1,0\n"
    "* display Gu4, market De:T7\n"
)


def test_the_short_record_is_legal_by_every_bundled_profile() -> None:
    for name in ("queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"):
        assert errors(check(BASE, name)) == [], name


# ---------------------------------------------------------------- start player, deal order


# Equal card counts; Anna has the lower total, Ben is the youngest.
TIE = (
    HEAD + "* deal Ben Gu9 Di9 De4\n"  # 3 cards, 22
    "* deal Anna Gu8 Di8 De4\n"  # 3 cards, 20
    "* display Gu1 Di1 De1 Du2\n" + MARKET
)


def test_start_tiebreak() -> None:
    # 2003 [Spielvorbereitung]: fewest cards, then the lower total, then the youngest.
    # Piatnik [A játék előkészítése]: fewest cards, then the younger player.
    anna = TIE + "start Anna\n1. Anna: take Gu1\n* display Gu2\n"
    ben = TIE + "start Ben youngest\n1. Ben: take Gu1\n* display Gu2\n"
    assert "SETUP-START" not in errors(check(anna, profile(start_tiebreak="cards-total-youngest")))
    assert "SETUP-START" in errors(check(anna, profile(start_tiebreak="cards-youngest")))
    assert "SETUP-START" in errors(check(ben, profile(start_tiebreak="cards-total-youngest")))
    assert "SETUP-START" not in errors(check(ben, profile(start_tiebreak="cards-youngest")))
    assert "SETUP-START" in errors(check(anna, "piatnik-hu"))


def test_deal_first() -> None:
    # Piatnik [A játék előkészítése]: the youngest draws the start money first.
    older_first = (
        HEAD + "* deal Anna De5 Du5 De4 Du6\n"
        "* deal Ben Gu9 Di9 Di2\n"
        "* display Gu1 Di1 De1 Du2\n" + MARKET + "start Ben\n"
    )
    assert errors(check(older_first, profile(deal_first="any"))) == []
    assert errors(check(older_first, profile(deal_first="youngest"))) == ["SETUP-DEAL-ORDER"]
    assert "SETUP-DEAL-ORDER" in errors(check(older_first, "piatnik-hu"))
    assert errors(check(BASE, profile(deal_first="youngest"))) == []


# --------------------------------------------------------------------- money and payment


def test_two_player_money_copies() -> None:
    # 2003 [Sonderregel für das Spiel zu zweit]: one of the three copies is removed (72 cards).
    three = HEAD + (
        "* deal Ben Gu9 Gu9 Gu9\n"
        "* deal Anna De5 Du5 De4 Du6\n"
        "* display Gu1 Di1 De1 Du2\n" + MARKET + "start Ben\n"
    )
    assert errors(check(three, profile(two_player_money_copies=2))) == ["CARD-SUPPLY"]
    assert errors(check(three, profile(two_player_money_copies=3))) == []
    two = three.replace("Gu9 Gu9 Gu9", "Gu9 Gu9 Di9")
    assert errors(check(two, profile(two_player_money_copies=1))) == ["CARD-SUPPLY"]
    assert errors(check(two, profile(two_player_money_copies=2))) == []


SUPERFLUOUS = BASE.replace("buy Gu S9 pay Gu9,", "buy Gu S9 pay Gu9 Gu1,").replace(
    "take Gu1 Di1 De1 Du2, reserve S9, reserve C11", "reserve S9"
)


def test_overpay_superfluous() -> None:
    # 2003 [Kaufen]: „mindestens den aufgedruckten Preis" - no limit on the cards; house rules
    # warn about or forbid a card that could be left out.
    text = (
        HEAD + "* deal Ben Gu9 Di9 Gu2\n"
        "* deal Anna De5 Du5 De4 Du6\n"
        "* display Gu1 Di1 De1 Du2\n" + MARKET + "start Ben\n"
        "1. Ben: buy Gu S9 pay Gu9 Gu2, reserve S9\n"
        "* market Gu:G6\n"
    )
    allowed = check(text, profile(overpay_superfluous="allowed"))
    warn = check(text, profile(overpay_superfluous="warn"))
    illegal = check(text, profile(overpay_superfluous="illegal"))
    assert errors(allowed) == [] and warnings(allowed) == []
    assert errors(warn) == [] and len(warnings(warn)) == 1
    assert errors(illegal) == ["BUY-SUPERFLUOUS"]
    assert warnings(warn) == ["BUY-SUPERFLUOUS"]
    assert warn.valid and not illegal.valid
    # paying 11 for a 9 with Gu9 + Gu2 is no superfluous card when no card can be left out
    needed = text.replace("Gu9 Di9 Gu2", "Gu8 Di9 Gu3").replace("pay Gu9 Gu2", "pay Gu8 Gu3")
    assert errors(check(needed, profile(overpay_superfluous="illegal"))) == []


# ------------------------------------------------------------------------------ reserve


def test_reserve_limit() -> None:
    # 2003 [Platzieren]: „beliebig viele"; the review: „Bis zu vier Gebäudeteile haben hier Platz."
    assert errors(check(BASE, profile(reserve_limit=None))) == []
    assert errors(check(BASE, profile(reserve_limit=2))) == []
    assert "RESERVE-LIMIT" in errors(check(BASE, profile(reserve_limit=1)))


# -------------------------------------------------------------------------------- gifts


def test_gifts() -> None:
    # 2003 [Sonderregel für das Spiel zu zweit]: gifts to Dirk only; the review [2.]: „kann man
    # einem dritten Spieler ein gerade gekauftes Gebäude … auch schenken".
    text = BASE.replace("reserve S9, reserve C11", "give S9 Anna, give C11 dirk")
    assert "GIFT-NOT-ALLOWED" in errors(check(text, profile(gifts="dirk-only")))
    assert errors(check(text, profile(gifts="any-player"))) == []
    three = (
        '[Players "Anna, Ben, Cem"]\n[Youngest "Ben"]\n\n'
        "* deal Ben Gu9 Di9 Di2\n"
        "* deal Cem Gu8 Di8 De5\n"
        "* deal Anna De5 Du5 De4 Du6\n"
        "* display Gu1 Di1 De1 Du2\n"
        "* market Gu:S9 Di:C11 De:P4 Du:T13\n"
        "start Ben\n"
        "1. Ben: buy Gu S9 pay Gu9, take Gu1, give S9 Cem\n"
        "* display Gu3, market Gu:G6\n"
    )
    assert "GIFT-NOT-ALLOWED" in errors(check(three, profile(gifts="dirk-only")))
    assert errors(check(three, profile(gifts="any-player"))) == []
    assert errors(check(three.replace("give S9 Cem", "give S9 dirk"), profile(gifts="any-player")))


# -------------------------------------------------------------------- scoring-card piles


POOL = [  # money cards for the reveals (no card more than twice in the record)
    "Gu7",
    "Di7",
    "De7",
    "Du7",
    "Gu8",
    "Di8",
    "De8",
    "Du8",
    "Gu6",
    "Di6",
    "De6",
    "Gu5",
    "Di5",
    "Du4",
    "De2",
    "Gu2",
    "Di4",
    "De9",
    "Du9",
    "Du3",
]


def _w1_after(reveals: int) -> str:
    """BASE, then turns that each take one card, ``reveals`` more cards revealed, then W1."""
    display = ["Di3", "De3", "Du3", "Gu4"]  # after BASE
    lines = [BASE.rstrip("\n")]
    players = ["Ben", "Anna"]
    for k in range(reveals + 1):
        card = display.pop(0)
        lines.append(f"{3 + k}. {players[k % 2]}: take {card}")
        if k < reveals:
            display.append(POOL[k])
            lines.append(f"* display {POOL[k]}")
        else:
            lines.append(f"* display W1 {POOL[k]}")
    lines.append("scoring 1")
    lines.append("* dirk T8 G8sw G9 A6ne C6 T10")
    return "\n".join(lines) + "\n"


def test_pile_tolerance() -> None:
    # 2003 [Spielvorbereitung]: „fünf etwa gleichhohe Stapel" - how rough is a parameter.
    # 72 - 7 dealt - 4 displayed = 61 cards after setup: a fifth is 12.2 cards.
    # The turns of BASE reveal 5 money cards; W1 turns up after 7.
    text = _w1_after(2)
    tight = check(text, profile(pile_tolerance=0.25))  # W1 after 9 to 32 cards
    loose = check(text, profile(pile_tolerance=0.5))  # W1 after 6 to 38 cards
    assert "SCORING-CARD-PILE" in errors(tight)
    assert "SCORING-CARD-PILE" not in errors(loose)


def test_scoring_card_placement() -> None:
    # 2003: shuffled into pile 2; Piatnik: on top of pile 2 (after exactly one pile).
    hu = (EXAMPLES / "two-player-piatnik-hu.alh").read_text(encoding="utf-8")
    shuffled = profile(scoring_card_placement="shuffled")
    top = profile(scoring_card_placement="top")
    # on top of a pile is one of the shuffled outcomes too
    assert "SCORING-CARD-PILE" not in errors(check(hu, top))
    assert "SCORING-CARD-PILE" not in errors(check(hu, shuffled))
    text = _w1_after(14)  # after 19 cards: inside pile 2 but past its top (9 to 16)
    assert "SCORING-CARD-PILE" not in errors(check(text, shuffled))
    assert "SCORING-CARD-PILE" in errors(check(text, top))


# ------------------------------------------------------------------------- Dirk's third


def test_dirk_second_draw() -> None:
    # 2003: a third of the bag, rounded down; Piatnik: 2 tiles.
    hu = (EXAMPLES / "two-player-piatnik-hu.alh").read_text(encoding="utf-8")
    assert "DIRK-DRAW" not in errors(check(hu, profile(dirk_second_draw=2)))
    assert "DIRK-DRAW" in errors(check(hu, profile(dirk_second_draw=None)))
    assert "DIRK-DRAW" in errors(check(hu, profile(dirk_second_draw=3)))


# ------------------------------------------------------------------------------- walls


def _tile(code: str):
    return next(t for t in catalogue().tiles if t.full_code == code)


def _ring() -> Alhambra:
    """The fountain inside a closed ring of 8 tiles: 12 outer-wall edges on 8 tiles."""
    return Alhambra(
        [
            (Coord(-1, 1), _tile("T9nw")),
            (Coord(0, 1), _tile("A8n")),
            (Coord(1, 1), _tile("G8ne")),
            (Coord(1, 0), _tile("A8e")),
            (Coord(1, -1), _tile("T9es")),
            (Coord(0, -1), _tile("C9s")),
            (Coord(-1, -1), _tile("A6sw")),
            (Coord(-1, 0), _tile("C9w")),
        ]
    )


def _wall_points(prof: RuleProfile) -> int:
    result = score_round(1, [ScoringEntry("Anna", alhambra=_ring())], prof)
    row = result.rows[0]
    assert row.wall is not None
    return row.wall.points


def test_the_ring_is_closed() -> None:
    ring = _ring()
    outer = sum(1 for c, p in ring.items() for s in p.walls if ring.get(c.neighbour(s)) is None)
    assert outer == 12
    assert {s for _c, p in ring.items() for s in p.walls} == set(Side)


def test_wall_run() -> None:
    # 2003 [Siegpunkte für die Außenmauern]: a closed ring is one connected piece: 12 points;
    # the online implementation counts the longest simple path: 11.
    assert _wall_points(profile(wall_run="trail")) == 12
    assert _wall_points(profile(wall_run="simple-path")) == 11
    assert _wall_points(load_profile("bga")) == 11


def test_wall_points() -> None:
    # 2003: one point per tile edge; the review: „Pro Gebäudeplättchen … einen Punkt".
    assert _wall_points(profile(wall_points="edge")) == 12
    assert _wall_points(profile(wall_points="tile")) == 8


# ----------------------------------------------------------------------------- game end


def test_game_end() -> None:
    # 2003 [Spielende]: the game ends when the market cannot be completely refilled; the online
    # implementation ends it as soon as the bag runs out during a refill.
    queen = (EXAMPLES / "two-player-queen-2003.alh").read_text(encoding="utf-8")
    bga = (EXAMPLES / "two-player-bga.alh").read_text(encoding="utf-8")
    assert errors(check(queen, profile(game_end="market-incomplete"))) == []
    late = errors(check(queen, profile(game_end="bag-empty")))
    assert late and set(late) == {"TURN-AFTER-END"}
    assert errors(check(bga, load_profile("bga"))) == []
    assert errors(check(bga, profile(game_end="bag-empty", wall_run="simple-path"))) == []
    early = errors(check(bga, profile(game_end="market-incomplete", wall_run="simple-path")))
    assert "END-EARLY" in early


# ------------------------------------------------------------------------------ wording


def test_tile_supply_changes_no_verdict_and_no_score() -> None:
    # The Big Box draws from a tower instead of a bag: the same rules (wording only).
    text = (EXAMPLES / "two-player-bigbox-2019.alh").read_text(encoding="utf-8")
    bag = check(text, profile(tile_supply="bag"))
    tower = check(text, profile(tile_supply="tower"))
    assert errors(bag) == errors(tower)
    assert bag.result == tower.result


def test_every_parameter_is_covered_here() -> None:
    covered = {
        "scoring_card_placement",
        "pile_tolerance",
        "start_tiebreak",
        "deal_first",
        "tile_supply",
        "two_player_money_copies",
        "dirk_second_draw",
        "reserve_limit",
        "gifts",
        "overpay_superfluous",
        "wall_run",
        "wall_points",
        "game_end",
        "extra_action",
        "treasure_hand_short",  # tests/test_module_schaetze.py
        "edition",  # tests/test_edition_waechter.py
        "guard_scoring",  # tests/test_edition_waechter.py
        "dirk_second_thirds",  # tests/test_edition_waechter.py
    }
    assert covered == set(PARAMETERS)


def test_extra_action_optional_or_compulsory() -> None:
    # 2003 [Kaufen]: „ist man sogar noch einmal an der Reihe" — a right (optional) or a duty.
    from conftest import SETUP

    text = SETUP.format(players="Anna, Ben, Cem", modules="") + (
        "1. Ben: buy Di A9 pay Di9, place A9@1,0\n"
    )
    assert "TURN-EXTRA-ACTION" not in errors(check(text, profile(extra_action="optional")))
    assert "TURN-EXTRA-ACTION" in errors(check(text, profile(extra_action="compulsory")))


def test_a_user_profile_file_reaches_the_engine(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text("extends: queen-2003\nreserve_limit: 1\n", encoding="utf-8")
    assert "RESERVE-LIMIT" in errors(check(BASE, load_profile(path)))
    assert "RESERVE-LIMIT" in errors(check(BASE, parse_profile("reserve_limit: 1\n", "x.yaml")))
