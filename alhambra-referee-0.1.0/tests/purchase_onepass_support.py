"""What the tests of the one-pass purchases with a module's components
(``purchase._purchase_with_components``; tests/test_purchase_components_onepass.py,
tests/test_purchase_site_onepass.py, tests/test_purchase_pairs_onepass.py,
tests/test_purchase_hearers_onepass.py) and of a module's piece from a market field
(``purchase._plain_piece_field``; tests/test_purchase_pieces_onepass.py) share: the skip of a
compiled build, the profiles the simulated games are played under, copies of a record with
lines left out and component tokens changed, what a game's check gives (reports, module
views, hands, Alhambras, reserves, discard pile), and the comparison of the path with the
pipeline (the path switched off)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_store_support import simulated_text

from referee.engine import check_game
from referee.engine.actions import purchase as _purchase_module
from referee.notation import parse_text

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ["queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga"]

# These tests watch the engine through a patched module-level function
# (`purchase._purchase_with_components`); a compiled build (ALHAMBRA_REFEREE_MYPYC=1) calls it
# directly, so the patch is not seen there. The compiled build's behaviour is held by
# bench/same_output.py and tests/test_compiled_*.py.
SKIP_COMPILED = pytest.mark.skipif(
    not str(_purchase_module.__file__).endswith(".py"),
    reason="watches a Python-level call that the compiled build makes directly",
)


FIRST22 = [  # the first 22 modules (bench/bench_modules.py FIRST_22)
    "angreifer",
    "badehaeuser",
    "bauland",
    "baumeister",
    "baustellen",
    "bazare",
    "bonuskarten",
    "diamanten",
    "diebe",
    "magisch",
    "medina",
    "obstgaerten",
    "plaetze",
    "schaetze",
    "sultan",
    "wechselgeld",
    "wechselscheine",
    "wechselstuben",
    "wertungskaertchen",
    "wesir",
    "wuensche",
    "wunschbrunnen",
]


# the seeds of the simulated games of the first 22 modules (queen-2003) by player count: the
# one-pass tests that check "the first 22 together" share these three games (made once a run),
# as test_placement_pieces_onepass chose them, instead of a game of a seed of their own each
FIRST22_SEEDS = {2: 18400, 3: 18401, 4: 18402}


def first22_game(players: int) -> str:
    """The simulated game of the first 22 modules with ``players`` (2 to 4) players under
    queen-2003, seed ``FIRST22_SEEDS[players]``, simulated once a run."""
    return simulated_text(players, FIRST22_SEEDS[players], "queen-2003", "first 22", FIRST22)


def variants(text: str, kind: str) -> list[str]:
    """``text``, copies with one line of play left out, and copies with the ``kind:NAME``
    tokens of some payments named otherwise (another value, a second token, one dropped)."""
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    step = max(4, len(body) // 8)
    out = [text] + ["\n".join(lines[:i] + lines[i + 1 :]) + "\n" for i in body[3::step]]
    token = re.compile(rf"\b{kind}:(\w+)")
    paying = [i for i, line in enumerate(lines) if token.search(line)]
    for n, i in enumerate(paying[:12]):
        line = lines[i]
        if n % 4 == 0:
            new = token.sub(
                lambda m: (
                    f"{kind}:{(int(m.group(1)) % 5) + 1}"
                    if m.group(1).isdigit()
                    else f"{kind}:{m.group(1).swapcase()}"
                ),  # a coin's currency, in another case
                line,
                count=1,
            )
        elif n % 4 == 1:
            new = token.sub(lambda m: f"{m.group(0)} {kind}:1", line, count=1)
        elif n % 4 == 2:
            new = token.sub(f"{kind}:9", line, count=1)
        else:
            new = re.sub(r" pay ", " pay Gu9 ", line, count=1)
        out.append("\n".join([*lines[:i], new, *lines[i + 1 :]]) + "\n")
    return out


def outcomes(texts: list[str], scratch: bool = False) -> list[str]:
    """What checking each game of ``texts`` gives: the report, the module views, each
    player's hand (known cards and unknown ones), Alhambra and reserve, the discard pile;
    with ``scratch``, every module's state too (what it keeps beyond its view)."""
    out = []
    for text in texts:
        for game in parse_text(text, "onepass.alh"):
            report = check_game(game)
            state = report.state
            if state is None:
                out.append(repr(report))
                continue
            players = [
                (
                    p.name,
                    sorted(map(str, p.hand.elements())),
                    p.hand_unknown,
                    [(str(at), repr(piece)) for at, piece in p.alhambra.items()],
                    [repr(piece) for piece in p.reserve],
                )
                for p in state.players
            ]
            out.append(
                repr(report)
                + repr(state.ext.views(state))
                + repr(players)
                + repr(sorted(map(str, state.discard.elements())))
                + (repr(sorted(state.modules.items())) if scratch else "")
            )
    return out


