"""``alhambra-referee profiles``: the rule profiles (editions and house rules).

``profiles`` lists the bundled profiles with a one-line description each; ``profiles show NAME``
prints one profile's parameters with the text each value comes from. ``NAME`` may also be a
profile file of your own: ``show`` then checks it and reports every problem with file, line and
key (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import yaml

from referee.profiles import (
    DEFAULT_NAME,
    PARAMETERS,
    ProfileError,
    RuleProfile,
    list_profiles,
    load_profile,
)
from referee.reports.i18n import lang_option, register, t

EXIT_SYNTAX = 2

_FORMATS = click.Choice(["text", "json", "yaml"], case_sensitive=False)


def _format_option(f: Any) -> Any:
    return click.option(
        "--format",
        "fmt",
        type=_FORMATS,
        default="text",
        show_default=True,
        help="Output format.",
    )(f)


def _dump(data: Any, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100).rstrip("\n")


def _value_text(value: Any) -> str:
    if value is None:
        return "null"
    return str(value)


def profile_data(profile: RuleProfile) -> dict[str, Any]:
    """A profile as plain data (for JSON and YAML)."""
    return {
        "name": profile.name,
        "description": profile.description,
        "extends": profile.extends,
        "origin": profile.origin,
        "parameters": profile.parameters(),
        "sources": {k: profile.sources[k] for k in PARAMETERS if k in profile.sources},
    }


def _list_data() -> list[dict[str, Any]]:
    out = []
    for name in list_profiles():
        p = load_profile(name)
        out.append(
            {
                "name": p.name,
                "description": p.description,
                "extends": p.extends,
                "default": name == DEFAULT_NAME,
            }
        )
    return out


register("profiles.extends", "extends", "erweitert")
register("profiles.file", "file", "Datei")
register("profiles.differs", "(differs from queen-2003)", "(anders als queen-2003)")
register("profiles.values", "values", "Werte")
register("profiles.source", "source", "Quelle")
register("profiles.no_source", "(none given)", "(keine angegeben)")
register("profiles.default", "(default)", "(Vorgabe)")
register("profiles.error", "error", "Fehler")
register(
    "profiles.unknown",
    "{name!r} is neither a bundled profile ({known}) nor a file",
    "{name!r} ist weder ein mitgeliefertes Profil ({known}) noch eine Datei",
)


def _show_text(profile: RuleProfile, lang: str = "en") -> str:
    lines = [f"{profile.name}: {profile.description}"]
    if profile.extends:
        lines.append(f"{t('profiles.extends', lang)}: {profile.extends}")
    if profile.origin != "bundled":
        lines.append(f"{t('profiles.file', lang)}: {profile.origin}")
    lines.append("")
    width = max(len(n) for n in PARAMETERS)
    for name, spec in PARAMETERS.items():
        value = getattr(profile, name)
        mark = "" if value == spec.default else "   " + t("profiles.differs", lang)
        lines.append(f"{name.ljust(width)}  {_value_text(value)}{mark}")
        lines.append(f"{'':{width}}  {t('profiles.values', lang)}: {spec.describe()}; {spec.doc}")
        source = profile.sources.get(name) or t("profiles.no_source", lang)
        lines.append(f"{'':{width}}  {t('profiles.source', lang)}: {source}")
    return "\n".join(lines)


@click.group(
    name="profiles",
    invoke_without_command=True,
    epilog="Exit codes: 0 ok, 2 a profile file is invalid or unreadable, 3 usage error.",
)
@_format_option
@lang_option
@click.pass_context
def command(ctx: click.Context, fmt: str, lang: str) -> None:
    """List the rule profiles (editions and house rules), one line each.

    \b
    Examples:
      alhambra-referee profiles
      alhambra-referee profiles show piatnik-hu
      alhambra-referee profiles show ./our-club.yaml --format json
    """
    if ctx.invoked_subcommand is not None:
        return
    data = _list_data()
    if fmt.lower() != "text":
        click.echo(_dump(data, fmt.lower()))
        return
    width = max(len(d["name"]) for d in data)
    for d in data:
        word = t("profiles.default", lang)
        default = f" {word}" if d["default"] and "default" not in d["description"] else ""
        click.echo(f"{d['name'].ljust(width)}  {d['description']}{default}")


@command.command(name="show")
@click.argument("name", metavar="NAME|FILE")
@_format_option
@lang_option
def show(name: str, fmt: str, lang: str) -> None:
    """Print a profile's parameters with the text each value comes from.

    NAME is a bundled profile (see `alhambra-referee profiles`) or a YAML profile file, which is
    checked: every unknown key, wrong type or impossible value is reported with file, line and
    key.
    """
    if not name.strip() or (name not in list_profiles() and not Path(name).exists()):
        known = ", ".join(list_profiles())
        raise click.BadParameter(
            t("profiles.unknown", lang, name=name, known=known), param_hint="NAME|FILE"
        )
    try:
        profile = load_profile(name)
    except ProfileError as exc:
        for problem in exc.problems:
            click.echo(f"{t('profiles.error', lang)}: {problem}", err=True)
        raise click.exceptions.Exit(EXIT_SYNTAX) from None
    if fmt.lower() == "text":
        click.echo(_show_text(profile, lang))
    else:
        click.echo(_dump(profile_data(profile), fmt.lower()))
