"""Start-up: the bundled YAML data, read once and kept between runs.

The tile catalogue, every module's data file and the bundled rule profiles are YAML files shipped
with the package. Reading them needs PyYAML, whose import alone took 20 ms of the 250 ms a
one-game ``check`` needed (``python -X importtime``; bench/README.md, "Start-up, fourth push").
What they give is plain data, a pure function of the file's text, so this module keeps it in a
file of the user's cache folder (:func:`referee.cache.cache_dir`) and hands it back when the
text is the same:

* :func:`load_yaml` keys each parsed file by its exact text (the text is stored and compared, so
  an edited file is a miss, never a stale entry). A value that ``marshal`` cannot hold (a date,
  say) is simply not kept.
* :func:`profile_fields` / :func:`keep_profile` keep the fields of a bundled rule profile under a
  key that the caller builds from everything the profile depends on (for the profile loader: the
  texts of all bundled profiles and the source of the loader and of the parameters' module).

Every value is kept as its own ``marshal`` bytes and unmarshalled at each lookup, so a caller that
changes what it got changes nothing here. The file also records which PyYAML made the data (the
text of its ``__init__.py``, which holds its version): another PyYAML drops every entry. Up to
:data:`_MAX_PROFILE_KEYS` profile keys are kept (trees with another loader share the folder).
Like the compiled dataclass code (:mod:`referee.cli_startup`), the file is named after the
interpreter (:func:`referee.cache.interpreter_key`), replaced atomically, and bounded (past
:data:`_MAX_ENTRIES` texts or :data:`_MAX_BYTES`, only what this process used is written). It is
written when the process ends (``atexit``) and only when something new was computed. A missing,
damaged, foreign or oversized file, a folder that cannot be written (a read-only home) or
``ALHAMBRA_REFEREE_CACHE=0`` means: parse the YAML as before.
"""

from __future__ import annotations

import atexit
import marshal
import os
from collections.abc import Callable, Hashable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_FORMAT = 1
_MAX_ENTRIES = 200  # parsed texts kept (the package has about 30 YAML files)
_MAX_BYTES = 4 * 1024 * 1024  # a larger file is not read, and not written
_MAX_PROFILE_KEYS = 2  # profile keys kept (other versions of the loader: the oldest goes)
_MAX_PROFILES = 64  # profiles per key

_MISSING = object()


class _Store:
    """The cache file's contents, read on first use."""

    def __init__(self) -> None:
        self.loaded = False
        self.path: str | None = None  # the cache file (a plain string: no pathlib)
        self.stamp: bytes | None = None
        self.texts: dict[tuple[str, str], bytes] = {}
        self.profiles: dict[Hashable, dict[str, bytes]] = {}
        self.used: set[tuple[str, str]] = set()
        self.dirty = False


_store = _Store()


def _file() -> str | None:
    from referee.cache import marshal_file

    return marshal_file("bundled-data")


def _yaml_stamp() -> bytes | None:
    """Which PyYAML would parse the files: the text of its ``__init__.py``, which names its
    version (found without importing it); None when there is none. Looked for on the module
    search path (``importlib.machinery.PathFinder``, where an installed PyYAML is found):
    ``importlib.util.find_spec`` would import ``importlib.util`` and ``contextlib``, which a
    check does not otherwise need."""
    from importlib.machinery import PathFinder

    try:
        spec = PathFinder.find_spec("yaml")
        if spec is None or spec.origin is None:
            return None
        with open(spec.origin, "rb") as fh:
            # read by the file's size (a read of n bytes reserves n bytes first)
            size = os.fstat(fh.fileno()).st_size
            return fh.read(min(size + 1, _MAX_BYTES))
    except (ImportError, ValueError, OSError, MemoryError):
        return None


