"""The HTML replay: one self-contained page per game of a record (``render --html``)."""

from referee.replay.page import game_data, page_html, scoring_table, state_data

__all__ = ["game_data", "page_html", "scoring_table", "state_data"]
