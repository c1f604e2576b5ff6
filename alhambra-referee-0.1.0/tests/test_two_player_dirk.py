"""The two-player game with Dirk, checked through the engine on complete example games.

rulebook-base-de-2003.txt, "Sonderregel für das Spiel zu zweit":
  „Es werden bei Spielbeginn 6 zufällig gezogene Gebäudeteile für Dirk beiseite gelegt"
  „Unmittelbar nach der 1. Wertung bekommt Dirk 6 weitere Plättchen"
  „Nach der 2. Wertung bekommt Dirk nochmals Gebäudeplättchen. Doch diesmal nicht unbedingt 6
   Stück sondern ein Drittel – abgerundet – der noch im Beutel verbliebenen Plättchen."
  „Sie dürfen das Gebäudeplättchen auch Dirk schenken."
rulebook-base-hu-piatnik.txt, "Játékvariáció két játékos részére": Dirk ("Sanyi") gets „csak 2
db-ot" (only 2) after the second scoring.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import BuildingType
from referee.engine import GameReport, check_game, replay
from referee.notation import parse_text
from referee.profiles import RuleProfile, load_profile
from referee.record.model import Game
from referee.scoring import ScoringEntry, ScoringRow, score_round

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GAMES = {
    "queen-2003": EXAMPLES / "two-player-queen-2003.alh",
    "queen-bigbox-2019": EXAMPLES / "two-player-bigbox-2019.alh",
    "piatnik-hu": EXAMPLES / "two-player-piatnik-hu.alh",
    "bga": EXAMPLES / "two-player-bga.alh",
}


def text_of(profile: str) -> str:
    return GAMES[profile].read_text(encoding="utf-8")


def game_of(text: str, source: str = "t.alh") -> Game:
    games = parse_text(text, source)
    assert len(games) == 1
    assert not games[0].errors, games[0].errors
    return games[0]


def check(text: str, profile: str | RuleProfile | None = None) -> GameReport:
    prof = load_profile(profile) if isinstance(profile, str) else profile
    return check_game(game_of(text), prof)


def codes(report: GameReport) -> list[tuple[str, int]]:
    return [(v.code, v.line) for v in report.violations if v.severity == "error"]


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def line_no(text: str, pattern: str, nth: int = 0) -> int:
    """1-based number of the nth line matching ``pattern`` (a regex)."""
    hits = [i + 1 for i, line in enumerate(lines_of(text)) if re.match(pattern, line)]
    return hits[nth]


def dirk_lines(text: str) -> list[int]:
    return [i + 1 for i, line in enumerate(lines_of(text)) if line.startswith("* dirk ")]


def edit_line(text: str, number: int, new: str) -> str:
    lines = lines_of(text)
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def drop_last_tile(text: str, number: int) -> str:
    line = lines_of(text)[number - 1]
    return edit_line(text, number, line.rsplit(" ", 1)[0])


def bag_before(text: str, number: int) -> int:
    """Tiles in the bag just before line ``number`` (the engine's own count)."""
    state, _ = replay(game_of(text), until_line=number - 1)
    return state.bag_count


# ------------------------------------------------------------------------ the examples


@pytest.mark.parametrize("profile", list(GAMES))
def test_each_example_is_a_complete_legal_game(profile: str) -> None:
    report = check(text_of(profile))  # the profile named in the record's header
    assert report.profile == profile
    assert codes(report) == []
    assert report.valid and report.complete
    claimed = re.search(r'\[Result "([^"]+)"\]', text_of(profile))
    assert claimed is not None
    expected = {n: int(s) for n, s in (p.rsplit(" ", 1) for p in claimed.group(1).split(", "))}
    assert report.result == expected
    assert [s.round for s in report.scorings] == [1, 2, 3]
    dirk_rows = [r for s in report.scorings for r in s.rows if r.is_dirk]
    assert len(dirk_rows) == 3
    # „eine Außenmauer wird für ihn jedoch nicht gewertet"
    assert all(r.wall is None for r in dirk_rows)


@pytest.mark.parametrize("profile", list(GAMES))
def test_the_examples_draw_six_then_six_then_the_due_count(profile: str) -> None:
    text = text_of(profile)
    draws = [len(lines_of(text)[n - 1].split()) - 2 for n in dirk_lines(text)]
    assert draws[:2] == [6, 6]
    third = dirk_lines(text)[2]
    left = bag_before(text, third)
    due = 2 if profile == "piatnik-hu" else left // 3
    assert draws[2] == due
    # the draws come right after scoring 1 and scoring 2
    assert lines_of(text)[dirk_lines(text)[1] - 2].startswith("scoring 1")
    assert lines_of(text)[third - 2].startswith("scoring 2")


@pytest.mark.parametrize("profile", list(GAMES))
def test_every_example_gives_tiles_to_dirk(profile: str) -> None:
    assert len(gifts_in(text_of(profile))) >= 1


# --------------------------------------------------------------------- draw counts


def test_six_tiles_at_the_start() -> None:
    text = text_of("queen-2003")
    setup = dirk_lines(text)[0]
    report = check(drop_last_tile(text, setup))
    assert ("DIRK-DRAW", setup) in codes(report)
    msg = next(v for v in report.violations if v.code == "DIRK-DRAW")
    assert msg.message("en").startswith("Dirk gets 5 tiles here, but 6 are due")


def test_a_missing_setup_draw_is_reported() -> None:
    text = text_of("queen-2003")
    setup = dirk_lines(text)[0]
    lines = lines_of(text)
    del lines[setup - 1]
    report = check("\n".join(lines) + "\n")
    assert "DIRK-DRAW" in [c for c, _ in codes(report)]


@pytest.mark.parametrize("profile", list(GAMES))
def test_six_tiles_right_after_scoring_1(profile: str) -> None:
    text = text_of(profile)
    after1 = dirk_lines(text)[1]
    assert ("DIRK-DRAW", after1) in codes(check(drop_last_tile(text, after1)))


def test_no_draw_right_after_scoring_1_is_reported() -> None:
    text = text_of("queen-2003")
    after1 = dirk_lines(text)[1]
    lines = lines_of(text)
    del lines[after1 - 1]
    report = check("\n".join(lines) + "\n")
    assert "DIRK-DRAW" in [c for c, _ in codes(report)]


@pytest.mark.parametrize("profile", ["queen-2003", "queen-bigbox-2019", "bga"])
def test_a_third_of_the_bag_rounded_down_after_scoring_2(profile: str) -> None:
    text = text_of(profile)
    after2 = dirk_lines(text)[2]
    left = bag_before(text, after2)
    assert left % 3 != 0 or left >= 3  # the example exercises rounding down or a plain third
    report = check(drop_last_tile(text, after2))
    assert ("DIRK-DRAW", after2) in codes(report)
    detail = next(v for v in report.violations if v.code == "DIRK-DRAW").message("en")
    assert f"but {left // 3} are due" in str(detail)
    assert f"a third of the {left} tiles left" in str(detail)


def test_piatnik_gives_dirk_two_tiles_after_scoring_2() -> None:
    text = text_of("piatnik-hu")
    after2 = dirk_lines(text)[2]
    assert len(lines_of(text)[after2 - 1].split()) - 2 == 2
    assert codes(check(text)) == []
    # the same record by the Queen rule: a third of the bag would be due, not 2
    left = bag_before(text, after2)
    assert left // 3 != 2
    report = check(text, "queen-2003")
    assert ("DIRK-DRAW", after2) in codes(report)


def test_a_queen_game_by_the_piatnik_rule_wants_two_tiles() -> None:
    text = text_of("queen-2003")
    after2 = dirk_lines(text)[2]
    report = check(text, "piatnik-hu")
    assert ("DIRK-DRAW", after2) in codes(report)
    detail = next(v for v in report.violations if v.line == after2).message("en")
    assert "but 2 are due" in str(detail)


def test_dirk_only_plays_in_a_two_player_game() -> None:
    text = text_of("queen-2003").replace('[Players "Anna, Ben"]', '[Players "Anna, Ben, Cem"]')
    text = text.replace("* deal Anna", "* deal Cem Gu9 Di9 De9\n* deal Anna", 1)
    setup = dirk_lines(text)[0]
    report = check(text)
    assert ("DIRK-DRAW", setup) in codes(report)


# ------------------------------------------------------------------------------ gifts


def gifts_in(text: str) -> list[str]:
    """The tiles given to Dirk in the turns of a record."""
    turns = [line for line in lines_of(text) if re.match(r"\d+\. ", line)]
    return re.findall(r"give (\S+) dirk", "\n".join(turns))


def _first_gift(text: str) -> tuple[int, str]:
    for i, line in enumerate(lines_of(text)):
        m = re.search(r"give (\S+) dirk", line) if re.match(r"\d+\. ", line) else None
        if m:
            return i + 1, m.group(1)
    raise AssertionError("no gift")


def test_a_gift_to_dirk_counts_for_dirk_at_the_next_scoring() -> None:
    text = text_of("queen-2003")
    report = check(text)
    state = report.state
    assert state is not None and state.dirk is not None
    gifted = set(gifts_in(text))
    assert gifted <= {t.code for t in state.dirk if t is not None}
    assert len(state.dirk) == sum(
        len(lines_of(text)[n - 1].split()) - 2 for n in dirk_lines(text)
    ) + len(gifts_in(text))


def test_giving_to_the_other_player_is_a_house_rule() -> None:
    text = text_of("queen-2003")
    number, tile = _first_gift(text)
    line = lines_of(text)[number - 1]
    giver = line.split(":")[0].split()[1]
    other = "Ben" if giver == "Anna" else "Anna"
    changed = edit_line(text, number, line.replace(f"give {tile} dirk", f"give {tile} {other}"))
    strict = check(changed)
    assert ("GIFT-NOT-ALLOWED", number) in codes(strict)
    house = RuleProfile(name="gifts-any", gifts="any-player")
    assert "GIFT-NOT-ALLOWED" not in [c for c, _ in codes(check(changed, house))]


def test_only_a_tile_bought_this_turn_can_be_given() -> None:
    text = text_of("queen-2003")
    number, tile = _first_gift(text)
    # a turn that only takes money gives a tile it did not buy
    take = next(
        i + 1
        for i, line in enumerate(lines_of(text))
        if re.match(r"\d+\. \w+: take [^,]+$", line) and i + 1 > number
    )
    line = lines_of(text)[take - 1]
    report = check(edit_line(text, take, f"{line}, give {tile} dirk"))
    assert any(line_ == take for _, line_ in codes(report))


# ------------------------------------------------------------------ Dirk in the majorities
# 2003 [Sonderregel für das Spiel zu zweit]: „Bei Wertungen bekommt auch Dirk Siegpunkte für
# Gebäudemehrheiten, eine Außenmauer wird für ihn jedoch nicht gewertet." Ties [Siegpunkte für
# Mehrheiten bei den Gebäuden]: „so werden die Punkte der entsprechenden Plätze geteilt. Dabei
# wird immer abgerundet."


def _score(
    round_no: int, anna: dict[str, int], ben: dict[str, int], dirk: dict[str, int]
) -> dict[str, ScoringRow]:
    def counts(d: dict[str, int]) -> dict[BuildingType, int]:
        return {BuildingType(k): v for k, v in d.items()}

    entries = [
        ScoringEntry("Anna", counts=counts(anna), wall_claim=5),
        ScoringEntry("Ben", counts=counts(ben), wall_claim=3),
        ScoringEntry("Dirk", counts=counts(dirk), is_dirk=True),
    ]
    result = score_round(round_no, entries, load_profile("queen-2003"))
    return {row.name: row for row in result.rows}


def _points(rows: dict[str, ScoringRow], name: str, type_code: str) -> int:
    return rows[name].buildings[BuildingType(type_code)].points


def test_dirk_tied_with_a_player_for_first_shares_first_and_second() -> None:
    # scoring 2, towers: 13 for the first place, 6 for the second: (13 + 6) / 2 = 9 each
    rows = _score(2, {"T": 3}, {"T": 1}, {"T": 3})
    assert _points(rows, "Anna", "T") == 9
    assert _points(rows, "Dirk", "T") == 9
    assert _points(rows, "Ben", "T") == 0  # third place scores nothing in scoring 2
    assert rows["Dirk"].buildings[BuildingType.TOWER].tied_with == ("Anna",)


def test_dirk_tied_for_first_in_scoring_1_shares_the_first_place_only() -> None:
    # scoring 1 pays the first place only: gardens (5 + 0) / 2 = 2, rounded down
    rows = _score(1, {"G": 2}, {"G": 1}, {"G": 2})
    assert (_points(rows, "Anna", "G"), _points(rows, "Dirk", "G")) == (2, 2)
    assert _points(rows, "Ben", "G") == 0


def test_dirk_tied_with_a_player_for_second() -> None:
    # scoring 3, chambers: Ben first (19); Anna and Dirk share second and third: (11 + 4) / 2
    rows = _score(3, {"C": 2}, {"C": 4}, {"C": 2})
    assert _points(rows, "Ben", "C") == 19
    assert (_points(rows, "Anna", "C"), _points(rows, "Dirk", "C")) == (7, 7)


def test_three_way_tie_with_dirk() -> None:
    # scoring 3, gardens: (20 + 12 + 5) / 3 = 12 each
    rows = _score(3, {"G": 2}, {"G": 2}, {"G": 2})
    assert [_points(rows, n, "G") for n in ("Anna", "Ben", "Dirk")] == [12, 12, 12]


def test_dirk_outranks_a_player_and_never_scores_a_wall() -> None:
    rows = _score(3, {"P": 1}, {}, {"P": 3})
    assert (_points(rows, "Dirk", "P"), _points(rows, "Anna", "P")) == (16, 8)
    assert rows["Dirk"].wall is None
    assert rows["Anna"].wall is not None and rows["Anna"].wall.points == 5
    assert rows["Dirk"].points == 16


# ------------------------------------------------------------------------ property


def _with_draw(text: str, number: int, k: int) -> str:
    """The record up to line ``number``, where Dirk now draws ``k`` tiles still in the bag.

    With ``k == 0`` the line is dropped and the record goes on to the next turn, where a
    missing draw shows.
    """
    state, _ = replay(game_of(text), until_line=number - 1)
    tiles = sorted(state.bag.elements(), key=lambda t: t.full_code)[:k]
    lines = lines_of(text)
    if tiles:
        kept = [*lines[: number - 1], "* dirk " + " ".join(t.full_code for t in tiles)]
    else:
        following = lines[number:]
        upto = next(i for i, line in enumerate(following) if re.match(r"\d+\. ", line))
        kept = lines[: number - 1] + following[: upto + 1]
    return "\n".join(kept) + "\n"


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(list(GAMES)), st.sampled_from([0, 1, 2]), st.integers(0, 20))
def test_dirk_draw_is_flagged_exactly_when_the_count_is_wrong(
    profile: str, which: int, k: int
) -> None:
    text = text_of(profile)
    number = dirk_lines(text)[which]
    left = bag_before(text, number)
    k = min(k, left)
    third = 2 if profile == "piatnik-hu" else left // 3
    due = 6 if which < 2 else third
    report = check(_with_draw(text, number, k))
    flagged = [v for v in report.violations if v.code == "DIRK-DRAW"]
    assert bool(flagged) == (k != due), (profile, which, k, due, left)
