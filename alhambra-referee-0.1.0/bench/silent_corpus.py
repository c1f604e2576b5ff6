#!/usr/bin/env python
"""Silent corpora: games in which one module is enabled and never used (issue 34).

The issue's target "a module that does not act costs <= 10 % of a base turn" is counted on
corpora of 20 games with one module enabled. Such a corpus measures silence only when every
game is a valid record in which the module plays no part. This script makes one a module:

* **header**: the base corpus's games (``base-20.alh`` of ``bench_modules.py``, the count10
  ``base`` row) with ``[Modules "<module>"]`` added, when all of them stay valid records with
  it (the module needs no set-up line and changes nothing a base record shows);
* **sim**: else simulated games with the module enabled, played by a policy that never uses
  it: no module verb, free action, out-of-turn line or stage bid (a stage that must be answered
  is passed), no move the module offers, and no purchase, payment or take of a module piece.
  A game is kept only when ``check_game`` finds it valid (no violation, nothing unverifiable)
  and no player line of it names a module verb or piece. Chance lines the module writes by
  itself (its set-up, pieces drawn, its own events) stay: for such a module "silent" means
  "its pieces are in play but nobody uses them"; the table says how many such lines a corpus
  holds. Seeds and player counts follow the base corpus (2 to 6 players, ``games // 5`` each,
  run seeds ``34 + players``, further games of the run when one is not silent).

A module for which fewer than ``games`` silent games turn up within ``--tries`` games a player
count gets no corpus (the table says so).

    python bench/silent_corpus.py --out DIR                  # every bundled module
    python bench/silent_corpus.py --out DIR --only wesir sultan --table table.md

Writes ``DIR/silent-<module>-<games>.alh`` and prints a table (markdown): module, source,
games, turns, player module lines (0), module chance lines, events kept by kind.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_check  # noqa: E402

BASE_SEED = 34  # the base corpus's run seed (bench_modules.corpora: corpus(games, 34))
PLAYERS = (2, 3, 4, 5, 6)


def split_games(text: str) -> list[str]:
    """The games of a multi-game record text (each starts with its ``[Event`` header)."""
    parts = text.split("\n[Event ")
    return [p if p.startswith("[Event ") else "[Event " + p for p in parts if p.strip()]


def with_header(game: str, module: str) -> str:
    return game.replace("[Result ", f'[Modules "{module}"]\n[Result ', 1)


def _mentions_module(node: object) -> bool:
    """Whether a record node names a module verb, event or piece (anywhere inside it)."""
    from referee.record.model import ComponentRef, ModuleAction, ModuleChance

    if isinstance(node, ComponentRef | ModuleAction | ModuleChance):
        return True
    if isinstance(node, tuple | list):
        return any(_mentions_module(x) for x in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(
            _mentions_module(getattr(node, f.name))
            for f in dataclasses.fields(node)
            if f.name not in ("pos", "notes", "comment")
        )
    return False


def module_lines(game: Any) -> tuple[int, int, Counter[str]]:
    """(player lines naming a module verb or piece, chance lines doing so, the kinds of the
    module events and pieces in those chance lines)."""
    from referee.record.model import Chance, ComponentRef, ModuleChance, Turn

    players = chances = 0
    kinds: Counter[str] = Counter()

    def walk(node: object) -> None:
        if isinstance(node, ModuleChance):
            kinds[f"* {node.verb}"] += 1
        elif isinstance(node, ComponentRef):
            kinds[f"{node.kind}:"] += 1
        elif isinstance(node, tuple | list):
            for x in node:
                walk(x)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            for f in dataclasses.fields(node):
                if f.name not in ("pos", "notes", "comment"):
                    walk(getattr(node, f.name))

    for item in game.body:
        if isinstance(item, Turn):
            players += _mentions_module(item.actions)
        elif isinstance(item, Chance) and _mentions_module(item.events):
            chances += 1
            walk(item.events)
        elif not isinstance(item, Chance) and _mentions_module(item):
            players += 1
    return players, chances, kinds


def verdict(text: str) -> tuple[bool, str, Any]:
    """(valid and silent, why not, the parsed game)."""
    from referee.api import check_game, parse_game

    game = parse_game(text)
    report = check_game(game)
    if not report.valid or report.violations or report.unverifiable:
        first = (report.violations or report.unverifiable)[0].message()
        return False, f"not valid: {first}", game
    players, _chances, _kinds = module_lines(game)
    if players:
        return False, f"{players} player line(s) use the module", game
    return True, "", game


# --------------------------------------------------------------------- the silent player


VARIANTS: dict[str, dict[str, float]] = {
    "sim": {"verb": 0.0, "free": 0.0, "interrupt": 0.0, "stage_pass": 1.0, "stage_skip": 1.0},
    # a module that takes the reserve's place (Marktplatz: a tile that goes to the reserve is
    # laid on a stall): the player places every tile it can and never removes or swaps one
    "sim, no reserve": {
        **{"verb": 0.0, "free": 0.0, "interrupt": 0.0, "stage_pass": 1.0, "stage_skip": 1.0},
        **{"place": 1.0, "remove": 0.0, "swap": 0.0, "build": 0.0},
        "placeable": 1.0,  # (not a weight) buy only a tile with a cell free for it now
    },
    "sim, exact": {
        **{"verb": 0.0, "free": 0.0, "interrupt": 0.0, "stage_pass": 1.0, "stage_skip": 1.0},
        "overpay_buy": 0.0,
    },
}
"""The silent player's weights (:class:`referee.simulate.policy.Weights`), tried in order."""

PREFER: dict[str, tuple[str, ...]] = {
    # Wechselgeld gives change for an overpayment by itself (a ``* change`` line, or a
    # finding when the record draws none): its silent player never overpays
    "wechselgeld": ("sim, exact",),
}
"""Modules whose silent player is another variant (tried first, before :data:`VARIANTS`)."""


@contextmanager
def silent_player(weights: dict[str, float]) -> Iterator[Any]:
    """The simulator's module, its player one that never uses a module, for the ``with``
    block only (the simulator's ``LazyOptions`` and ``Policy`` patched, then put back: the
    script runs the pure package)."""
    from referee.engine.legal import cells_for
    from referee.record.model import ModuleAction
    from referee.simulate import policy, simulator

    placeable = bool(weights.get("placeable"))
    weights = {k: v for k, v in weights.items() if k != "placeable"}

    def plain(actions: list[Any]) -> list[Any]:
        return [a for a in actions if not _mentions_module(a)]

    class SilentOptions(simulator.LazyOptions):
        def _module(self) -> list[Any]:
            return []

        def takes(self) -> list[Any]:
            return plain(super().takes())

        def buys(self) -> list[Any]:
            got = plain(super().buys())
            if placeable and self.p is not None:
                got = [a for a in got if _fits(self, a)]
            return got

        def builds(self) -> list[Any]:
            return plain(super().builds())

        def removes(self) -> list[Any]:
            return plain(super().removes())

        def swaps(self) -> list[Any]:
            return plain(super().swaps())

        def verbs(self) -> list[Any]:
            return []

        def wanted(self, actions: list[Any]) -> list[Any]:
            return []

        def all(self) -> list[Any]:
            return [a for a in plain(super().all()) if not isinstance(a, ModuleAction)]

    def _fits(options: SilentOptions, buy: Any) -> bool:
        kind = getattr(buy.tile, "kind", None)
        p = options.p
        return kind is not None and p is not None and bool(cells_for(options.ctx, p, kind))

    class SilentPolicy(policy.Policy):
        def __init__(self, rng: Any, _weights: Any = None) -> None:
            super().__init__(rng, policy.Weights(**weights))

        def choose_placement(self, options: Any, alh: Any) -> Any:
            return super().choose_placement(plain(list(options)) or list(options), alh)

    kept = simulator.LazyOptions, simulator.Policy, simulator.MAX_TURNS
    simulator.MAX_TURNS = MAX_TURNS
    setattr(simulator, "LazyOptions", SilentOptions)  # noqa: B010 (a patch, put back below)
    setattr(simulator, "Policy", SilentPolicy)  # noqa: B010
    try:
        yield simulator
    finally:
        setattr(simulator, "LazyOptions", kept[0])  # noqa: B010
        setattr(simulator, "Policy", kept[1])  # noqa: B010
        simulator.MAX_TURNS = kept[2]


MAX_TURNS = 400
"""The silent player's games end by this turn or are given up (real games end after about 60
to 200 turns; a module whose pieces fill the market and are never bought can block a game:
the simulator's own net is 2,000 turns)."""
GIVE_UP = 2  # games of one player count that do not end: the variant is given up


def simulated(
    module: str, players: int, tries: int, weights: dict[str, float]
) -> Iterator[tuple[int, str]]:
    """(game index, record text, or ``!`` and the simulator's error) of the silent player's
    first ``tries`` games of run ``34 + players``."""
    seed = BASE_SEED + players
    for i in range(tries):
        event = f"silent {module or 'none'} game {i + 1} of run {seed}"
        try:
            with silent_player(weights) as sim:
                mods = (module,) if module else ()  # none: the variant's control games
                text = sim.simulate_text(players, sim.game_seed(seed, i), None, event, mods)
        except Exception as exc:  # the simulator cannot play this seed: the next one
            yield i, f"!{type(exc).__name__}: {exc}"
            continue
        yield i, text


# ------------------------------------------------------------------------------ corpora


def make_corpus(
    module: str,
    base_games: list[str],
    games: int,
    tries: int,
    players: tuple[int, ...] = PLAYERS,
) -> dict[str, Any]:
    """The silent games of ``module`` and how they were made (``texts`` empty: none):
    ``games`` games, as many of each number of ``players`` (simulated ones)."""
    row: dict[str, Any] = {"module": module, "texts": [], "rejected": Counter()}
    header = [with_header(g, module) for g in base_games[:games]]
    verdicts = [verdict(t) for t in header]
    if len(header) == games and all(ok for ok, _why, _g in verdicts):
        row.update(source="header", texts=header, parsed=[g for _ok, _why, g in verdicts])
        return row
    row["header_invalid"] = sum(not ok for ok, _why, _g in verdicts)
    row["header_why"] = next((why for ok, why, _g in verdicts if not ok), "too few base games")
    for variant in PREFER.get(module) or tuple(v for v in VARIANTS if v != "sim, exact"):
        row["source"] = variant
        if _simulate_rows(row, module, games, tries, players):
            break
    return row


def _simulate_rows(
    row: dict[str, Any], module: str, games: int, tries: int, players: tuple[int, ...]
) -> bool:
    """Fill ``row`` with the silent player's games (variant ``row["source"]``); False (row
    empty) when too few turn up."""
    weights = VARIANTS[row["source"]]
    per = max(1, games // len(players))
    texts: list[str] = []
    parsed: list[Any] = []
    for n in players:
        got = endless = 0
        for _i, text in simulated(module, n, tries, weights):
            if text.startswith("!"):
                row["rejected"]["simulator: " + text[1:80]] += 1
                endless += "does not end" in text
                if endless >= GIVE_UP:
                    break
                continue
            ok, why, game = verdict(text)
            if not ok:
                row["rejected"][why[:90]] += 1
                continue
            texts.append(text)
            parsed.append(game)
            got += 1
            if got == per:
                break
        if got < per:
            row.update(texts=[], parsed=[], short=f"{n} players: {got} of {per}")
            return False
    row.update(texts=texts, parsed=parsed)
    return True


def bundled() -> list[str]:
    from referee.modules import BUNDLED

    return sorted(cls.name for cls in BUNDLED)


def table_line(row: dict[str, Any]) -> str:
    texts = row["texts"]
    if not texts:
        why = row.get("short", "")
        return f"| {row['module']} | {row.get('source', '?')} | none ({why}) | | | | |"
    turns = sum(bench_check.count_turns(t) for t in texts)
    player = chance = 0
    kinds: Counter[str] = Counter()
    for g in row["parsed"]:
        p, c, k = module_lines(g)
        player += p
        chance += c
        kinds.update(k)
    shown = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())) or "-"
    rejected = sum(row["rejected"].values())
    return (
        f"| {row['module']} | {row['source']} | {len(texts)} | {turns} | {player} | {chance} "
        f"| {shown} | {rejected} |"
    )


