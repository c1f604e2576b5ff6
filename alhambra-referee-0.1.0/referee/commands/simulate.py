"""``alhambra-referee simulate``: complete random legal games as canonical records.

Every chance event is written (deal, display, market, reshuffle, scoring cards, Dirk's draws,
the distribution) and the claimed totals at every scoring, so each game checks itself. The same
``--seed`` gives byte-identical output.

The engine-driven simulator (:mod:`referee.simulate.simulator`) plays every game through the
engine's legal-move generator (:mod:`referee.engine.legal`), for any player count and rule
profile; with ``--modules`` it writes the ``Modules`` header, and the enabled modules add their
moves and chance events (cards in the money deck, squares turned up, bonus cards dealt ...).
"""

from __future__ import annotations

import json
import sys
import time
from typing import IO, Any

import click
import yaml

from referee.profiles import RuleProfile
from referee.reports.i18n import current_lang, lang_option, register, t

EXIT_OK, EXIT_INTERNAL = 0, 2


register("simulate.no_module", "no module named", "kein Modul genannt")
register("simulate.progress", "playing game {n} of {total}", "spiele Partie {n} von {total}")
register(
    "simulate.wrote",
    "{path}: {n} games written ({players} players, seed {seed})",
    "{path}: {n} Partien geschrieben ({players} Personen, Startwert {seed})",
)
register(
    "simulate.wrote.one",
    "{path}: 1 game written ({players} players, seed {seed})",
    "{path}: 1 Partie geschrieben ({players} Personen, Startwert {seed})",
)
register(
    "simulate.unknown_module",
    "unknown module {unknown} (available: {available}; `alhambra-referee modules` lists them "
    "with their aliases)",
    "unbekanntes Modul {unknown} (vorhanden: {available}; `alhambra-referee modules` nennt sie "
    "mit ihren anderen Namen)",
)
register(
    "simulate.unknown_module.near",
    "unknown module {unknown}: did you mean {closest}? (`alhambra-referee modules` lists every "
    "module with its aliases)",
    "unbekanntes Modul {unknown}: ist {closest} gemeint? (`alhambra-referee modules` nennt jedes "
    "Modul mit seinen anderen Namen)",
)
register(
    "simulate.internal",
    "internal error in game {n} (seed {seed}): {error}",
    "interner Fehler in Partie {n} (Seed {seed}): {error}",
)


def _profile(name: str) -> RuleProfile:
    from referee.profiles import load_profile

    try:
        return load_profile(name)
    except Exception as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from exc


register(
    "simulate.edition_tower",
    "the {edition} edition is simulated without modules that put pieces into the tower "
    "({modules}): its summary knows no module pieces on the preview board",
    "die Ausgabe {edition} wird ohne Module simuliert, die Teile in den Turm legen "
    "({modules}): ihre Zusammenfassung kennt keine Modulteile auf dem Vorschau-Tableau",
)


def _edition_with(profile: Any, mods: tuple[str, ...]) -> None:
    """An edition's own board (the guards edition's preview board) is filled from the tower:
    a module mixing its pieces into the tower is not simulated with it (a usage error)."""
    edition = getattr(profile, "edition", "base")
    if edition == "base" or not mods:
        return
    from referee.engine.extensions import MODULES

    tower = [
        m.split()[0]
        for m in mods
        if MODULES[m.split()[0]]().tower_components()
        and not MODULES[m.split()[0]].tower_pieces_previewed
    ]
    if tower:
        raise click.BadParameter(
            t(
                "simulate.edition_tower",
                current_lang(),
                edition=edition,
                modules=", ".join(MODULES[m].name for m in tower),
            ),
            param_hint="--modules",
        )


def _modules(raw: str | None) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(m.strip().lower() for m in (raw or "").split(",") if m.strip()))
    if raw is not None and not names:
        raise click.BadParameter(t("simulate.no_module", current_lang()), param_hint="--modules")
    if not names:
        return ()
    from referee.engine.extensions import MODULES, load_bundled_modules

    load_bundled_modules()
    unknown = [m for m in names if m.split()[0] not in MODULES]  # options may follow a name
    if unknown:
        from difflib import get_close_matches

        # the closest name (aliases too), as the Modules header's MODULE-UNKNOWN says it
        near = [get_close_matches(m.split()[0], list(MODULES), n=1, cutoff=0.6) for m in unknown]
        if all(near):
            closest = ", ".join(dict.fromkeys(MODULES[n[0]].name for n in near))
            raise click.BadParameter(
                t(
                    "simulate.unknown_module.near",
                    current_lang(),
                    unknown=", ".join(unknown),
                    closest=closest,
                ),
                param_hint="--modules",
            )
        available = sorted({cls.name for cls in MODULES.values()})
        raise click.BadParameter(
            t(
                "simulate.unknown_module",
                current_lang(),
                unknown=", ".join(unknown),
                available=", ".join(available),
            ),
            param_hint="--modules",
        )
    # aliases -> module names; options after a name are kept ("wuensche task5=line")
    return tuple(
        dict.fromkeys(" ".join([MODULES[m.split()[0]].name, *m.split()[1:]]) for m in names)
    )


