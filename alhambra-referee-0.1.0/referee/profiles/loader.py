"""Loading rule profiles: the bundled YAML files and users' own files.

A profile file is a YAML mapping::

    name: our-club              # optional for a user file (default: the file name)
    description: Friday club    # optional
    extends: queen-2003         # optional: a bundled name, or a file relative to this one
    reserve_limit: 4            # any parameter of RuleProfile; the rest comes from `extends`
    sources:                    # optional: where each value comes from
      reserve_limit: our club's house rule
    rulebook: rulebook-base-de-2003.txt  # optional: the book base findings cite (inherited)

A user's file is untrusted input. It is *composed* (YAML nodes with their line numbers), never
constructed into Python objects: only plain scalars (strings, numbers, booleans, null) and
mappings are read, every key is checked against the known parameters, every value against the
parameter's type and range. Anything else is a :class:`ProfileError` naming the file, line,
column and key of each problem.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from functools import cache

from referee.lazy_re import lazy_pattern
from referee.profiles import params
from referee.profiles.params import RuleProfile

TYPE_CHECKING = False
if TYPE_CHECKING:  # imported where a file is read: a bundled profile comes from the cache
    from pathlib import Path
    from typing import Any

    import yaml

# The folder of the bundled profiles. ``BUNDLED_DIR`` (a ``Path``) is made on first use
# (:func:`__getattr__`): a check whose default profile comes from the data cache reads the
# folder by this string and never imports ``pathlib`` (with ``urllib.parse`` and ``ipaddress``,
# 5 % of a one-game check in a regular install).
_HERE = os.path.dirname(os.path.realpath(__file__))


def __getattr__(name: str) -> Any:
    if name == "BUNDLED_DIR":  # made once, then a plain global (tests may replace it)
        from pathlib import Path

        folder = globals()["BUNDLED_DIR"] = Path(_HERE)
        return folder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _bundled_dir() -> str:
    """The bundled folder: ``BUNDLED_DIR`` when it was made (or replaced), else the same folder
    as a string."""
    folder = globals().get("BUNDLED_DIR")
    return _HERE if folder is None else os.fspath(folder)


DEFAULT_NAME = "queen-2003"
# Listing order of the bundled profiles (any other bundled file follows, alphabetically).
_ORDER = ("queen-2003", "queen-bigbox-2019", "piatnik-hu", "bga")
_MAX_BYTES = 256 * 1024
_MAX_DEPTH = 8
_NAME_RE = lazy_pattern(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
# The books a profile's base findings may cite (their section names: referee.engine.rules).
RULEBOOKS = ("rulebook-base-de-2003.txt", "rulebook-bigbox-de-2019.txt")
_META_KEYS = ("name", "description", "extends", "sources", "rulebook")

_STR = "tag:yaml.org,2002:str"
_SCALAR_TAGS = {
    _STR,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


@dataclass(frozen=True)
class ProfileProblem:
    """One thing wrong in a profile file. ``line``/``column`` are 1-based (0 = whole file)."""

    file: str
    line: int
    column: int
    key: str | None
    message: str

    def __str__(self) -> str:
        where = self.file if self.line == 0 else f"{self.file}:{self.line}:{self.column}"
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class ProfileError(ValueError):
    """A profile cannot be used: unknown name, unreadable file, or invalid content.

    ``problems`` lists every problem found (each with file, line, column and key); ``file``,
    ``line``, ``column`` and ``key`` are those of the first one. ``str()`` gives one problem per
    line, ``file:line:column: key: message``.
    """

    def __init__(self, problems: list[ProfileProblem]) -> None:
        if not problems:
            raise ValueError("ProfileError needs at least one problem")
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(
        cls, file: str, message: str, *, line: int = 0, column: int = 0, key: str | None = None
    ) -> ProfileError:
        return cls([ProfileProblem(file, line, column, key, message)])

    @property
    def file(self) -> str:
        return self.problems[0].file

    @property
    def line(self) -> int:
        return self.problems[0].line

    @property
    def column(self) -> int:
        return self.problems[0].column

    @property
    def key(self) -> str | None:
        return self.problems[0].key


# ---------------------------------------------------------------------------- public API


def _short(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters for a message (user files may hold anything)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def list_profiles() -> list[str]:
    """The names of the bundled profiles, the default (``queen-2003``) first."""
    return list(_bundled_names())


@cache
def _bundled_names() -> tuple[str, ...]:
    """The bundled folder is read once (a record's ``Rules`` header is looked up per game).

    The names ending in ``.yaml`` (what ``BUNDLED_DIR.glob("*.yaml")`` gives, without pathlib's
    pattern machinery: a fifth of a million instructions at every start-up)."""
    try:
        names = os.listdir(_bundled_dir())
    except OSError:  # as glob: an unreadable folder has no files
        names = []
    # Path(n).stem: the name without its last suffix ".yaml" (a name that is only the suffix,
    # ".yaml", has none)
    found = {n[:-5] if len(n) > 5 else n for n in names if n.endswith(".yaml")}
    first = [n for n in _ORDER if n in found]
    return (*first, *sorted(found - set(first)))


def load_profile(
    name_or_path: str | Path | None = None, *, allow_files: bool = True
) -> RuleProfile:
    """The profile named ``name_or_path`` (a bundled name) or stored in that file.

    ``None`` or ``""`` gives the default profile. A bundled name wins over a file of the same
    name in the current folder; write ``./queen-2003`` to mean the file. With
    ``allow_files=False`` only bundled names are accepted (for names that come from untrusted
    text, such as a record's ``Rules`` header, which should not make the referee read files).
    Raises :class:`ProfileError` for an unknown name, an unreadable file or invalid content.
    """
    if name_or_path is None or (isinstance(name_or_path, str) and not name_or_path.strip()):
        return _bundled(DEFAULT_NAME)
    if isinstance(name_or_path, str) and name_or_path.strip() in list_profiles():
        return _bundled(name_or_path.strip())
    from pathlib import Path

    path = Path(name_or_path)
    if not allow_files:
        raise ProfileError.single(
            _short(str(name_or_path)), f"not a bundled profile{_bundled_hint(str(name_or_path))}"
        )
    if not os.path.exists(path):  # any failure to look (a name too long) is "no such file"
        raise ProfileError.single(
            str(name_or_path),
            f"no bundled profile and no file of this name{_bundled_hint(str(name_or_path))}",
        )
    return _load_file(path, chain=())


def _bundled_hint(name: str) -> str:
    """`` (did you mean bga?); bundled profiles: ...`` for a name that is none of them."""
    import difflib  # for the messages only

    hint = difflib.get_close_matches(name, list_profiles(), n=1)
    maybe = f" (did you mean {hint[0]}?)" if hint else ""
    return f"{maybe}; bundled profiles: {', '.join(list_profiles())}"


def parse_profile(text: str, file: str = "<profile>", base: Path | None = None) -> RuleProfile:
    """A profile from YAML text (``file`` names it in messages; ``extends`` paths are relative
    to ``base``, the current folder when None)."""
    from pathlib import Path

    return _from_text(text, file, base or Path.cwd(), bundled=False, chain=(file,))


# ------------------------------------------------------------------------------ loading


@cache
def _bundled(name: str) -> RuleProfile:
    """A bundled profile: from the cache of bundled data when the key is the same as when it was
    kept (:func:`_bundled_key`), else read from its YAML text (and kept)."""
    kept = _literal_fields(name)
    if kept is not None:
        try:
            return RuleProfile(**kept)
        except TypeError:  # pragma: no cover - the literal is checked against RuleProfile
            pass
    from referee import datacache

    key = _bundled_key()
    if key is not None:
        kept = datacache.profile_fields(key, name)
        if kept is not None:
            try:
                return RuleProfile(**kept)
            except TypeError:  # pragma: no cover - the key covers RuleProfile's fields
                pass
    profile = _load_bundled(name, ())
    if key is not None:
        datacache.keep_profile(
            key, name, {f.name: getattr(profile, f.name) for f in fields(profile)}
        )
    return profile


def _literal_fields(name: str) -> dict[str, Any] | None:
    """The fields of the bundled profile ``name`` from the package's literal of the bundled
    profiles (``bundled_literal.py``, written by tools/bundled_literals.py), when the bundled
    folder holds exactly the texts it was made from (a copy of the mutable values); else None."""
    from referee.profiles import bundled_literal

    folder = _bundled_dir()
    names = _bundled_names()
    texts = bundled_literal.TEXTS
    if name not in texts or len(names) != len(texts):
        return None
    for each in names:
        expected = texts.get(each)
        try:
            with open(os.path.join(folder, f"{each}.yaml"), encoding="utf-8") as fh:
                if expected is None or fh.read(len(expected) + 1) != expected:
                    return None
        except (OSError, UnicodeDecodeError):
            return None
    return {
        key: dict(value) if isinstance(value, dict) else value
        for key, value in bundled_literal.FIELDS[name].items()
    }


@cache
def _bundled_key() -> tuple[object, ...] | None:
    """What a bundled profile is a function of: the text of every bundled profile (one may
    extend another) and the code that reads them (this file, and ``params.py`` with
    :class:`RuleProfile`, its defaults and the checks of each parameter). None when a file
    cannot be read (then nothing is cached)."""
    from referee.profiles import params

    def read(name: str) -> bytes:
        with open(name, "rb") as fh:
            return fh.read()

    folder = _bundled_dir()
    try:
        texts = tuple(
            (name, read(os.path.join(folder, f"{name}.yaml"))) for name in _bundled_names()
        )
        code = (read(__file__), read(params.__file__))
    except (OSError, TypeError):
        return None
    return (texts, code)


def _load_bundled(name: str, chain: tuple[str, ...]) -> RuleProfile:
    ident = f"bundled:{name}"
    if ident in chain:
        raise ProfileError.single(
            f"{name}.yaml", "`extends` forms a cycle: " + " -> ".join((*chain, ident))
        )
    from pathlib import Path

    folder = Path(_bundled_dir())
    text = (folder / f"{name}.yaml").read_text(encoding="utf-8")
    return _from_text(text, f"{name}.yaml", folder, bundled=True, chain=(*chain, ident))


def _load_file(path: Path, chain: tuple[str, ...]) -> RuleProfile:
    file = str(path)
    try:
        ident = str(path.resolve())
    except (OSError, RuntimeError) as exc:
        raise ProfileError.single(file, f"cannot read the file: {exc}") from None
    if ident in chain:
        raise ProfileError.single(file, "`extends` forms a cycle: " + " -> ".join((*chain, ident)))
    if len(chain) >= _MAX_DEPTH:
        raise ProfileError.single(file, f"`extends` is nested deeper than {_MAX_DEPTH} levels")
    try:
        if not path.is_file():
            raise ProfileError.single(file, "not a file")
        with path.open("rb") as fh:
            raw = fh.read(_MAX_BYTES + 1)
    except OSError as exc:
        raise ProfileError.single(file, f"cannot read the file: {exc.strerror or exc}") from None
    if len(raw) > _MAX_BYTES:
        raise ProfileError.single(file, f"the file is larger than {_MAX_BYTES // 1024} KiB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ProfileError.single(file, "the file is not UTF-8 text", line=line, column=1) from None
    return _from_text(text, file, path.parent, bundled=False, chain=(*chain, ident))


def _compose(text: str, file: str) -> yaml.Node | None:
    import yaml

    try:
        loader = yaml.SafeLoader(text)
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, file) from None
    try:
        return loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, text, file) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "invalid YAML"
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise ProfileError.single(file, f"not valid YAML: {what}", line=line, column=col) from None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML marks its errors
        raise ProfileError.single(file, f"not valid YAML: {exc}") from None
    finally:
        loader.dispose()


def _reader_error(exc: yaml.reader.ReaderError, text: str, file: str) -> ProfileError:
    before = text[: exc.position]
    line = before.count("\n") + 1
    column = exc.position - (before.rfind("\n") + 1) + 1
    return ProfileError.single(
        file,
        f"not valid YAML: the character U+{exc.character:04X} is not allowed",
        line=line,
        column=column,
    )


class _Reader:
    """Collects problems while reading the composed nodes of one file."""

    def __init__(self, file: str) -> None:
        import yaml

        self.file = file
        self.problems: list[ProfileProblem] = []
        self._constructor = yaml.SafeLoader("")

    def problem(self, node: yaml.Node | None, key: str | None, message: str) -> None:
        line, col = (node.start_mark.line + 1, node.start_mark.column + 1) if node else (0, 0)
        self.problems.append(ProfileProblem(self.file, line, col, key, message))

    def entries(self, node: yaml.MappingNode, where: str | None) -> Iterator[tuple[str, Any]]:
        """(key, value node) of a mapping, reporting odd keys and duplicates."""
        import yaml

        seen: set[str] = set()
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode) or knode.tag != _STR:
                self.problem(knode, where, "keys must be plain names")
                continue
            key = _short(knode.value)
            if key in seen:
                self.problem(knode, key, "given twice")
                continue
            seen.add(key)
            yield key, (knode, vnode)

    def scalar(self, node: yaml.Node, key: str) -> tuple[bool, Any]:
        """(ok, value) of a plain scalar node; anything else is reported."""
        import yaml

        if isinstance(node, yaml.ScalarNode) and node.tag in _SCALAR_TAGS:
            try:
                return True, self._constructor.construct_object(node)
            except (yaml.YAMLError, ValueError, OverflowError):
                self.problem(node, key, f"cannot read the value {node.value!r}")
                return False, None
        if isinstance(node, yaml.ScalarNode):
            self.problem(node, key, f"the tag {node.tag} is not allowed; write a plain value")
        elif isinstance(node, yaml.MappingNode):
            self.problem(node, key, "expected a single value, got a mapping")
        else:
            self.problem(node, key, "expected a single value, got a list")
        return False, None

    def text(self, node: yaml.Node, key: str) -> str | None:
        ok, value = self.scalar(node, key)
        if not ok:
            return None
        if not isinstance(value, str) or not value.strip():
            self.problem(node, key, "expected a non-empty text")
            return None
        return value.strip()


def _from_text(
    text: str, file: str, base: Path, *, bundled: bool, chain: tuple[str, ...]
) -> RuleProfile:
    import difflib

    import yaml

    known = params.PARAMETERS  # (made on first use, see referee.profiles.params)
    root = _compose(text, file)
    if root is None:
        raise ProfileError.single(file, "the profile is empty; expected a mapping of parameters")
    if not isinstance(root, yaml.MappingNode):
        raise ProfileError.single(
            file,
            "expected a mapping of parameters (key: value lines)",
            line=root.start_mark.line + 1,
            column=root.start_mark.column + 1,
        )
    rd = _Reader(file)
    values: dict[str, Any] = {}
    value_nodes: dict[str, yaml.Node] = {}
    sources: dict[str, str] = {}
    name: str | None = None
    description: str | None = None
    extends: tuple[str, yaml.Node] | None = None
    rulebook: str | None = None

    for key, (knode, vnode) in rd.entries(root, None):
        if key in known:
            ok, value = rd.scalar(vnode, key)
            if ok:
                why = known[key].problem(value)
                if why:
                    rd.problem(vnode, key, why)
                else:
                    values[key] = float(value) if known[key].kind == "float" else value
                    value_nodes[key] = vnode
        elif key == "name":
            name = rd.text(vnode, key)
            if name is not None and not _NAME_RE.match(name):
                rd.problem(vnode, key, "use letters, digits, '.', '_' and '-' (at most 64)")
                name = None
        elif key == "description":
            description = rd.text(vnode, key)
        elif key == "extends":
            target = rd.text(vnode, key)
            if target is not None:
                extends = (target, vnode)
        elif key == "sources":
            sources.update(_read_sources(rd, vnode))
        elif key == "rulebook":
            rulebook = rd.text(vnode, key)
            if rulebook is not None and rulebook not in RULEBOOKS:
                rd.problem(vnode, key, f"not a rulebook of the project: {', '.join(RULEBOOKS)}")
                rulebook = None
        else:
            close = difflib.get_close_matches(key, [*known, *_META_KEYS], n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            rd.problem(knode, key, f"unknown key; {hint}known parameters: {', '.join(known)}")

    parent: RuleProfile | None = None
    if extends is not None:
        target, enode = extends
        try:
            parent = _resolve_extends(target, base, bundled=bundled, chain=chain)
        except ProfileError as exc:
            rd.problem(enode, "extends", f"cannot extend {target!r}:")
            rd.problems.extend(exc.problems)

    if bundled and rd.problems == []:
        missing = [p for p in known if p not in values and parent is None]
        if missing:
            rd.problem(root, None, f"a root profile must set every parameter: {missing}")
    if rd.problems:
        raise ProfileError(rd.problems)

    from pathlib import Path

    if name is None:
        name = Path(file).stem
    if bundled and name != Path(file).stem:
        raise ProfileError.single(file, f"name {name!r} must match the file name", key="name")

    start = parent if parent is not None else RuleProfile()
    merged_sources = dict(start.sources) if parent is not None else {}
    for key, vnode in value_nodes.items():
        if key not in sources:
            merged_sources[key] = f"{file}:{vnode.start_mark.line + 1} (set in this profile)"
    merged_sources.update(sources)
    if description is None:
        description = f"{name}: extends {parent.name}" if parent else name
    return replace(
        start,
        name=name,
        description=description,
        sources=merged_sources,
        extends=extends[0] if extends else None,
        origin="bundled" if bundled else file,
        rulebook=rulebook or start.rulebook,
        **values,
    )


def _read_sources(rd: _Reader, node: yaml.Node) -> dict[str, str]:
    import difflib

    import yaml

    known = params.PARAMETERS  # (made on first use, see referee.profiles.params)
    if not isinstance(node, yaml.MappingNode):
        rd.problem(node, "sources", "expected a mapping: parameter: where its value comes from")
        return {}
    out: dict[str, str] = {}
    for key, (knode, vnode) in rd.entries(node, "sources"):
        if key not in known:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            rd.problem(knode, f"sources.{key}", f"not a parameter{hint}")
            continue
        text = rd.text(vnode, f"sources.{key}")
        if text is not None:
            out[key] = " ".join(text.split())
    return out


def _resolve_extends(
    target: str, base: Path, *, bundled: bool, chain: tuple[str, ...]
) -> RuleProfile:
    if target in list_profiles():
        return _load_bundled(target, chain)
    if bundled:
        raise ProfileError.single(target, "a bundled profile can only extend bundled profiles")
    from pathlib import Path

    path = Path(target)
    if not path.is_absolute():
        path = base / path
    if not os.path.exists(path):
        known = ", ".join(list_profiles())
        raise ProfileError.single(
            str(path), f"no bundled profile and no such file; bundled profiles: {known}"
        )
    return _load_file(path, chain)