HEAD = (
    "| module | source | games | turns | player module lines | module chance lines "
    "| module events/pieces in chance lines | sim games rejected |\n"
    "|---|---|---:|---:|---:|---:|---|---:|"
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="folder for silent-<m>-<n>.alh")
    ap.add_argument("--base", type=Path, default=None, help="base corpus (default: OUT/base-N)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tries", type=int, default=12, help="simulated games a player count")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--table", type=Path, default=None, help="also write the table here")
    ap.add_argument("--why", action="store_true", help="print the rejections per module")
    ap.add_argument(
        "--control",
        nargs="*",
        default=(),
        choices=[v for v in VARIANTS if v != "sim"],
        help="also the variant's player without a module (silent-none.<word>-N.alh: its base "
        "row; the plain sim player's is the base corpus itself, same seeds)",
    )
    args = ap.parse_args(argv)
    for variant in args.control:
        row = {"module": "", "texts": [], "rejected": Counter(), "source": variant}
        if _simulate_rows(row, "", args.games, args.tries, PLAYERS):
            word = variant.split(", ")[-1].replace(" ", "")
            path = args.out / f"silent-none.{word}-{args.games}.alh"
            path.write_text(
                "\n".join(t.rstrip("\n") + "\n" for t in row["texts"]), encoding="utf-8"
            )
            print(f"control {variant}: {path}", flush=True)
    base = args.base or args.out / f"base-{args.games}.alh"
    base_games = split_games(base.read_text(encoding="utf-8"))
    lines = [HEAD]
    print(HEAD, flush=True)
    for module in args.only if args.only is not None else bundled():
        row = make_corpus(module, base_games, args.games, args.tries)
        if row["texts"]:
            path = args.out / f"silent-{module}-{args.games}.alh"
            tmp = path.with_suffix(".tmp")
            tmp.write_text("\n".join(t.rstrip("\n") + "\n" for t in row["texts"]), encoding="utf-8")
            tmp.replace(path)
        line = table_line(row)
        lines.append(line)
        print(line, flush=True)
        if args.why:
            if "header_why" in row:
                print(f"    header: {row['header_invalid']} invalid, e.g. {row['header_why']}")
            for why, n in row["rejected"].most_common(5):
                print(f"    {n} x {why}")
    if args.table:
        args.table.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
