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
        "verbs": list(cls.verbs),
        "chance_verbs": list(cls.chance_verbs),
        "components": list(cls.component_kinds),
    }
    if with_data:
        try:
            from referee.modules.base import module_data

            info["data"] = module_data(cls.name)
        except (OSError, ValueError, yaml.YAMLError):
            info["data"] = None
    return info


def _text(infos: list[dict[str, Any]], lang: str, detail: bool) -> str:
    lines: list[str] = []
    for m in infos:
        title = m["title"]["de" if lang == "de" else "en"] or m["name"]
        aliases = f" (also: {', '.join(m['aliases'])})" if m["aliases"] else ""
        lines.append(f"{m['name']}{aliases}: {title}")
        if m["summary"]:
            lines.append(f"  {m['summary']}")
        if m["verbs"]:
            lines.append(f"  actions: {', '.join(m['verbs'])}")
        if m["chance_verbs"]:
            lines.append(f"  chance lines: {', '.join(m['chance_verbs'])}")
        if m["components"]:
            lines.append(f"  component tokens: {', '.join(k + ':...' for k in m['components'])}")
        if m["section"]:
            lines.append(f"  rules: {m['section']}")
        notation = (m.get("data") or {}).get("notation") if detail else None
        if isinstance(notation, dict):
            for key, value in notation.items():
                lines.append(f"  {key}: {value}")
    lines.append('Switch modules on with the header [Modules "name, name"].')
    return "\n".join(lines)


@click.command(name="modules")
@click.argument("name", required=False)
@click.option("--format", "fmt", type=_FORMATS, default="text", show_default=True)
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True)
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
            raise click.UsageError(f"no module named {name!r}; known: {known}")
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