@click.command("simulate")
@click.option(
    "--players",
    "-p",
    type=click.IntRange(2, 6),
    default=3,
    show_default=True,
    help="Players per game (2 adds Dirk).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option(
    "--games", "-n", type=click.IntRange(1), default=1, show_default=True, help="Games to play."
)
@click.option(
    "--rules",
    metavar="NAME",
    default="queen-2003",
    show_default=True,
    help="Rule profile the games follow (written in each Rules header).",
)
@click.option(
    "--modules",
    metavar="A,B",
    default=None,
    help="Expansion modules to play (see `alhambra-referee modules`), e.g. wesir,plaetze.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    default="-",
    help="File to write the records to (default: standard output).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "yaml"], case_sensitive=False),
    default="text",
    show_default=True,
    help="text: the records; json/yaml: the records with seed, turns and result of each.",
)
@click.option(
    "--progress/--no-progress",
    "progress",
    default=None,
    help="Show how many games are played on standard error (default: only on a terminal).",
)
@lang_option
def command(
    players: int,
    seed: int,
    games: int,
    rules: str,
    modules: str | None,
    output: str,
    fmt: str,
    progress: bool | None,
    lang: str,
) -> int:
    """Play random legal games and write them as canonical records. With -o FILE it shows its
    progress on a terminal and says at the end what it wrote.

    \b
    Example:
      alhambra-referee simulate --players 4 --seed 7 --games 100 -o games.alh
      alhambra-referee check games.alh
    """
    from referee.simulate import SimulationError, game_seed, simulate_text

    profile = _profile(rules)
    mods = _modules(modules)
    _edition_with(profile, mods)
    fmt = fmt.lower()
    records: list[dict[str, Any]] = []
    out: IO[str]
    close = False
    if output == "-":
        out = sys.stdout
    else:
        try:
            out = open(output, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        except OSError as exc:
            raise click.BadParameter(
                t("err.cannot_write", lang, path=output, why=exc.strerror or exc), param_hint="-o"
            ) from exc
        close = True
    show = sys.stderr.isatty() if progress is None else progress
    last = 0.0
    try:
        for i in range(games):
            if show and time.monotonic() - last > 0.1:
                last = time.monotonic()
                sys.stderr.write("\r\x1b[K" + t("simulate.progress", lang, n=i + 1, total=games))
                sys.stderr.flush()
            s = game_seed(seed, i)
            try:
                event = f"simulated game {i + 1} of run {seed}"
                text = simulate_text(players, s, profile, event, mods)
            except SimulationError as exc:  # a bug of the simulator or engine: say so, no trace
                click.echo(t("simulate.internal", lang, n=i + 1, seed=s, error=exc), err=True)
                return EXIT_INTERNAL
            except Exception as exc:  # a bug elsewhere (e.g. a module's hook): no trace either
                error = f"{type(exc).__name__}: {exc}"
                click.echo(t("simulate.internal", lang, n=i + 1, seed=s, error=error), err=True)
                return EXIT_INTERNAL
            if fmt == "text":
                if i:
                    out.write("\n")
                out.write(text)
            else:
                records.append(_summary(i + 1, s, text))
        if fmt == "json":
            out.write(json.dumps({"games": records}, ensure_ascii=False, indent=2) + "\n")
        elif fmt == "yaml":
            out.write(yaml.safe_dump({"games": records}, allow_unicode=True, sort_keys=False))
    finally:
        if show:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
        if close:
            out.close()
        else:
            out.flush()
    if output != "-":  # the records went to a file: say what was written
        key = "simulate.wrote.one" if games == 1 else "simulate.wrote"
        click.echo(t(key, lang, n=games, path=output, players=players, seed=seed), err=True)
    return EXIT_OK


def _summary(number: int, seed: int, text: str) -> dict[str, Any]:
    from referee.notation import read_headers
    from referee.record.model import Game

    game = Game(next(read_headers(text=text)), ())  # the headers are all a summary needs
    turns = sum(1 for line in text.splitlines() if line[:1].isdigit())
    return {
        "game": number,
        "seed": seed,
        "players": list(game.players),
        "rules": game.header("Rules"),
        "turns": turns,
        "result": game.header("Result"),
        "record": text,
    }
