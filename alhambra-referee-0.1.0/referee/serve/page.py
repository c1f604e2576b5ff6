"""The table scoring page: one HTML document, its stylesheet and its script (package data).

The stylesheet is the HTML replay's (``referee/replay/assets/replay.css``: the tile chips, the
Alhambra drawings, the breakdown table) with this page's own rules after it
(``assets/serve.css``); the Alhambras themselves are drawn by the server with the replay's
:func:`referee.reports.svg.alhambra_fragment`. Nothing is loaded from the internet.
"""

from __future__ import annotations

from functools import cache
from html import escape
from importlib import resources

ASSETS = {
    "/assets/serve.js": "text/javascript; charset=utf-8",
    "/assets/serve.css": "text/css; charset=utf-8",
}

_TITLE = {"en": "Scoring at the table", "de": "Wertung am Tisch"}
_NOSCRIPT = {
    "en": "This page needs JavaScript (it runs on this computer only; nothing is sent elsewhere).",
    "de": "Diese Seite braucht JavaScript (es läuft nur auf diesem Rechner; nichts geht "
    "anderswohin).",
}


def _read(package: str, name: str) -> str:
    return resources.files(package).joinpath("assets", name).read_text(encoding="utf-8")


@cache
def stylesheet() -> str:
    """The replay's stylesheet (its placeholders filled as the replay fills them) and this
    page's rules."""
    from referee.reports.svg import FILL, LONGEST_COLOUR, fragment_css

    replay = (
        _read("referee.replay", "replay.css")
        .replace("/*FRAGMENT_CSS*/", fragment_css())
        .replace("/*GOLD*/", LONGEST_COLOUR)
    )
    types = "".join(f".t{bt.code}{{background:{colour}}}" for bt, colour in FILL.items())
    return f"{replay}\n{types}\n{_read('referee.serve', 'serve.css')}"


def asset(path: str) -> tuple[bytes, str]:
    """The body and content type of one of :data:`ASSETS`."""
    if path == "/assets/serve.css":
        return stylesheet().encode("utf-8"), ASSETS[path]
    return _read("referee.serve", "serve.js").encode("utf-8"), ASSETS[path]


def page_html(lang: str = "en") -> str:
    """The page's HTML: the skeleton the script fills (every text in it is the page's own)."""
    lang = "de" if lang == "de" else "en"
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="alhambra-referee">
<title>{escape(_TITLE[lang])} — alhambra-referee</title>
<link rel="stylesheet" href="/assets/serve.css">
</head>
<body data-lang="{lang}">
<header class="top">
<h1 id="title">{escape(_TITLE[lang])}</h1>
<div class="langs" role="group" aria-label="language / Sprache">
<button type="button" id="lang-en" data-lang="en">English</button>
<button type="button" id="lang-de" data-lang="de">Deutsch</button>
</div>
<p class="sub" id="intro"></p>
</header>
<noscript><p class="note">{escape(_NOSCRIPT[lang])}</p></noscript>
<main class="serve">
<section id="setup" class="panel"></section>
<section id="players" class="players"></section>
<section id="dirkbox" class="panel" hidden></section>
<section id="leftbox" class="panel"></section>
<section id="result" class="panel" aria-live="polite">
<h2 id="result-title"></h2>
<div id="status" class="status"></div>
<div id="findings" class="findings"></div>
<div id="scoring" class="scoringbox"></div>
</section>
<section id="textbox" class="panel"></section>
</main>
<div id="picker" class="picker" hidden role="dialog" aria-modal="true"
 aria-labelledby="picker-title">
<div class="sheet">
<h2 id="picker-title"></h2>
<div id="picker-body"></div>
</div>
</div>
<footer class="foot" id="foot"></footer>
<script src="/assets/serve.js"></script>
</body>
</html>
"""
