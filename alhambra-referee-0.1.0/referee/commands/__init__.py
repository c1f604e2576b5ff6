"""CLI commands, one module each. Every module here whose name does not start with ``_`` defines
``command`` (a Click command named like the module); :mod:`referee.cli` lists the modules without
importing them and imports one only when its command runs (``--help`` imports all of them)."""
