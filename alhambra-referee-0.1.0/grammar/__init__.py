"""The Lark grammar of the Alhambra game-record notation (installed as ``referee.grammar``).

The ``.lark`` file beside this one is the single source of truth for the syntax.
"""

from pathlib import Path

GRAMMAR_FILE = Path(__file__).with_name("alhambra.lark")
