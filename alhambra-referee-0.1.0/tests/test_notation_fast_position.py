"""The fast reader's position blocks (``position`` ... ``end``) against Lark's.

The fast reader (:mod:`referee.notation.fast`) reads a position block itself; what it does not
read exactly sends the whole game to Lark, as every block did before. Here the two readers
meet on every example, on ``show --format record`` at many moments of every module example
and of simulated games, on hypothesis-made blocks and on mutated lines: the records must be the
same field by field (positions included) with the same notation errors, or the fast reader
must decline. A syntax error is always Lark's (the fast reader declines it).
"""

from __future__ import annotations

import atexit
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forked_run_support import ForkedRuns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

import referee.notation.fast as fast
from referee.engine.position_text import position_text
from referee.engine.walk import walk
from referee.notation import parse_text
from referee.notation.parser import parse_chunk, parse_game_text, split_games
from referee.profiles import load_profile
from referee.record.model import Game, Position
from referee.simulate import simulate_text
from tests.test_notation_fast import deep, fuzz_lines, same

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
POSITION_EXAMPLES = sorted(
    p for p in EXAMPLES.glob("*.alh") if re.search(r"(?im)^[ \t]*position\b", p.read_text("utf-8"))
)


def lark(text: str, off: int = 0) -> tuple[Any, Any] | None:
    """Lark's records and notation errors of one game's text, or None (a syntax error)."""
    try:
        items, problems = parse_chunk(text, off)
    except UnexpectedInput:
        return None
    return deep(items), deep(problems)


def fast_or_none(text: str, off: int = 0) -> tuple[Any, Any] | None:
    got = fast.read_game(text, off, parse_chunk)
    return None if got is None else (deep(got[0]), deep(got[1]))


def same_or_declined(text: str, off: int = 0) -> bool:
    """The fast reader reads ``text`` as Lark does, or declines it; whether it read it."""
    quick = fast.read_game(text, off, parse_chunk)
    if quick is None:
        return False
    try:
        slow = parse_chunk(text, off)
    except UnexpectedInput:
        raise AssertionError(f"the fast reader read a game Lark rejects:\n{text}") from None
    # as ``fast_or_none(text, off) == lark(text, off)``, compared without building the trees
    assert (same(quick[0], slow[0]) and same(quick[1], slow[1])) or (
        fast_or_none(text, off) == lark(text, off)
    ), text
    return True


def assert_read_fast(text: str, off: int = 0) -> None:
    """``text`` (a canonical record) is read by the fast reader, exactly as Lark reads it."""
    assert same_or_declined(text, off), f"declined:\n{text}"


def _headers(game: Game) -> str:
    keep = ("players", "rules", "modules")
    return "\n".join(f'[{h.name} "{h.value}"]' for h in game.headers if h.name.lower() in keep)


def record_positions(game: Game, every: int) -> list[str]:
    """``show --format record`` at every ``every``-th step of ``game`` and at its end: the
    game's headers and the position block, as the command writes them."""
    head = _headers(game)
    out = []
    for step in walk(game, snapshots=False, check=False):
        if step.index % every == 0 or step.item is None:
            out.append(f"{head}\n\n{position_text(step.state)}")
    return out


# ---------------------------------------------------------------------------- examples


