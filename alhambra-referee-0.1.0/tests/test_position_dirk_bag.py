"""Dirk's tiles in a position block (eighteenth step): a piece of a module whose pieces are in
the bag (``tower_components``) is read by the engine as an unplaced piece drawn from the bag,
as in a reserve, so none of the eight bag modules needs a word of its own for Dirk (they each
accepted ``where="dirk"`` before, seventeenth step); a piece of any other module is still
refused there (it is never drawn from the bag).
"""

from __future__ import annotations

import pytest

from referee.engine import check_game
from referee.engine.position_text import position_text
from referee.notation import parse_text
from tests.test_notation_fast_position import fast_or_none, lark
from tests.test_position_sweep import DIRK, _end


@pytest.mark.parametrize(
    ("module", "piece"),
    [
        ("badehaeuser", "bh:TPAG"),
        ("bauland", "bl:3_7w"),
        ("bazare", "bz:GuPSA"),
        ("feldlager", "fl:5bNaN"),
        ("machtgebaeude", "gm:bk_P4"),
        ("magisch", "mg:S10e"),
        ("medina", "md:4x"),
        ("wunschbrunnen", "ww:3"),
    ],
)
def test_a_bag_piece_among_dirks_tiles_reads_back(module: str, piece: str) -> None:
    text = DIRK.format(module=module, piece=piece)
    assert fast_or_none(text) == lark(text)
    state = _end(text)
    assert state.dirk[2] is not None
    assert f"  dirk G10- A9 {piece} P8\n" in position_text(state)
    (game,) = parse_text(text)
    # nothing said of the dirk line (line 8; Die Gebäude der Macht's base tiles taken out of
    # the bag, C8 and S5 of the block, are TILE-SUPPLY elsewhere, as before)
    assert [v.code for v in check_game(game).violations if v.line == 8] == []


def test_a_piece_not_of_the_bag_among_dirks_tiles_is_refused() -> None:
    """A square (Die Plätze) is never drawn from the bag: Dirk cannot hold one."""
    text = DIRK.format(module="plaetze", piece="sq:Pe")
    (game,) = parse_text(text)
    errors = [
        (v.code, v.line, v.column) for v in check_game(game).violations if v.severity == "error"
    ]
    assert errors == [("MODULE-NOT-ENABLED", 8, 16)]  # as before the change (main 350ea36)
    assert _end(text).dirk[2] is None
