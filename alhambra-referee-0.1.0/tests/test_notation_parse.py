"""Parsing: records built from text, spellings, several games, streaming, headers."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from referee.catalogue import BuildingType, Currency, MoneyCard, Side, catalogue
from referee.notation import iter_games, parse_text, read_headers
from referee.record.model import (
    Buy,
    CardRef,
    Chance,
    Claim,
    CommentLine,
    ComponentRef,
    Coord,
    Deal,
    Distribution,
    Game,
    GenericArg,
    Give,
    ModuleAction,
    Place,
    PlayerRef,
    Pos,
    Position,
    RemoveToReserve,
    Scoring,
    StartPlayer,
    Swap,
    TakeMoney,
    TileRef,
    Turn,
)


def one(text: str) -> Game:
    (game,) = parse_text(text)
    assert game.errors == ()
    return game


def test_a_turn_becomes_typed_actions_with_file_positions() -> None:
    game = one("\n\n12. Ben: buy Di A6sw pay Di4 Di2 {exact}, place A6sw@0,-1 # nice\n")
    (turn,) = game.body
    assert isinstance(turn, Turn)
    assert turn.number == 12 and turn.player == PlayerRef("Ben")
    assert turn.comment == "nice"
    buy, place = turn.actions
    assert isinstance(buy, Buy) and isinstance(place, Place)
    assert buy.field is Currency.DIRHAM
    assert buy.paid == (
        CardRef(MoneyCard(Currency.DIRHAM, 4)),
        CardRef(MoneyCard(Currency.DIRHAM, 2)),
    )
    assert [n.text for n in buy.notes] == ["exact"]
    assert place.at == Coord(0, -1)
    kind = buy.tile.kind  # type: ignore[union-attr]
    assert kind is not None and kind.full_code == "A6sw"
    assert turn.pos == Pos(3, 1)
    assert buy.pos == Pos(3, 10)
    assert buy.tile.pos == Pos(3, 17)
    assert place.pos == Pos(3, 43)


def test_german_and_english_spellings_give_the_same_record() -> None:
    english = one(
        "* deal Anna florin3 dinar7 ducat2 dirham9, market gulden:tower13 dirham:garden10N\n"
        "start Anna youngest\n"
        "1. Anna: buy denar arcades6sw pay denar7, place chambers9w@1,0\n"
        "scoring 1: Anna +9 (tower=6, pavilion=1, seraglio=2, wall=3)\n"
    )
    german = one(
        "* DEAL Anna Gulden3 Denar7 Dukaten2 Dirham9, MARKET Gulden:Turm13 Dirham:Garten10n\n"
        "Start Anna Youngest\n"
        "1. Anna: Buy Denar Arkaden6SW Pay Denar7, Place Gemächer9W@1,0\n"
        "Scoring 1: Anna +9 (Turm=6, Pavillon=1, Serail=2, Mauer=3)\n"
    )
    short = one(
        "* deal Anna Gu3 De7 Du2 Di9, market Gu:T13 Di:G10n\n"
        "start Anna youngest\n"
        "1. Anna: buy De A6sw pay De7, place C9w@1,0\n"
        "scoring 1: Anna +9 (T=6, P=1, S=2, wall=3)\n"
    )
    assert english == german == short


def test_east_wall_may_be_written_o_and_walls_in_any_order() -> None:
    a = one("reserve T9NE\n").body[0].actions[0]
    b = one("reserve t9on\n").body[0].actions[0]
    assert a == b
    assert a.tile.walls == frozenset({Side.N, Side.E})


def test_tile_references_resolve_against_the_catalogue() -> None:
    game = one("reserve T13, reserve G10, reserve T13e, reserve ?\n")
    t13, g10, t13e, unknown = game.body[0].actions
    assert t13 == t13e  # the one tower 13: walls filled in from the catalogue
    assert t13.tile.kind == catalogue().find(BuildingType.TOWER, 13, None)[0]
    assert g10.tile.walls is None and len(g10.tile.candidates) == 3  # ambiguous: not an error
    assert unknown.tile == TileRef(None, None, None, ())


def test_unknown_tiles_are_notation_errors_but_the_game_is_kept() -> None:
    (game,) = parse_text("1. Ben: reserve T14, reserve T13n\n")
    assert [e.code for e in game.errors] == ["UNKNOWN-TILE", "UNKNOWN-TILE"]
    assert len(game.body) == 1


def test_every_body_construct() -> None:
    game = one(
        "* deal Cem Di6 ?, display Gu1 W2, reshuffle, market 1:T13 Du:?, dirk G6\n"
        "start Cem\n"
        "build T13@1,2, remove @0,1, swap G8sw@1,0 for A6ne, give G10- dirk, give G6 Ben\n"
        "scoring 2: Anna +21 =30 (T=13, wall=3), dirk +12\n"
        "distribute Gu:T9ne Ben@3,1, Di:G6 none, De:A7 Cem reserve\n"
        'wake Cem ex:GuDe @1,2 -3 5 "Anna Lena"\n'
        "{note} # comment\n"
    )
    chance, start, turn, scoring, dist, module, note = game.body
    assert isinstance(chance, Chance) and len(chance.events) == 5
    deal = chance.events[0]
    assert isinstance(deal, Deal) and deal.cards[1] == CardRef(None)
    assert isinstance(start, StartPlayer) and not start.youngest
    remove, swap, give_dirk, give_ben = turn.actions[1:]
    assert isinstance(remove, RemoveToReserve) and remove.tile is None
    assert isinstance(swap, Swap) and swap.out is not None
    assert isinstance(give_dirk, Give) and give_dirk.to is None
    assert isinstance(give_ben, Give) and give_ben.to == PlayerRef("Ben")
    assert isinstance(scoring, Scoring) and scoring.round == 2
    assert scoring.claims[1] == Claim(None, 12, None, ())
    assert isinstance(dist, Distribution)
    assert [(a.player, a.at, a.reserve) for a in dist.awards] == [
        (PlayerRef("Ben"), Coord(3, 1), False),
        (None, None, False),
        (PlayerRef("Cem"), None, True),
    ]
    (wake,) = module.actions
    assert isinstance(wake, ModuleAction)
    assert wake.args == (
        GenericArg("Cem"),
        GenericArg(ComponentRef("ex", "GuDe")),
        GenericArg(Coord(1, 2)),
        GenericArg(-3),
        GenericArg(5),
        GenericArg(PlayerRef("Anna Lena")),
    )
    assert isinstance(note, CommentLine) and note.text == "comment"
    assert [n.text for n in note.notes] == ["note"]


def test_position_block() -> None:
    game = one(
        "position\n  next Ben\n  scorings 1\n  market Gu:T13 Di:- De:? Du:C9w\n"
        "  player Anna\n    score 23\n    hand Gu3 ?\n    reserve T9ne\n"
        "    alhambra A6sw@1,0 G8ne@0,-1\n  player Ben\n    counts P=2 A=3 wall=7\nend\n"
    )
    (pos,) = game.body
    assert isinstance(pos, Position)
    assert pos.to_move == PlayerRef("Ben") and pos.scorings_done == 1
    assert pos.market is not None and pos.market[1] == (Currency.DIRHAM, None)
    anna, ben = pos.players
    assert anna.score == 23 and anna.hand is not None and len(anna.hand) == 2
    assert [p.at for p in anna.alhambra] == [Coord(1, 0), Coord(0, -1)]
    assert ben.hand is None and ben.wall == 7
    assert [(c.key, c.points) for c in ben.counts] == [
        (BuildingType.PAVILION, 2),
        (BuildingType.ARCADES, 3),
    ]


def test_keywords_are_case_insensitive_and_tabs_are_spaces() -> None:
    assert one("1.\tBen:\tTAKE\tGu1\n") == one("1. Ben: take Gu1\n")


def test_bom_and_crlf_are_accepted() -> None:
    plain = parse_text('[Event "x"]\n\n1. Ben: take Gu1 # c\n')
    assert parse_text('\ufeff[Event "x"]\r\n\r\n1. Ben: take Gu1 # c\r\n') == plain
    (game,) = parse_text('\ufeff[Event "x"]\r\n\r\n1. Ben: take Gu1 # c\r\n')
    assert game.body[0].comment == "c"


def test_unknown_headers_survive_and_known_ones_are_normalised() -> None:
    game = one('[players "A, B"]\n[WhiteElo "2100"]\n[event "x"]\n')
    assert [(h.name, h.value) for h in game.headers] == [
        ("Event", "x"),
        ("Players", "A, B"),
        ("WhiteElo", "2100"),
    ]
    assert game.players == ("A", "B")


def test_a_broken_middle_game_does_not_stop_the_others() -> None:
    text = (
        '[Event "one"]\n1. Ann: take Gu1\n'
        '[Event "two"]\n1. Ann: take Gu1 buy\n2. Ben: take Di2\n'
        '[Event "three"]\n1. Ann: take Du3\n'
    )
    one_, two, three = parse_text(text, "f.alh")
    assert one_.ok and three.ok and not two.ok
    assert two.errors[0].pos == Pos(4, 18)
    assert two.header("Event") == "two"
    assert three.body[0].actions[0] == TakeMoney((CardRef(MoneyCard(Currency.DUKATEN, 3)),))
    assert [g.start_line for g in (one_, two, three)] == [1, 3, 6]
    assert {g.source for g in (one_, two, three)} == {"f.alh"}


def test_comment_lines_before_the_headers_lead_the_game() -> None:
    game = one('# about\n[Event "x"]\n# body\n1. A: take Gu1\n')
    assert [c.text for c in game.leading_comments] == ["about"]
    assert isinstance(game.body[0], CommentLine) and game.body[0].text == "body"


def test_iter_games_streams_a_file(tmp_path: Path) -> None:
    path = tmp_path / "many.alh"
    path.write_text("".join(f'[Event "{i}"]\n1. A: take Gu1\n' for i in range(50)), "utf-8")
    games = iter_games(path)
    first = next(games)
    assert first.header("Event") == "0" and first.source == str(path)
    rest = list(games)
    assert [g.header("Event") for g in rest] == [str(i) for i in range(1, 50)]
    assert rest[-1].start_line == 99


def test_iter_games_reads_lazily_from_a_stream() -> None:
    read: list[str] = []

    class Lines(io.StringIO):
        def __next__(self) -> str:
            line = super().__next__()
            read.append(line)
            return line

    stream = Lines('[Event "a"]\n1. A: take Gu1\n[Event "b"]\n1. A: take Gu2\n' * 100)
    games = iter_games(stream, source="s")
    next(games)
    assert len(read) < 10  # only the first game (and the next header line) was read


def test_iter_games_accepts_binary_streams_with_bom() -> None:
    data = '\ufeff[Event "b"]\r\n1. A: take Gu1\r\n'.encode()
    (game,) = iter_games(io.BytesIO(data), source="bytes")
    assert game.ok and game.header("Event") == "b"


def test_read_headers_skips_the_body() -> None:
    text = '[Event "a"]\n1. A: this is not parsed @@@\n[Event "b"]\n[Site "c"]\n1. x\n'
    got = list(read_headers(text=text))
    assert [[(h.name, h.value) for h in hs] for hs in got] == [
        [("Event", "a")],
        [("Event", "b"), ("Site", "c")],
    ]


def test_empty_text_has_no_games() -> None:
    assert parse_text("") == []
    assert parse_text("\n\n") == []


def test_a_position_is_a_named_tuple_of_line_and_column() -> None:
    """``Pos`` (docs/api.md): fields ``line`` and ``column``, shown ``line:column``, immutable,
    equal to another Pos (or tuple) of the same numbers, ordered by line, then column."""
    game = parse_text('[Players "Anna, Ben"]\n\n1. Anna: take Gu3 Di5\n')[0]
    take = game.body[0].actions[0]
    assert (take.pos.line, take.pos.column) == (3, 10)
    assert take.cards[1].pos == Pos(3, 19) == (3, 19)
    assert str(take.cards[1].pos) == "3:19"
    assert repr(Pos(3, 19)) == "Pos(line=3, column=19)"
    assert sorted([Pos(4, 1), Pos(3, 19), Pos(3, 2)]) == [Pos(3, 2), Pos(3, 19), Pos(4, 1)]
    with pytest.raises(AttributeError):
        take.pos.line = 5  # type: ignore[misc]
