"""Every text the referee shows about a finding, one catalogue per language.

A finding (:class:`~referee.engine.rules.Violation`, :class:`~referee.engine.rules.Unverifiable`,
a building problem, a ``score`` layout problem) carries a **key**, an optional **reason** and
**parameters** (numbers, names, component codes): data, never sentences. The sentence is
rendered from the catalogue of the requested language when it is shown (:func:`render`).

Keys (one namespace for all languages):

* ``CODE`` the rule's message template, ``CODE:name`` its short name;
* ``CODE/reason`` the text of one reason of a rule that has several (``SETUP-DEAL/stops-at``);
  it fills the rule template's ``{detail}`` placeholder;
* ``CODE.param/variant`` a phrase used as one parameter of a rule (``GIFT-NOT-ALLOWED.why/...``),
  passed as a :class:`Text`;
* ``UNVERIFIED-...`` a point the record leaves open;
* ``GEOMETRY:CODE`` a building rule's summary (:mod:`referee.geometry.rules`), ``LAYOUT:CODE``
  a problem of a stated position (:mod:`referee.scoring.position`).

The catalogues are Python modules (:mod:`referee.messages.en`, :mod:`referee.messages.de`)
rather than YAML files: they are read with the package (no file lookup at run time, nothing to
install next to the code), mypy checks their shape, and a module registers its own texts with
:func:`register` in the same two languages from its own file. Parameters are declared by the
templates themselves: :func:`placeholders` lists a template's named fields, and
``tests/test_messages.py`` checks that both languages declare the same keys with the same
parameters and that every finding of the example games passes all of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, Protocol, TypeAlias, runtime_checkable

Lang: TypeAlias = 'Literal["en", "de"]'
LANGS: tuple[Lang, ...] = ("en", "de")


@dataclass(frozen=True, slots=True)
class Text:
    """A catalogue phrase with its parameters, used as a parameter of another message."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def __init__(self, key: str, **params: object) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", params)


@dataclass(frozen=True, slots=True)
class Join:
    """Several parameter values joined by ``sep``; ``empty`` when there is none."""

    parts: tuple[object, ...]
    sep: object = ", "
    empty: object = ""


if TYPE_CHECKING:

    @runtime_checkable
    class Shown(Protocol):
        """A value that renders itself in a language (e.g. a building problem's summary)."""

        def text(self, lang: str = "en") -> str: ...

else:

    class _ShownTest(type):
        """``isinstance(v, Shown)``: ``v`` has a ``text`` that is not None (what
        ``typing.runtime_checkable`` tests of a protocol whose one member is a method)."""

        def __instancecheck__(cls, value: object) -> bool:
            return getattr(value, "text", None) is not None

    class Shown(metaclass=_ShownTest):
        """A value that renders itself in a language (e.g. a building problem's summary): has
        ``text(lang)``. (A protocol for the type checker; no ``typing`` at run time.)"""


class Term(str):
    """A word that is data (a category key, a side letter) and is shown through the catalogue
    entry ``group/word`` when there is one, else as it is. Compares equal to the plain word."""

    group: str

    def __new__(cls, word: str, group: str) -> Term:
        term = super().__new__(cls, word)
        term.group = group
        return term


CATALOGUE: dict[str, dict[str, str]] = {"en": {}, "de": {}}


def register(lang: str, texts: Mapping[str, str]) -> None:
    """Add texts of one language to the catalogue (modules call this for their own keys)."""
    CATALOGUE.setdefault(lang, {}).update(texts)


def register_both(en: Mapping[str, str], de: Mapping[str, str]) -> None:
    """Add the same keys in English and German; the two must name the same keys."""
    if set(en) != set(de):
        raise ValueError(f"keys differ between the languages: {sorted(set(en) ^ set(de))}")
    register("en", en)
    register("de", de)


def lookup(lang: str, key: str) -> str | None:
    """The template of ``key`` in ``lang`` (English when the language lacks it), or None."""
    texts = CATALOGUE.get(lang, CATALOGUE["en"])
    found = texts.get(key)
    if found is None:
        found = CATALOGUE["en"].get(key)
    return found


def placeholders(template: str) -> set[str]:
    """The named fields of a template (``{name}``, ``{name!r}``, ``{name:>3}``)."""
    import string  # not needed by a check (its import compiles string.Template's pattern)

    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


class _Values(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


def value(lang: str, v: object) -> object:
    """A parameter value as shown in ``lang``: phrases are rendered, data stays as it is."""
    if isinstance(v, Term):
        return lookup(lang, f"{v.group}/{v}") or str(v)
    if isinstance(v, Text):
        return render(lang, v.key, v.params)
    if isinstance(v, Shown) and not isinstance(v, str):
        return v.text(lang)
    if isinstance(v, Join):
        shown = [str(value(lang, p)) for p in v.parts]
        return str(value(lang, v.sep)).join(shown) if shown else value(lang, v.empty)
    return v


def values(lang: str, params: Mapping[str, object]) -> dict[str, object]:
    return {k: value(lang, v) for k, v in params.items()}


def fill(template: str, params: Mapping[str, object]) -> str:
    """``template`` with ``params`` (a missing one shows as ``?``; never raises)."""
    try:
        return template.format_map(_Values(params))
    except (ValueError, IndexError, AttributeError, KeyError):
        return f"{template} {dict(params)}"


def render(lang: str, key: str, params: Mapping[str, object], reason: str | None = None) -> str:
    """The text of ``key`` in ``lang``; with ``reason``, ``CODE/reason`` fills ``{detail}``."""
    shown = values(lang, params)
    if reason is not None:
        sub = lookup(lang, f"{key}/{reason}")
        shown["detail"] = fill(sub, shown) if sub is not None else reason
    template = lookup(lang, key)
    if template is None:
        return str(shown.get("detail", "?"))
    return fill(template, shown)


def _load() -> None:
    from referee.messages import de, en

    register_both(en.TEXTS, de.TEXTS)


_load()
