"""One headless Chromium for the browser tests (the replay page, the table scoring page).

Debian's ``chromium`` and ``chromium-driver`` driven by selenium (the ``test`` extra); ``.ci/run``
installs them when it can. Without them a test that asks for a browser is skipped, with the
reason as the skip message and as a warning in the summary (so a run without a browser says so).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from typing import Any, NoReturn

import pytest

_BROWSERS = ("chromium", "chromium-browser", "google-chrome")

WINDOW = (1280, 1000)
"""The desktop window size every browser test starts with."""


def find_browser() -> tuple[str | None, str | None, str]:
    """(browser binary, chromedriver, why not) — from $CHROME_BIN / $CHROMEDRIVER or PATH."""
    browser = os.environ.get("CHROME_BIN") or next(
        (found for name in _BROWSERS if (found := shutil.which(name))), None
    )
    driver = os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver")
    if browser is None:
        return None, None, "no Chromium found (apt-get install chromium chromium-driver)"
    if driver is None:
        return browser, None, "no chromedriver found (apt-get install chromium-driver)"
    return browser, driver, ""


def skip_browser(what: str, reason: str) -> NoReturn:
    """Skip a browser test of ``what`` (e.g. "HTML replay"), also as a warning."""
    reason = f"{what} browser tests skipped: {reason}"
    warnings.warn(reason, UserWarning, stacklevel=2)
    pytest.skip(reason)


def chromium(what: str) -> Iterator[Any]:
    """A headless Chromium (a selenium driver) for one test module's fixture, quit at the end;
    skips the tests of ``what`` with the reason when there is none."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        skip_browser(what, "selenium is not installed (pip install -e '.[test]')")
    binary, driver_path, why = find_browser()
    if why:
        skip_browser(what, why)
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # Chromium's own temporary folders (org.chromium.Chromium.*: its singleton socket) go to a
    # folder of this fixture, removed after the browser quits: they used to be left in /tmp
    scratch = tempfile.mkdtemp(prefix="alhambra-referee-chromium-")
    service = Service(executable_path=driver_path, env={**os.environ, "TMPDIR": scratch})
    try:
        drv = webdriver.Chrome(service=service, options=options)
    except Exception as exc:  # a browser that cannot start here (e.g. no shared memory)
        shutil.rmtree(scratch, ignore_errors=True)
        skip_browser(
            what, f"Chromium did not start: {type(exc).__name__}: {str(exc).splitlines()[0]}"
        )
    drv.set_page_load_timeout(30)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(scratch, ignore_errors=True)
