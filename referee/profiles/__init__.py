"""Rule profiles: editions and house rules as parameters."""

from referee.profiles.params import DEFAULT_PROFILE, RuleProfile

__all__ = ["DEFAULT_PROFILE", "RuleProfile"]