@pytest.mark.parametrize("path", POSITION_EXAMPLES, ids=lambda p: p.name)
def test_every_example_position_block_is_read_by_the_fast_reader(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for start, chunk in split_games(fuzz_lines(text)):
        assert_read_fast(chunk, start - 1)
        quick = parse_game_text(chunk, path.name, start)
        fast.ENABLED = False
        try:
            slow = parse_game_text(chunk, path.name, start)
        finally:
            fast.ENABLED = True
        assert deep(quick) == deep(slow)
        assert any(isinstance(x, Position) for x in quick.body)


def test_the_position_examples_are_the_reviewers_list() -> None:
    names = {p.name for p in POSITION_EXAMPLES}
    assert {
        "final-2p-dirk.alh",
        "final-6p.alh",
        "final-counts.alh",
        "notation-endgame-3p.alh",
        "position-midgame.alh",
    } <= names


MODULE_EXAMPLES = [
    *sorted(EXAMPLES.glob("module*.alh")),
    EXAMPLES / "game-3p.alh",
    EXAMPLES / "game-6p.alh",
]


# The positions written: at every 14th step of a game, and every 7th for the two examples
# whose module state is written differently at a few moments only (Machtgebaeude's cards still
# on top of the deck after a Weisheit draw, Angreifer's scouts). Half the blocks of every 7th
# step everywhere, the same referee lines but one of the position writer (angreifer.py, the
# scouts' reveals still to come), which test_position_module_moments runs.
DENSER = {"module-machtgebaeude.alh", "module-angreifer.alh"}


@pytest.mark.parametrize("path", MODULE_EXAMPLES, ids=lambda p: p.name)
def test_show_record_of_every_module_example_is_read_by_the_fast_reader(path: Path) -> None:
    (game,) = parse_text(path.read_text(encoding="utf-8"))[:1]
    texts = record_positions(game, 7 if path.name in DENSER else 14)
    assert len(texts) >= 3
    for text in texts:
        assert_read_fast(text)


SIMULATED = [
    (players, profile, modules)
    for profile in ("queen-2003", "queen-bigbox-2019", "bga", "piatnik-hu")
    for players in (2, 3, 4, 5, 6)
    for modules in ((),)
] + [
    (players, "queen-2003", modules)
    for players in (2, 4, 6)
    for modules in (
        ("wesir",),
        ("wechselstuben",),
        ("bonuskarten",),
        ("plaetze",),
        ("wesir", "wechselstuben", "bonuskarten", "plaetze"),
    )
]


# The positions at every 22nd step (and the end) of each game: 394 blocks, the same 11,713
# referee lines as every 11th step's 734 (bench/README.md, issue 34, nineteenth step).
@pytest.mark.parametrize("players,profile,modules", SIMULATED)
def test_show_record_of_simulated_games_is_read_by_the_fast_reader(
    players: int, profile: str, modules: tuple[str, ...]
) -> None:
    text = simulate_text(players, 300 + players, load_profile(profile), modules=modules)
    (game,) = parse_text(text)
    for block in record_positions(game, 22):
        assert_read_fast(block)


# ----------------------------------------------------------------- hand-typed variants


def test_hand_typed_spellings_are_read_exactly() -> None:
    text = (
        '[Players "Anna, Ben"]\n'
        "POSITION   # typed at the table\n"
        "\tNext  Anna\n"
        "\n"
        "  Scorings 1 # one scoring over\n"
        "  MARKET gulden:T12 Di:-  - du:C7ne\n"
        "  display  Gu3 ? W1  \n"
        "\t# a comment line\n"
        "  Dirk T9ne ?\n"
        "  aside bz:DePSA\n"
        '  player "Anna"  # first\n'
        "   \t score -5\n"
        "    hand Gu3 De7 ?\n"
        "    Reserve T9es ?\n"
        "    alhambra A6sw@0,-1 G8ne@0,1 ?@2,0 bz:X@3,0\n"
        "    counts P=2 T=3 Wall=4 garten=1 wall=6\n"
        '    fruit fr:4 1 down 2 -3 @1,2 "x y" ? Gu3 W2 T8 # module arguments\n'
        "  player Dirk\n"
        "    score 007\n"
        "End # the end\n"
        "1. Anna: take Gu3\n"
    )
    assert_read_fast(text)
    items, _ = fast.read_game(text, 0, parse_chunk)  # type: ignore[misc]
    pos = items[1]
    assert [c.text for c in pos.comments] == [
        "typed at the table",
        "the end",
        "one scoring over",
        "a comment line",
    ]
    assert pos.players[0].score == -5 and pos.players[0].wall == 6
    assert pos.players[1].score == 7


def test_player_lines_before_any_player_are_the_same_error() -> None:
    text = "position\n  score 5\n  hand Gu3\n  player Anna\n  score 2\nend\n"
    assert_read_fast(text, 4)
    got = fast.read_game(text, 4, parse_chunk)
    assert got is not None
    assert [(e.code, e.pos.line, e.pos.column) for e in got[1]] == [
        ("POSITION-NO-PLAYER", 6, 3),
        ("POSITION-NO-PLAYER", 7, 3),
    ]
    assert "'score' describes a player" in got[1][0].message


@pytest.mark.parametrize(
    "block",
    [
        "position\n  score 5\n",  # no end
        "position\n  player Anna\n  score 5 6\nend\n",  # a syntax error
        "position\n  player Anna\n  counts X=2\nend\n",  # an unknown type: Lark's error
        "position\n  market Gu:T14\nend\n",  # an unknown tile: Lark's error
        "position\n  player Anna\n  alhambra T9@200,0\nend\n",  # out of range: Lark's error
        "position\n  scorings 12345678\nend\n",  # too many digits: Lark's error
        "position\n  player Anna, Ben\nend\n",
        "position\n  score\t5\nend\n",  # a tab between tokens
        "position\n  ſcore 5\nend\n",  # a keyword in letters beyond ASCII
        "position\n  take Gu3\nend\n",  # another keyword as a module verb
        "position x\nend\n",
        "position\nend x\n",
        "position\n  player Anna\n  score - 5\nend\n",
    ],
)
def test_blocks_the_fast_reader_declines(block: str) -> None:
    assert fast.read_game(block, 0, parse_chunk) is None
    quick = parse_game_text(block, "t.alh", 1)
    fast.ENABLED = False
    try:
        slow = parse_game_text(block, "t.alh", 1)
    finally:
        fast.ENABLED = True
    assert deep(quick) == deep(slow)
    assert [e.excerpt for e in quick.errors] == [e.excerpt for e in slow.errors]


# ------------------------------------------------------------- hypothesis-made blocks

_KEYWORD = st.sampled_from(
    [
        "next",
        "scorings",
        "market",
        "display",
        "dirk",
        "player",
        "score",
        "hand",
        "reserve",
        "alhambra",
        "counts",
        "end",
        "position",
        "take",
        "aside",
        "fruit",
        "plots",
        "x1",
    ]
)
_TOKEN = st.sampled_from(
    [
        "Anna",
        "Ben",
        '"Cem D"',
        "dirk",
        "Gu3",
        "gulden3",
        "W1",
        "score2",
        "?",
        "-",
        "T9ne",
        "G10-",
        "T14",
        "ex:GuDe",
        "bz:DePSA",
        "Gu:T12",
        "Di:-",
        "du:C7ne",
        "1:T10",
        "Gu:bz:X",
        "A6sw@0,-1",
        "?@1,1",
        "T9@200,0",
        "T9@1, 0",
        "P=2",
        "wall=3",
        "Mauer=4",
        "X=2",
        "T=-1",
        "5",
        "-5",
        "007",
        "1234567",
        "+3",
        "@1,2",
        "@-1,-2",
        "down",
        "Gu",
        "pay",
        "#c",
        "# c",
        "a#b",
        "{n}",
        "x,",
        ",",
        "\t",
        "ſ",
        "K",
    ]
)


@st.composite
def blocks(draw: Any) -> str:
    lines = [draw(st.sampled_from(["position", "Position", "  POSITION  # c", "position#c"]))]
    for _ in range(draw(st.integers(0, 8))):
        indent = draw(st.sampled_from(["", "  ", "    ", "\t", " \t ", "\t\t"]))
        kw = draw(_KEYWORD)
        kw = draw(st.sampled_from([kw, kw.upper(), kw.capitalize()]))
        words = draw(st.lists(_TOKEN, max_size=5))
        gap = draw(st.sampled_from([" ", "  "]))
        line = indent + gap.join([kw, *words])
        if draw(st.booleans()):
            line += draw(st.sampled_from(["", " # note", "  #", " #x # y"]))
        lines.append(line if draw(st.integers(0, 9)) else indent)
    lines.append(draw(st.sampled_from(["end", "End", "  end  # done", "end x", ""])))
    lines.append(draw(st.sampled_from(["", "1. Anna: take Gu3", "scoring 1"])))
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=blocks(), off=st.integers(0, 40))
def test_hypothesis_blocks_are_read_as_lark_reads_them_or_declined(text: str, off: int) -> None:
    same_or_declined(text, off)