def _read(path: str, stamp: bytes) -> dict[str, Any] | None:
    """The file's contents when it is ours (owned by this user, writable by nobody else, in
    such a folder), for this PyYAML, and whole; else None."""
    from referee.cache import read_trusted

    raw = read_trusted(path, _MAX_BYTES)  # the user's own file in the user's own folder only
    if raw is None:
        return None
    try:
        data = marshal.loads(raw)
    except (EOFError, ValueError, TypeError, MemoryError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return None
    if data.get("stamp") != stamp:
        return None
    return data


def _load() -> _Store:
    store = _store
    if store.loaded:
        return store
    store.loaded = True
    store.path = _file()
    if store.path is None:
        return store
    store.stamp = _yaml_stamp()
    if store.stamp is None:
        store.path = None  # no PyYAML to vouch for the data: no cache
        return store
    data = _read(store.path, store.stamp)
    if data is None:
        return store
    texts = data.get("texts")
    if isinstance(texts, dict):
        store.texts = {
            k: v
            for k, v in texts.items()
            if isinstance(k, tuple)
            and len(k) == 2
            and isinstance(k[0], str)
            and isinstance(k[1], str)
            and isinstance(v, bytes)
        }
    profiles = data.get("profiles")
    if isinstance(profiles, dict):
        for key, kept in list(profiles.items())[-_MAX_PROFILE_KEYS:]:
            if isinstance(kept, dict):
                store.profiles[key] = {
                    k: v for k, v in kept.items() if isinstance(k, str) and isinstance(v, bytes)
                }
    return store


def _unmarshal(raw: bytes) -> Any:
    try:
        return marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return _MISSING


def _marshal(value: Any) -> bytes | None:
    """``value`` as ``marshal`` bytes, or None when marshal cannot hold it (dates, objects)."""
    try:
        return marshal.dumps(value)
    except (ValueError, RecursionError):
        return None


def _changed(store: _Store) -> None:
    if not store.dirty and store.path is not None:
        store.dirty = True
        atexit.register(save)


def _literal(kind: str, text: str, parse: Callable[[str], Any]) -> Any:
    """What ``parse(text)`` gives, from the package's literal of a bundled file when ``parse``
    is the parse the literal was made with and ``text`` exactly its text (a copy of it, as a
    cached value is); else ``_MISSING``. The one literal: the tile catalogue's
    (``referee/catalogue/tiles_literal.py``, written by tools/bundled_literals.py and checked
    against parsing by tests/test_speed25_native.py), so that a base game's check needs no
    PyYAML even without the cache."""
    if kind != "tiles":
        return _MISSING
    from referee.catalogue import components, tiles_literal

    if parse is not components._parse_tiles or text != tiles_literal.TEXT:
        return _MISSING
    return marshal.loads(marshal.dumps(tiles_literal.DATA))


def load_yaml(kind: str, text: str, parse: Callable[[str], Any]) -> Any:
    """``parse(text)``: from the package's literal of it (:func:`_literal`), else from the
    cache when this ``kind`` of parse of this exact text is there, else parsed.

    ``kind`` names the parse (``parse`` must be a pure function of the text for each kind)."""
    literal = _literal(kind, text, parse)
    if literal is not _MISSING:
        return literal
    store = _load()
    key = (kind, text)
    raw = store.texts.get(key)
    if raw is not None:
        value = _unmarshal(raw)
        if value is not _MISSING:
            store.used.add(key)
            return value
    value = parse(text)
    if store.path is not None:
        dumped = _marshal(value)
        if dumped is not None:
            store.texts[key] = dumped
            store.used.add(key)
            _changed(store)
    return value


def profile_fields(key: Hashable, name: str) -> dict[str, Any] | None:
    """The fields kept for the bundled profile ``name`` under ``key`` (None: not kept)."""
    store = _load()
    try:
        raw = store.profiles.get(key, {}).get(name)
    except TypeError:  # not hashable
        return None
    value = _unmarshal(raw) if raw is not None else _MISSING
    if not isinstance(value, dict):
        return None
    return value


def keep_profile(key: Hashable, name: str, fields: dict[str, Any]) -> None:
    """Keep the fields of the bundled profile ``name`` under ``key`` (a marshallable value; past
    :data:`_MAX_PROFILE_KEYS` keys, the oldest key's entries are dropped)."""
    store = _load()
    if store.path is None:
        return
    dumped = _marshal(fields)
    if dumped is None or _marshal(key) is None:
        return
    kept = store.profiles.pop(key, {})  # (re)inserted last: the newest key
    if len(kept) < _MAX_PROFILES:
        kept[name] = dumped
    store.profiles[key] = kept
    while len(store.profiles) > _MAX_PROFILE_KEYS:
        del store.profiles[next(iter(store.profiles))]
    _changed(store)


def save() -> None:
    """Write the file when this process computed something new; any failure is ignored."""
    store = _store
    if not store.dirty or store.path is None:
        return
    store.dirty = False
    texts = store.texts
    if len(texts) > _MAX_ENTRIES:  # old entries (edited files, another version): this run's
        texts = {k: v for k, v in texts.items() if k in store.used}
    data = {
        "format": _FORMAT,
        "stamp": store.stamp,
        "texts": texts,
        "profiles": store.profiles,
    }
    try:
        blob = marshal.dumps(data)
    except ValueError:  # pragma: no cover - every part was marshalled before
        return
    if len(blob) > _MAX_BYTES:
        texts = {k: v for k, v in texts.items() if k in store.used}
        blob = marshal.dumps({**data, "texts": texts})
        if len(blob) > _MAX_BYTES:
            return
    from referee.cache import write_atomically

    write_atomically(store.path, blob)


def reset() -> None:
    """Forget what was read (tests: the next lookup reads the file again)."""
    global _store
    if _store.dirty:
        try:  # noqa: SIM105 - no contextlib: a check does not otherwise import it
            atexit.unregister(save)
        except Exception:
            pass
    _store = _Store()
