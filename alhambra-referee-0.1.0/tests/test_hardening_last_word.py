"""The answer when even the out-of-memory line cannot be made (found by the fourteenth step's
last CI run: under one address-space limit ``check`` exited 4 with nothing on standard error):
the line made at start-up is written instead, one line and status 4."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_FAILING_STDERR = (
    "import sys\n"
    "import referee.__main__ as m\n"
    "class Full:\n"
    "    def write(self, text):\n"
    "        raise MemoryError\n"
    "    def flush(self):\n"
    "        raise MemoryError\n"
    "sys.stderr = Full()\n"
    "m._cannot_start('not enough memory', 'nicht genug Arbeitsspeicher')\n"
)


def test_a_line_is_written_when_the_out_of_memory_text_cannot_be_made() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _FAILING_STDERR], cwd=ROOT, capture_output=True, check=False
    )
    assert done.returncode == 4
    text = done.stderr.decode()
    assert text.count("\n") == 1 and "Traceback" not in text
    assert "not enough memory" in text and "nothing above is a verdict" in text
    assert "nicht genug Arbeitsspeicher" in text
