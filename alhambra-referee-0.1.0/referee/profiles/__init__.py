"""Rule profiles: editions and house rules as parameters.

``load_profile(name_or_path)`` gives a :class:`RuleProfile` (a bundled name such as
``queen-2003`` or a user's YAML file); ``list_profiles()`` names the bundled ones;
``ProfileError`` is raised, with file, line, column and key, for anything that cannot be used.
"""

from __future__ import annotations

from referee.profiles.loader import (
    DEFAULT_NAME,
    ProfileError,
    ProfileProblem,
    list_profiles,
    load_profile,
    parse_profile,
)
from referee.profiles.params import DEFAULT_PROFILE, ParamSpec, RuleProfile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from referee.profiles.params import PARAMETERS

__all__ = [
    "DEFAULT_NAME",
    "DEFAULT_PROFILE",
    "PARAMETERS",
    "ParamSpec",
    "ProfileError",
    "ProfileProblem",
    "RuleProfile",
    "list_profiles",
    "load_profile",
    "parse_profile",
]


def __getattr__(name: str) -> Any:
    """``PARAMETERS``: :mod:`referee.profiles.params` makes it on first use."""
    if name == "PARAMETERS":
        from referee.profiles import params

        return params.PARAMETERS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
