"""CLI commands, one module each. Every module here that defines ``command`` (a Click command)
is added to ``alhambra-referee`` automatically (see :mod:`referee.cli`)."""
