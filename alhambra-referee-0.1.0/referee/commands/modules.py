"""``alhambra-referee modules``: the expansion modules a record can switch on.

``modules`` lists every bundled module (name for the ``Modules`` header, aliases, title,
rulebook section, the verbs and component tokens it adds). ``modules NAME`` shows one module,
with its component data (``--format yaml`` / ``json`` give the data as written in its YAML).
"""

from __future__ import annotations

import json
from typing import Any

import click
import yaml

from referee.engine.extensions import MODULES, Module, load_bundled_modules
from referee.reports.i18n import lang_option, register, t

_FORMATS = click.Choice(["text", "json", "yaml"], case_sensitive=False)


def _unique() -> list[type[Module]]:
    load_bundled_modules()
    out: list[type[Module]] = []
    for cls in MODULES.values():
        if cls not in out:
            out.append(cls)
    return out


def module_info(cls: type[Module], with_data: bool = False) -> dict[str, Any]:
    """One module as plain data."""
    info: dict[str, Any] = {
        "name": cls.name,
        "aliases": list(getattr(cls, "aliases", ())),
        "title": {"en": getattr(cls, "title_en", ""), "de": getattr(cls, "title_de", "")},
        "section": getattr(cls, "section", ""),
        "summary": getattr(cls, "summary", ""),
        "summary_de": getattr(cls, "summary_de", ""),
        "verbs": list(cls.verbs),
        "chance_verbs": list(cls.chance_verbs),
        "components": list(cls.component_kinds),
    }
    options = getattr(cls, "options", {})
    if options:  # switches for readings that groups may play differently
        info["options"] = {
            key: {"default": d, "values": list(values), "en": en, "de": de}
            for key, (d, values, en, de) in options.items()
        }
    if with_data:
        try:
            from referee.modules.base import KIT_KEYS, module_data

            data = module_data(cls.name)  # the component data, without the module's texts
            info["data"] = {k: v for k, v in data.items() if k not in KIT_KEYS}
        except (OSError, ValueError, yaml.YAMLError):
            info["data"] = None
    return info


register("modules.also", "also", "auch")
register("modules.actions", "actions", "Aktionen")
register("modules.chance", "chance lines", "Zufallszeilen")
register("modules.tokens", "component tokens", "Bauteil-Kürzel")
register("modules.rules", "rules", "Regeln")
register(
    "modules.option",
    "option (default {default}):",
    "Option (voreingestellt {default}):",
)
register(
    "modules.switch",
    'Switch modules on with the header [Modules "name, name"].',
    'Module werden mit dem Kopf [Modules "Name, Name"] eingeschaltet.',
)
register(
    "modules.options",
    'A module\'s options follow its name: [Modules "name option=value"].',
    'Optionen eines Moduls folgen seinem Namen: [Modules "Name Option=Wert"].',
)
register(
    "modules.unknown",
    "no module named {name!r}; known: {known}",
    "kein Modul namens {name!r}; bekannt: {known}",
)


# The labels of the notation examples in a module's YAML (``notation:`` keys), in German; the
# English label is the key itself. A key missing here is shown as it is.
_NOTATION_DE = {
    "setup": "Aufbau",
    "set_up": "Aufbau",
    "draw": "ziehen",
    "buy": "kaufen",
    "dirk": "Dirk",
    "deal": "austeilen",
    "money": "Geld",
    "redesign": "umbauen",
    "position": "Stellung",
    "complete": "fertigstellen",
    "reveal": "aufdecken",
    "use": "einsetzen",
    "contest": "Vorrang",
    "place": "legen",
    "claim": "Wertung",
    "options": "Optionen",
    "take": "nehmen",
    "die": "Würfel",
    "reroll": "neu würfeln",
    "change": "wechseln",
    "pay": "bezahlen",
    "tile": "Plättchen",
    "wake": "wecken",
    "build": "bauen",
    "choice": "Wahl",
    "gate": "Stadttor",
    "turned": "gedreht",
    "bid": "bieten",
    "colour": "Farbplättchen",
    "column": "Spalte",
    "finish": "abschließen",
    "project": "Projekt",
    "projects": "Projektfelder",
}


def notation_label(key: str, lang: str) -> str:
    """The label of a notation example (``draw``, ``claim``) in ``lang``."""
    return _NOTATION_DE.get(key, key) if lang == "de" else key


def summary_in(info: dict[str, Any], lang: str) -> str:
    """The module's description in ``lang`` (``summary`` in the module's YAML)."""
    if lang == "de":
        return str(info.get("summary_de") or info["summary"])
    return str(info["summary"])


def _text(infos: list[dict[str, Any]], lang: str, detail: bool) -> str:
    lines: list[str] = []
    for m in infos:
        title = m["title"]["de" if lang == "de" else "en"] or m["name"]
        also = t("modules.also", lang)
        aliases = f" ({also}: {', '.join(m['aliases'])})" if m["aliases"] else ""
        lines.append(f"{m['name']}{aliases}: {title}")
        summary = summary_in(m, lang)
        if summary:
            lines.append(f"  {summary}")
        if m["verbs"]:
            lines.append(f"  {t('modules.actions', lang)}: {', '.join(m['verbs'])}")
        if m["chance_verbs"]:
            lines.append(f"  {t('modules.chance', lang)}: {', '.join(m['chance_verbs'])}")
        if m["components"]:
            tokens = ", ".join(k + ":..." for k in m["components"])
            lines.append(f"  {t('modules.tokens', lang)}: {tokens}")
        if m["section"]:
            lines.append(f"  {t('modules.rules', lang)}: {m['section']}")
        for key, opt in (m.get("options") or {}).items():
            values = "|".join(opt["values"])
            head = t("modules.option", lang, default=opt["default"])
            lines.append(f"  {head} {key}={values}: {opt['de' if lang == 'de' else 'en']}")
        data = m.get("data") or {}
        notation = None
        if detail:  # the record lines stay as written; their explanation speaks the language
            notation = (lang == "de" and data.get("notation_de")) or data.get("notation")
        if isinstance(notation, dict):
            for key, value in notation.items():
                lines.append(f"  {notation_label(key, lang)}: {value}")
    lines.append(t("modules.switch", lang))
    if any(m.get("options") for m in infos):
        lines.append(t("modules.options", lang))
    return "\n".join(lines)


@click.command(name="modules")
@click.argument("name", required=False)
@click.option("--format", "fmt", type=_FORMATS, default="text", show_default=True)
@lang_option
def command(name: str | None, fmt: str, lang: str) -> None:
    """List the expansion modules (or show one) that the Modules header can switch on.

    \b
    Examples:
      alhambra-referee modules
      alhambra-referee modules squares --format yaml
      alhambra-referee modules --lang de
    """
    classes = _unique()
    if name is not None:
        cls = MODULES.get(name.strip().lower())
        if cls is None:
            known = ", ".join(c.name for c in classes)
            raise click.UsageError(t("modules.unknown", lang, name=name, known=known))
        classes = [cls]
    infos = [module_info(c, with_data=name is not None) for c in classes]
    fmt = fmt.lower()
    if fmt == "json":
        click.echo(json.dumps({"modules": infos}, ensure_ascii=False, indent=2))
    elif fmt == "yaml":
        click.echo(
            yaml.safe_dump(
                {"modules": infos}, allow_unicode=True, sort_keys=False, width=100
            ).rstrip("\n")
        )
    else:
        click.echo(_text(infos, lang, detail=name is not None))