def test_canonical_hypothesis_like_blocks_are_taken() -> None:
    """The generator above is not all declines: canonical blocks of its tokens are read."""
    taken = 0
    rng = random.Random(5)
    for _ in range(200):
        lines = ["position", f"  next {rng.choice(['Anna', 'Ben'])}"]
        for name in ("Anna", "Ben"):
            lines += [f"  player {name}", f"    score {rng.randint(-9, 99)}"]
            lines.append("    hand " + " ".join(rng.sample(["Gu3", "Di4", "?", "W1"], 2)))
            lines.append(
                "    alhambra " + " ".join(rng.sample(["A6sw@0,-1", "?@1,1", "T9ne@2,0"], 2))
            )
        lines.append("end")
        taken += same_or_declined("\n".join(lines) + "\n")
    assert taken == 200


# ------------------------------------------------------------------------ mutated lines


def _mutations(rng: random.Random, line: str) -> list[str]:
    out = []
    for _ in range(6):
        i = rng.randrange(len(line) + 1)
        ch = rng.choice(" \t#\"-:@,=?{}xX0159aAeE_'K")
        out += [line[:i] + ch + line[i:], line[:i] + line[i + 1 :], line[:i] + ch + line[i + 1 :]]
    out += [line.upper(), line.lower(), line.replace(" ", "  "), line.replace(" ", "\t", 1)]
    return out


