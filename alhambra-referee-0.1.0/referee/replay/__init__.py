"""The HTML replay: one self-contained page per game of a record (``render --html``)."""

from referee.replay.page import (
    NoSuchMoment,
    game_data,
    page_html,
    scoring_table,
    start_step,
    state_data,
)

__all__ = [
    "NoSuchMoment",
    "game_data",
    "page_html",
    "scoring_table",
    "start_step",
    "state_data",
]
