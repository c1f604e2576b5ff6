"""Round-trip times of ``alhambra-referee serve``'s answers (docs/serve.md, "Safety").

Starts the server in this process on a free port of 127.0.0.1 and times five ``POST``s of each
request with ``http.client``; prints the median, the smallest and the largest. Run from the
repository's root: ``python bench/bench_serve.py``. Nothing is asserted (speed is measured here,
never in the tests).
"""

from __future__ import annotations

import http.client
import json
import statistics
import threading
import time
from pathlib import Path

from referee.serve.server import Server

ROOT = Path(__file__).resolve().parents[1]
SIX = (ROOT / "examples" / "final-6p.alh").read_text("utf-8")
HOSTILE = (
    "position\n  player A\n    alhambra "
    + " ".join(f"T13@{x},{y}" for x in range(-20, 20) for y in range(-20, 20) if (x, y) != (0, 0))
    + "\nend\n"
)
CASES = [
    ("score examples/final-6p.alh", "/api/score", {"text": SIX}),
    ("fit one cell of final-6p", "/api/fit", {"text": SIX, "player": "Anna", "at": "-1,1"}),
    ("score 1,599 copies of one tile", "/api/score", {"text": HOSTILE}),
]


def main() -> None:
    server = Server("127.0.0.1", 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = int(server.server_address[1])
    try:
        for name, path, data in CASES:
            body = json.dumps(data).encode("utf-8")
            times = []
            for _ in range(6):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                started = time.perf_counter()
                conn.request("POST", path, body, {"Content-Type": "application/json"})
                resp = conn.getresponse()
                size = len(resp.read())
                times.append(time.perf_counter() - started)
                conn.close()
            first, rest = times[0], times[1:]  # the first one pays for the imports
            ms = [round(t * 1000) for t in (statistics.median(rest), min(rest), max(rest), first)]
            print(
                f"{name}: {resp.status}, {size} bytes, median {ms[0]} ms "
                f"(min {ms[1]}, max {ms[2]}; first {ms[3]})"
            )
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
