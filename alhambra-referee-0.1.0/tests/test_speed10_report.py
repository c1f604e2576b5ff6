"""The report's eighth speed step (issue 34): each shortcut gives what the general way gives.

- the JSON writer's kept key texts and per-indent brackets (``json_text._KEYS``, ``_FRAMES``);
- a base-game participant's block joined from its literal pieces (``text._pieces``) instead
  of one long format;
- the standings' ranks and totals kept aligned (``text._Ranks``, ``_Lang.totals``);
- ``ScoringResult.ranking`` sorted by ``attrgetter`` (stable, reversed) and ``row``;
- ``ScoringRow.to_dict``, ``TypeScore.to_dict`` and ``WallScore.to_dict``'s kept segment texts.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_geometry_pictures import layout

from referee.catalogue import BuildingType
from referee.record.model import Coord
from referee.reports import json_text
from referee.reports.json_text import dumps
from referee.scoring import ScoringEntry, render_scoring_text, score_round
from referee.scoring.categories import num_json
from referee.scoring.core import ScoringResult, ScoringRow, WallScore, new_wall_score
from referee.scoring.text import _lang, _layout, _pieces, ordinal

P, S, A, C, G, T = list(BuildingType)
RING = """
nw  n   ne
w   F   Te
sw  Ts  Tse
"""


def _stdlib(obj: Any, prefix: str = "") -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2).replace("\n", "\n" + prefix)


# --------------------------------------------------------------------------- JSON writer


def test_kept_keys_and_frames_write_what_json_writes_again_and_again() -> None:
    class Name(str):
        pass

    doc: Any = {"a": {"b": [1, "x", None, True, {"c": []}]}, 'é\n"': {"a": 2.5}}
    for prefix in ("", "    ", " \t"):
        for _ in range(3):  # the keys and frames kept by the first pass, asked again
            assert dumps(doc, prefix) == _stdlib(doc, prefix)
    # a subclass of str equal to a kept key: json.dumps writes the same text for it
    sub = {Name("a"): 1, "b": Name("c")}
    assert dumps(sub, "  ") == _stdlib(sub, "  ")
    # keys that are no str are left to json.dumps, kept keys or not
    for odd in ({1: "a", "1": "b"}, {True: 1}, {None: 0}, {"a": {2.5: "x"}}):
        assert dumps(odd, "    ") == _stdlib(odd, "    ")


def test_kept_keys_are_bounded() -> None:
    doc = {f"key{i}": i for i in range(10_000)}
    assert dumps(doc, "  ") == _stdlib(doc, "  ")
    assert len(json_text._KEYS) <= 4096
    assert dumps({"key9999": [1]}, "") == _stdlib({"key9999": [1]})


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=25,
    ),
    st.text(alphabet=" \t", max_size=6),
)
def test_any_prefix_and_document(doc: Any, prefix: str) -> None:
    assert dumps(doc, prefix) == _stdlib(doc, prefix)


# --------------------------------------------------------------------------- text tables


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["en", "de"]),
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=0, max_value=40),
    st.lists(st.text(max_size=12), min_size=30, max_size=30),
)
def test_block_pieces_joined_are_the_block_format(
    lang: str, label_w: int, place_w: int, values: list[str]
) -> None:
    tongue = _lang(lang)
    layout_ = _layout(tongue, max(label_w, tongue.label_w), place_w)
    row = list(layout_.row)
    assert len(row) == 61 and row[1::2] == [""] * 30
    row[1::2] = values
    # the general format of the block: the literal text around 30 plain fields
    fmt = "".join(p.replace("{", "{{").replace("}", "}}") + "{}" for p in layout_.row[0:-1:2])
    fmt += layout_.row[-1].replace("{", "{{").replace("}", "}}")
    assert "".join(row) == fmt.format(*values)


def test_pieces_of_a_format() -> None:
    assert _pieces("<{}|{}>".format, 2) == ["<", "", "|", "", ">"]
    assert _pieces("{}{}".format, 2) == ["", "", "", "", ""]


def test_tables_with_long_places_and_names() -> None:
    entries = [
        ScoringEntry("Kim", layout(RING)),
        ScoringEntry("Nina {x}", counts={T: 4, P: 2}, wall_claim=3),
        ScoringEntry("Ben", counts={T: 4, P: 2}),
        ScoringEntry("Dirk", counts={T: 4}, is_dirk=True),
    ]
    for lang in ("en", "de"):
        text = render_scoring_text(score_round(3, entries), lang)
        assert "Nina {x}" in text
        assert ("(tie: " if lang == "en" else "(gleichauf: ") in text
        assert "Nina {x})" in text or "Nina {x}," in text  # a name with braces in a tie
        first = "1st" if lang == "en" else "1."
        assert f"  {first:>4}  Kim       " in text  # the standings' aligned columns
        assert "        (Dirk  " in text


def test_standing_columns() -> None:
    for lang in ("en", "de"):
        tongue = _lang(lang)
        for rank in (1, 2, 3, 11, 12, 21, 101, 1000):
            assert tongue.ranks[rank] == f"{ordinal(rank, lang):>4}"
        for total in (-3, 0, 7, 120, 123456):
            assert tongue.totals[total] == f"{total:>4}"
        assert tongue.totals.text(True) == f"{True:>4}"


# ------------------------------------------------------------------- results and their data


def _old_ranking(result: ScoringResult) -> list[tuple[int, ScoringRow]]:
    players = sorted((r for r in result.rows if not r.is_dirk), key=lambda r: -r.total)
    ranked: list[tuple[int, ScoringRow]] = []
    for i, r in enumerate(players):
        rank = ranked[-1][0] if ranked and ranked[-1][1].total == r.total else i + 1
        ranked.append((rank, r))
    return ranked


def _old_row(result: ScoringResult, name: str | None) -> ScoringRow | None:
    for r in result.rows:
        if name is None and r.is_dirk:
            return r
        if name is not None and not r.is_dirk and r.name.lower() == name.lower():
            return r
    return None


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=4),
            st.integers(min_value=0, max_value=3),
            st.integers(min_value=0, max_value=30),
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_ranking_and_rows_as_before(players: list[tuple[int, int, int]], with_dirk: bool) -> None:
    entries = [
        ScoringEntry(n, counts={T: t, P: p}, total_before=before)
        for n, (t, p, before) in zip("ABCDEF", players, strict=False)
    ]
    if with_dirk:
        entries.insert(1, ScoringEntry("Dirk", counts={T: 2}, is_dirk=True))
    for round_no in (1, 2, 3):
        result = score_round(round_no, entries)
        assert result.ranking() == _old_ranking(result)
        for name in (None, "a", "B", "dirk", "Dirk", "Z"):
            assert result.row(name) is _old_row(result, name)


def test_rows_to_dict_as_before() -> None:
    entries = [
        ScoringEntry("Kim", layout(RING), total_before=3),
        ScoringEntry("Nina", counts={T: 3, P: 1}, wall_claim=4),
        ScoringEntry("Ben", counts={T: 3}),
        ScoringEntry("Dirk", counts={P: 2}, is_dirk=True),
    ]
    for round_no in (1, 2, 3):
        result = score_round(round_no, entries)
        for row in result.rows:
            d = row.to_dict()
            assert d["buildings"] == {t.code: s.to_dict() for t, s in row.buildings.items()}
            assert d["wall"] == (row.wall.to_dict() if row.wall is not None else None)
            for s in row.buildings.values():
                assert s.to_dict()["count"] == num_json(s.count)
                assert type(s.to_dict()["count"]) is type(num_json(s.count))
            assert row.to_dict() is not d  # a new document every time
        assert result.to_dict()["players"][0]["wall"]["segments"][0].keys() == {"at", "side"}


def test_wall_segments_data_as_before() -> None:
    from referee.catalogue import Side
    from referee.geometry.pieces import Diagonal

    segments = ((Coord(-1, 0), Side.S), (Coord(2, -3), Side.E), (Coord(0, 1), next(iter(Diagonal))))
    wall = new_wall_score(3, 3, segments, True)
    assert isinstance(wall, WallScore)
    expected = [{"at": str(c), "side": s.value} for c, s in segments]
    assert wall.to_dict()["segments"] == expected
    again = wall.to_dict()["segments"]
    assert again == expected and again[0] is not wall.to_dict()["segments"][0]
