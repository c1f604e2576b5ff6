"""Property: any record the notation can express survives format -> parse unchanged.

Records are generated directly as record objects (not as text), formatted, parsed back and
compared (record equality ignores source positions, comments and annotations by design, so
those are also compared explicitly where they live).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catalogue import ALL_MONEY_CARDS, BUILDING_TYPES, CURRENCIES, TileKind, catalogue
from referee.catalogue.components import CURRENCY_SPELLINGS
from referee.notation import format_game, format_games, parse_text
from referee.notation.tokens import KEYWORDS
from referee.record.model import (
    Annotation,
    Award,
    BuildFromReserve,
    Buy,
    CardRef,
    Chance,
    Claim,
    ClaimPart,
    CommentLine,
    ComponentRef,
    Coord,
    Deal,
    DirkDraw,
    DisplayReveal,
    Distribution,
    Game,
    GenericArg,
    Give,
    Header,
    MarketDraw,
    ModuleAction,
    ModuleChance,
    Place,
    PlacedTile,
    PlayerPosition,
    PlayerRef,
    Position,
    RemoveToReserve,
    Reserve,
    Reshuffle,
    Scoring,
    ScoringCardRef,
    StartPlayer,
    Swap,
    TakeMoney,
    TileRef,
    Turn,
)

TILES = catalogue().tiles

# --------------------------------------------------------------------------- tokens

# The words of a regular expression (r"[A-Z][a-z]{1,7}" here) are put together from their
# letters: drawing them with st.from_regex took a fifth of the cpu of test_notation_fast's use of
# these records. The same words either way.
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_UPPER = _LOWER.upper()


def _word(first: str, rest: str, least: int, most: int) -> st.SearchStrategy[str]:
    """The words of ``[first][rest]{least,most}`` (a character class each)."""
    return st.builds(
        str.__add__,
        st.sampled_from(first),
        st.text(alphabet=rest, min_size=least, max_size=most),
    )


plain_names = _word(_UPPER, _LOWER, 1, 7).filter(lambda s: s.lower() not in KEYWORDS)
any_names = st.one_of(
    plain_names,
    st.text(
        # every character UTF-8 writes: all but the surrogates (category Cs), the same set as
        # codec="utf-8", whose table hypothesis builds by encoding all 1.1 million code points
        # on a clean clone's first run (2.7 s of cpu, in each worker that draws it before the
        # table's file is written)
        st.characters(
            exclude_categories=("Cs",),
            exclude_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
        ),
        min_size=1,
        max_size=12,
    ).filter(lambda s: s.strip() == s and s.isprintable()),
)
players = any_names.map(PlayerRef)
free_text = st.text(
    st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters="{}"), max_size=15
).map(str.strip)


def _tile_ref(kind: TileKind) -> TileRef:
    return TileRef(kind.type, kind.price, kind.walls, (kind,))


def _ambiguous(kind: TileKind) -> TileRef:
    cands = catalogue().by_type_price(kind.type, kind.price)
    if len(cands) == 1:
        return _tile_ref(kind)
    return TileRef(kind.type, kind.price, None, cands)


components = st.builds(
    ComponentRef,
    # a module's kind is never spelled like a currency: "de:..." after "market" is a field
    st.text(alphabet=_LOWER, min_size=1, max_size=3).filter(lambda k: k not in CURRENCY_SPELLINGS),
    st.text(alphabet=_UPPER + _LOWER + "0123456789", min_size=1, max_size=4),
)
known_tiles = st.sampled_from(TILES).map(_tile_ref)
tiles = st.one_of(
    known_tiles,
    st.sampled_from(TILES).map(_ambiguous),
    st.just(TileRef(None, None, None, ())),
    components,
)
cards = st.one_of(
    st.sampled_from(ALL_MONEY_CARDS).map(CardRef),
    st.just(CardRef(None)),
    st.sampled_from([1, 2]).map(ScoringCardRef),
    components,
)
coords = st.builds(Coord, st.integers(-9, 9), st.integers(-9, 9))
fields = st.one_of(st.none(), st.sampled_from(CURRENCIES))
notes = st.lists(free_text.map(Annotation), max_size=2).map(tuple)
comments = st.one_of(st.none(), free_text)
small = st.integers(0, 200)
parts = st.lists(
    st.builds(ClaimPart, st.one_of(st.sampled_from(BUILDING_TYPES), st.just("wall")), small),
    max_size=3,
).map(tuple)
words = _word(_LOWER, _LOWER + "_", 0, 6).filter(lambda s: s not in KEYWORDS)
generic_args = st.lists(
    st.one_of(
        st.sampled_from(ALL_MONEY_CARDS).map(CardRef),
        st.sampled_from([1, 2]).map(ScoringCardRef),
        known_tiles,
        components,
        coords,
        st.integers(-50, 50),
        plain_names,
        any_names.map(PlayerRef),
    ).map(GenericArg),
    max_size=4,
).map(tuple)

# -------------------------------------------------------------------------- actions

actions = st.one_of(
    st.builds(TakeMoney, st.lists(cards, max_size=4).map(tuple), notes=notes),
    st.builds(Buy, fields, tiles, st.lists(cards, max_size=3).map(tuple), notes=notes),
    st.builds(BuildFromReserve, tiles, coords, notes=notes),
    st.builds(RemoveToReserve, st.one_of(st.none(), tiles), coords, notes=notes),
    st.builds(Swap, tiles, coords, st.one_of(st.none(), tiles), notes=notes),
    st.builds(Place, tiles, coords, notes=notes),
    st.builds(Reserve, tiles, notes=notes),
    st.builds(Give, tiles, st.one_of(st.none(), players), notes=notes),
    st.builds(ModuleAction, words, generic_args, notes=notes),
)
chance_events = st.one_of(
    st.builds(Deal, players, st.lists(cards, max_size=5).map(tuple)),
    st.builds(DisplayReveal, st.lists(cards, max_size=5).map(tuple)),
    st.just(Reshuffle()),
    st.builds(MarketDraw, st.lists(st.tuples(fields, tiles), max_size=4).map(tuple)),
    st.builds(DirkDraw, st.lists(tiles, max_size=6).map(tuple)),
    st.builds(ModuleChance, words, generic_args),
)
claims = st.builds(
    Claim,
    st.one_of(st.none(), players),
    st.one_of(st.none(), small),
    st.one_of(st.none(), small),
    parts,
)
awards = st.builds(Award, fields, tiles, st.none(), st.none(), st.just(False)) | st.builds(
    lambda f, t, p, how: Award(f, t, p, how if isinstance(how, Coord) else None, how is True),
    fields,
    tiles,
    players,
    st.one_of(st.none(), st.just(True), coords),
)
turns = st.builds(
    Turn,
    st.one_of(st.none(), st.integers(0, 999)),
    st.one_of(st.none(), players),
    st.lists(actions, min_size=1, max_size=4).map(tuple),
    comment=comments,
)
player_positions = st.builds(
    PlayerPosition,
    players,
    st.one_of(st.none(), small),
    st.one_of(st.none(), st.lists(cards, max_size=4).map(tuple)),
    st.lists(tiles, max_size=3).map(tuple),
    st.lists(st.builds(PlacedTile, tiles, coords), max_size=3).map(tuple),
    st.lists(st.builds(ClaimPart, st.sampled_from(BUILDING_TYPES), small), max_size=3).map(tuple),
    st.one_of(st.none(), small),
    st.lists(st.builds(ModuleAction, words, generic_args), max_size=1).map(tuple),
)
positions = st.builds(
    Position,
    st.one_of(st.none(), players),
    st.one_of(st.none(), st.integers(0, 3)),
    st.one_of(
        st.none(),
        st.lists(st.tuples(fields, st.one_of(st.none(), tiles)), max_size=4).map(tuple),
    ),
    st.one_of(st.none(), st.lists(cards, max_size=4).map(tuple)),
    st.lists(player_positions, max_size=3).map(tuple),
    st.one_of(st.none(), st.lists(tiles, max_size=4).map(tuple)),
    st.lists(st.builds(ModuleAction, words, generic_args), max_size=1).map(tuple),
)
body_items = st.one_of(
    turns,
    st.builds(Chance, st.lists(chance_events, min_size=1, max_size=3).map(tuple), comment=comments),
    st.builds(StartPlayer, players, st.booleans(), comment=comments),
    st.builds(Scoring, st.integers(1, 3), st.lists(claims, max_size=3).map(tuple)),
    st.builds(Distribution, st.lists(awards, min_size=1, max_size=4).map(tuple)),
    st.builds(CommentLine, free_text),
    positions,
)
header_names = st.one_of(
    st.sampled_from(["Event", "Site", "Date", "Round", "Players", "Rules", "Result"]),
    # "Notation" is the notation version: its value is checked (test_hardening_input_version)
    _word(_UPPER, _UPPER + _LOWER, 0, 8).filter(lambda n: n != "Notation"),
)
headers = st.lists(
    st.builds(
        Header,
        header_names,
        st.text(st.characters(min_codepoint=32, max_codepoint=0x24F), max_size=20),
    ),
    max_size=5,
)


def _canonical_order(hs: list[Header]) -> tuple[Header, ...]:
    order = [
        "Notation",
        "Event",
        "Site",
        "Date",
        "Round",
        "Players",
        "Youngest",
        "Rules",
        "Modules",
        "Result",
    ]
    return tuple(sorted(hs, key=lambda h: order.index(h.name) if h.name in order else 99))


games = st.builds(
    lambda hs, body: Game(_canonical_order(hs), tuple(body)),
    headers,
    st.lists(body_items, min_size=1, max_size=6),
)


@settings(max_examples=150, deadline=None)
@given(games)
def test_format_then_parse_gives_the_same_game(game: Game) -> None:
    text = format_game(game)
    (back,) = parse_text(text)
    assert back.errors == ()
    assert back == game
    assert format_game(back) == text  # and the text is a fixed point


# In a file, a game ends where a header line follows body lines; comment lines alone are not
# body lines (they may introduce the next game), so every game here has a real body item.
real_items = body_items.filter(lambda b: not isinstance(b, CommentLine))
file_games = st.builds(
    lambda hs, first, body: Game(_canonical_order(hs) or (Header("Event", "x"),), (first, *body)),
    headers,
    real_items,
    st.lists(body_items, max_size=2),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(file_games, min_size=1, max_size=4))
def test_several_games_round_trip(game_list: list[Game]) -> None:
    text = format_games(game_list)
    back = parse_text(text)
    assert back == game_list


@settings(max_examples=60, deadline=None)
@given(turns)
def test_comments_and_annotations_are_never_lost(turn: Turn) -> None:
    text = format_game(Game((), (turn,)))
    (back,) = parse_text(text)
    (got,) = back.body
    assert got.comment == turn.comment
    assert [[n.text for n in a.notes] for a in got.actions] == [
        [n.text for n in a.notes] for a in turn.actions
    ]