def _blocks_to_mutate() -> list[str]:
    out = [p.read_text(encoding="utf-8") for p in POSITION_EXAMPLES[:6]]
    for name in ("module-obstgaerten.alh", "module-wave-c.alh", "module-bazare.alh"):
        (game,) = parse_text((EXAMPLES / name).read_text(encoding="utf-8"))[:1]
        out += record_positions(game, 40)[:2]
    return out


def test_mutated_block_lines_are_read_as_lark_reads_them_or_declined() -> None:
    rng = random.Random(34)
    taken = declined = 0
    for text in _blocks_to_mutate():
        (chunk,) = [c for _, c in split_games(fuzz_lines(text))][:1]
        lines = chunk.split("\n")
        inside = [
            i
            for i, ln in enumerate(lines)
            if ln[:1] in (" ", "\t") or ln.startswith(("position", "end"))
        ]
        for i in rng.sample(inside, min(12, len(inside))):
            for changed in _mutations(rng, lines[i]):
                text2 = "\n".join([*lines[:i], changed, *lines[i + 1 :]])
                if same_or_declined(text2):
                    taken += 1
                else:
                    declined += 1
    assert taken > 100 and declined > 100  # both sides exercised


# ------------------------------------------------------------------ Lark left unloaded

_PROBE = (
    "import sys\n"
    "sys.argv = ['alhambra-referee', *sys.argv[1:]]\n"
    "import atexit\n"
    "def said() -> None:\n"
    "    print('LARK' if 'lark' in sys.modules else 'NO-LARK', file=sys.stderr)\n"
    "atexit.register(said)\n"
    "from referee.__main__ import run\n"
    "run()\n"
)


# Each run a process of its own (the question is what a fresh process of the program loads),
# forked from one waiting process that has imported what the commands import and not Lark
# (forked_run_support): the interpreter's start and these imports are paid once, not ~120 times.
_FORKED = ForkedRuns(
    preload=[
        *("referee.__main__", "referee.cli", "referee.cli_plain", "click", "yaml", "json"),
        *("referee.commands", "referee.commands.show", "referee.commands._help"),
        *("referee.engine", "referee.engine.actions", "referee.engine.walk", "referee.datacache"),
        *("referee.notation", "referee.notation.formatter", "referee.notation.messages"),
        *("referee.reports.i18n", "referee.reports.terminal"),
        # and what one command or another of the runs below imports (none imports Lark: the
        # waiting process checks `absent` after its imports), so that a run imports only what
        # its own reading brings in
        *("referee.commands._pieces", "referee.commands._queries", "referee.commands.check"),
        *("referee.commands.explain", "referee.commands.fmt", "referee.commands.legal"),
        *("referee.commands.parse", "referee.commands.render", "referee.commands.score"),
        *("referee.engine.legal", "referee.engine.position", "referee.engine.position_compare"),
        *("referee.engine.position_text", "referee.engine.tower", "referee.geometry.general"),
        *("referee.record_limits", "referee.replay.page", "referee.replay.words"),
        *("referee.reports.check_report", "referee.reports.pieces", "referee.reports.svg"),
        *("referee.scoring.categories", "referee.scoring.core", "referee.scoring.position"),
        *("referee.scoring.state", "referee.scoring.text"),
    ],
    env={"PATH": "/usr/bin:/bin", "ALHAMBRA_REFEREE_CACHE": "0", "LC_ALL": "C.UTF-8"},
    cwd=ROOT,
    absent=["lark"],
)
atexit.register(_FORKED.close)


