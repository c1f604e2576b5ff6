"""Write the bundled data's literal modules from their YAML files (issue 34, twenty-third step).

The base game's tile catalogue (``referee/catalogue/tiles-base.yaml``) and the bundled rule
profiles (``referee/profiles/*.yaml``) are read at every first check of a process. Parsing them
means importing PyYAML and running its loader (about a tenth of a compiled first pass when the
data cache is off, bench/README.md). This tool writes what parsing gives as two plain Python
modules of the package, ``referee/catalogue/tiles_literal.py`` and
``referee/profiles/bundled_literal.py``: the YAML texts they were made from and the parsed data
(the tiles' mapping, each profile's fields). The package uses a literal only when the texts it
reads from the files are exactly the texts the literal holds (``referee.datacache.load_yaml``
for the tiles, ``referee.profiles.loader._literal_fields`` for the profiles); otherwise it reads
them as before (the data cache, else PyYAML). ``tests/test_speed25_native.py`` checks that the
modules hold what parsing the files gives now: run this tool (``python
tools/bundled_literals.py``) after editing a YAML file, the profile loader or the parameters'
module.

Only values Python's ``repr`` writes back exactly are allowed (strings, numbers, booleans,
None, lists, tuples and dicts of them); anything else stops the tool.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TILES_MODULE = os.path.join(ROOT, "referee", "catalogue", "tiles_literal.py")
PROFILES_MODULE = os.path.join(ROOT, "referee", "profiles", "bundled_literal.py")

_HEAD = '''"""{what}

Written by ``tools/bundled_literals.py`` from {source}: do not edit; run the tool again after
changing them (tests/test_speed25_native.py checks that this module holds what parsing gives).
"""

# ruff: noqa: E501

'''

_PLAIN = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    """``value`` itself when ``repr`` writes it back exactly (else ``TypeError``)."""
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, (list, tuple)):
        for item in value:
            _plain(item)
        return value
    if isinstance(value, dict):
        for key, item in value.items():
            _plain(key)
            _plain(item)
        return value
    raise TypeError(f"not a plain value: {value!r}")


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:  # as the package reads them (newlines made \n)
        return fh.read()


def tiles_source() -> str:
    """The text of ``tiles_literal.py``."""
    from referee.catalogue import components

    text = _read(os.path.join(os.path.dirname(components.__file__), "tiles-base.yaml"))
    data = _plain(components._parse_tiles(text))
    head = _HEAD.format(
        what="The base game's tile catalogue as parsed from tiles-base.yaml.",
        source="referee/catalogue/tiles-base.yaml",
    )
    return f"{head}TEXT = {text!r}\n\nDATA = {data!r}\n"


def profiles_source() -> str:
    """The text of ``bundled_literal.py``."""
    from referee.profiles import loader

    folder = loader._bundled_dir()
    names = loader._bundled_names()
    texts = {name: _read(os.path.join(folder, f"{name}.yaml")) for name in names}
    kept = {}
    for name in names:
        profile = loader._load_bundled(name, ())  # parsed from the YAML, no cache
        kept[name] = _plain({f.name: getattr(profile, f.name) for f in fields(profile)})
    head = _HEAD.format(
        what="The bundled rule profiles' fields as the profile loader reads them from the YAML.",
        source="the bundled profiles' YAML (read by loader.py and params.py)",
    )
    return f"{head}TEXTS = {texts!r}\n\nFIELDS = {kept!r}\n"


def main() -> None:
    sys.path.insert(0, ROOT)
    for path, text in ((TILES_MODULE, tiles_source()), (PROFILES_MODULE, profiles_source())):
        with open(path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        # the project's layout (the data is the same either way)
        subprocess.run([sys.executable, "-m", "ruff", "format", "-q", path], check=False)
        print(path)


if __name__ == "__main__":
    main()
