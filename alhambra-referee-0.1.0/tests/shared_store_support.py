"""Texts that several tests of one run make the same way, made once and shared.

A test asks :func:`shared_text` for a text by a kind and a key (what makes the text: for a
simulated game its players, seed, profile, event and modules); the first test that asks makes
it, the others read it back. The texts are kept as files in a folder of the run's temporary
folder that every xdist worker of the run shares (``conftest.py`` names it at the start of a
session), written to a file of their own first and then renamed, so no test ever reads half a
text. Only text is kept (records, reports' ``repr``, JSON): nothing is pickled, and nothing
outlives the run (a new run has a new temporary folder). Outside a pytest session (a test
module imported by hand) the texts are kept in this process only.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

_FOLDER: list[Path] = []
_HERE: dict[str, str] = {}


def use_folder(folder: Path) -> None:
    """Keep the shared texts in ``folder`` (made if missing) from now on."""
    folder.mkdir(parents=True, exist_ok=True)
    _FOLDER[:] = [folder]


def shared_text(kind: str, key: tuple[object, ...], make: Callable[[], str]) -> str:
    """The text ``make()`` gives for ``key``, made at most once a run (per worker that finds
    no finished file: two workers asking at the same moment both make it, the same text)."""
    digest = hashlib.sha256(repr((kind, key)).encode("utf-8")).hexdigest()[:40]
    name = f"{kind}-{digest}.txt"
    if not _FOLDER:
        if name not in _HERE:
            _HERE[name] = make()
        return _HERE[name]
    path = _FOLDER[0] / name
    try:
        return path.read_bytes().decode("utf-8")  # byte for byte (no newline translation)
    except FileNotFoundError:
        pass
    text = make()
    part = path.with_name(f"{name}.{os.getpid()}.part")
    part.write_bytes(text.encode("utf-8"))
    os.replace(part, path)
    return text


def simulated_text(
    players: int, seed: int, profile: str | None, event: str | None, modules: Sequence[str]
) -> str:
    """``simulate_text(players, seed, load_profile(profile), event, modules)`` (the default
    profile for None), simulated once a run."""

    def make() -> str:
        from referee.profiles import load_profile
        from referee.simulate import fast_way_replays
        from referee.simulate.simulator import simulate_text

        rules = load_profile(profile) if profile is not None else None
        before = len(fast_way_replays())
        text = simulate_text(players, seed, rules, event, tuple(modules))
        defects = [r for r in fast_way_replays()[before:] if r.reason != "refused"]
        # the simulator's fast way replays a game with trials on any failure, so the record is
        # right all the same: a failure other than a refusal is a defect of the fast way alone
        assert not defects, f"the simulator's fast way failed (game replayed): {defects}"
        return text

    return shared_text("sim", (players, seed, profile, event, tuple(modules)), make)


CONTRACT_PROFILES = ("queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga")


def contract_game(name: str, k: int) -> str:
    """Game ``k`` (0 to 49) of the fifty simulated games of module ``name`` that
    test_module_contract checks: ``2 + k % 5`` players, seed ``1000 + k``, the profiles in
    turn. Tests that want a few games of one module with no seed of their own take these
    (the same players and profiles they went round before), simulated once a run."""
    players = 2 + k % 5
    profile = CONTRACT_PROFILES[k % len(CONTRACT_PROFILES)]
    return simulated_text(players, 1000 + k, profile, f"contract {name} {k}", (name,))


def simulated_many(players: int, seed: int, games: int, modules: Sequence[str] = ()) -> list[str]:
    """``list(simulate_many(players, seed, games, modules=modules))`` (the default profile),
    each game simulated once a run."""
    from referee.simulate.simulator import game_seed

    return [
        simulated_text(
            players, game_seed(seed, i), None, f"simulated game {i + 1} of run {seed}", modules
        )
        for i in range(games)
    ]