@pytest.fixture(scope="module", autouse=True)
def _forked_runs_end() -> Iterator[None]:
    yield
    _FORKED.close()


def _run(*args: str, cwd: Path = ROOT) -> tuple[int, str, str]:
    return _FORKED.run(_PROBE, args, cwd)


def _lark_loaded(err: str) -> bool:
    last = err.strip().splitlines()[-1]
    assert last in ("LARK", "NO-LARK"), err
    return last == "LARK"


def test_check_parse_fmt_headers_of_every_example_leave_lark_unloaded() -> None:
    files = [str(p) for p in sorted(EXAMPLES.glob("*.alh"))]
    for command in (["check"], ["parse"], ["fmt", "--check"], ["headers"]):
        code, _, err = _run(*command, *files)
        assert code in (0, 1), (command, err)
        assert not _lark_loaded(err), command


@pytest.mark.parametrize("path", POSITION_EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize(
    "command",
    [
        ["check", "FILE"],
        ["score", "FILE"],
        ["show", "FILE"],
        ["show", "--format", "record", "FILE"],
        ["show", "--format", "json", "FILE"],
        ["parse", "FILE"],
        ["fmt", "--diff", "FILE"],
        ["render", "-o", "-", "FILE"],
        ["render", "--html", "-o", "OUT", "FILE"],
        ["legal", "--tile", "T13", "FILE"],
        ["explain", "FILE", "take Gu3"],
    ],
    ids=lambda c: "-".join(w for w in c if w != "FILE"),
)
def test_commands_on_position_examples_leave_lark_unloaded(
    command: list[str], path: Path, tmp_path: Path
) -> None:
    args = [
        str(path) if w == "FILE" else str(tmp_path / "out.html") if w == "OUT" else w
        for w in command
    ]
    code, _, err = _run(*args)
    assert code in (0, 1, 3), err  # 3: no scoring 3 to score in an illegal-* example
    assert not _lark_loaded(err)


def test_show_record_output_checks_without_lark(tmp_path: Path) -> None:
    for name in ("module-obstgaerten.alh", "module-wave-c.alh", "game-4p.alh"):
        code, out, err = _run("show", "--format", "record", str(EXAMPLES / name))
        assert code == 0, err
        target = tmp_path / f"end-{name}"
        target.write_text(out, encoding="utf-8")
        for command in (["check"], ["score"], ["show"]):
            code, _, err = _run(*command, str(target))
            assert code in (0, 1), (name, command, err)
            assert not _lark_loaded(err), (name, command)


def test_a_syntax_error_in_a_block_still_loads_lark_with_the_same_message(tmp_path: Path) -> None:
    text = (EXAMPLES / "position-midgame.alh").read_text(encoding="utf-8")
    broken = text.replace("    score 4\n", "    score 4 4\n", 1)
    assert broken != text
    target = tmp_path / "broken.alh"
    target.write_text(broken, encoding="utf-8")
    code, out, err = _run("parse", str(target))
    assert code == 2
    assert _lark_loaded(err)
    fast.ENABLED = False
    try:
        (slow,) = parse_text(broken)
    finally:
        fast.ENABLED = True
    (quick,) = parse_text(broken)
    assert quick.errors and deep(quick) == deep(slow)
    assert [e.excerpt for e in quick.errors] == [e.excerpt for e in slow.errors]
    assert slow.errors[0].message in out
