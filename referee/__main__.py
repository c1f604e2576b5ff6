"""``python -m referee`` runs the CLI."""

from referee.cli import entry

entry()
