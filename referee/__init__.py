"""alhambra-referee: game-record notation, rules referee and scorer for Alhambra."""

__version__ = "0.1.0"
