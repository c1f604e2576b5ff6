"""What the tests of ``alhambra-referee serve`` share: a server on a free port of 127.0.0.1 in a
thread of the test process, and ``score --format json`` of a text (the command the page must
agree with)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from test_hardening_cli import run

from referee.serve.server import Server


@contextmanager
def running_server(**settings: Any) -> Iterator[Server]:
    """A server on 127.0.0.1 and a free port, serving in a thread until the block ends."""
    server = Server("127.0.0.1", 0, quiet=True, **settings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def score_json(text: str, *args: str) -> tuple[int, dict[str, Any]]:
    """``alhambra-referee score - --format json`` of ``text``: (exit code, the game's JSON)."""
    code, out, err = run("score", "-", "--format", "json", *args, stdin=text)
    assert "Traceback" not in err, err
    return code, json.loads(out)["games"][0]