def compare(
    texts: list[str],
    monkeypatch: pytest.MonkeyPatch,
    pieces: list[Any] | None = None,
    scratch: bool = False,
    path: str = "_purchase_with_components",
    off: object = False,
) -> list[bool]:
    """Check ``texts`` with the one-pass path and with it switched off (the pipeline), assert
    the same outcomes, and return whether each call of the path carried its purchase out;
    ``pieces`` (optional) gets what each purchase the path carried out left to be placed;
    ``scratch``: the modules' states are compared too (:func:`outcomes`). ``path``: the
    function of ``purchase`` watched (default the purchase with components), ``off`` its
    answer that sends the purchase to the pipeline."""
    taken: list[bool] = []
    real = getattr(_purchase_module, path)

    def counted(*args: Any) -> Any:
        state = args[0]
        before = len(state.turn.pending) if state.turn is not None else 0
        done = real(*args)
        taken.append(done is not off)
        if done is not off and pieces is not None:
            pieces.extend(state.turn.pending[before:])
        return done

    monkeypatch.setattr(_purchase_module, path, counted)
    one_pass = outcomes(texts, scratch)
    monkeypatch.setattr(_purchase_module, path, lambda *args: off)
    assert outcomes(texts, scratch) == one_pass
    monkeypatch.undo()
    return taken


def piece_field_taken(texts: list[str], monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """:func:`compare` for a module's piece bought from a market field in one pass
    (``purchase._plain_piece_field``): whether each purchase took the path."""
    return compare(texts, monkeypatch, scratch=True, path="_plain_piece_field", off=None)


def simulated_variants(
    modules: tuple[str, ...], seed: int, kind: str, title: str, games: int = 3
) -> list[str]:
    """Simulated games of ``modules`` (player counts and profiles going round from ``seed``),
    each with its :func:`variants` of the pieces ``kind``: lines left out, the pieces' tokens
    renamed (another price, a second token, one dropped) and a card more paid (the pipeline
    reports)."""
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    texts: list[str] = []
    for k in range(games):
        profile = load_profile(PROFILES[(seed + k) % len(PROFILES)])
        text = simulate_text(2 + k % 3, seed + k, profile, f"{title} {k}", modules)
        texts += variants(text, kind)
    return texts


def chosen(texts: list[str], keep: tuple[int, ...] | None) -> list[str]:
    """The texts of ``texts`` at the indices ``keep`` among its different texts, in their
    order (every text for None). A test names the
    copies it checks where the others ran no line of ``referee`` that the chosen ones do not
    (measured per test with coverage's contexts, one a text: bench/README.md, issue 34's
    seventeenth step, one-pass tests); the games are simulated as before."""
    if keep is None:
        return texts
    once = list(dict.fromkeys(texts))  # (a copy may be another's text: counted once)
    return [once[i] for i in keep if i < len(once)]


def simulated_games(
    modules: tuple[str, ...], seed: int, kind: str, title: str, games: int = 3
) -> Iterator[list[str]]:
    """:func:`simulated_variants` game by game: each game is simulated only when the one
    before it has been used (``chosen_from`` stops asking once it has the copies it keeps)."""
    from referee.profiles import load_profile
    from referee.simulate.simulator import simulate_text

    for k in range(games):
        profile = load_profile(PROFILES[(seed + k) % len(PROFILES)])
        yield variants(simulate_text(2 + k % 3, seed + k, profile, f"{title} {k}", modules), kind)


def chosen_from(batches: Iterable[list[str]], keep: tuple[int, ...]) -> list[str]:
    """``chosen(every text of batches, keep)``, the batches made only as far as the last index
    kept: a simulated game none of whose copies is kept is not simulated (issue 34,
    twenty-second step: the copies kept are those that run lines no other copy of the one-pass
    files runs, and most of them lie in a test's first games)."""
    once: dict[str, None] = {}
    last = max(keep)
    for batch in batches:
        once.update(dict.fromkeys(batch))
        if len(once) > last:
            break
    texts = list(once)
    return [texts[i] for i in keep if i < len(texts)]
