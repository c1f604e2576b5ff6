"""Record text made safe for where it goes: terminal, XML/SVG, HTML, CSV (one escaping layer).

A game record is untrusted input: a club runs the referee on files its members send. Player
names, header values, comments and module values are copied into reports, and a hostile record
could otherwise reach

* a **terminal** with control sequences (an OSC sequence sets the window title or makes a
  hyperlink, a CSI sequence moves the cursor or hides text, a carriage return overwrites the
  line, bidi controls reorder what is shown): :func:`terminal` shows every such character as a
  visible escape (``\\x1b``, ``\\u202e``); :class:`TerminalStream` does it for everything a
  command writes to a terminal, letting through only the colours the tool itself paints;
* **XML/SVG and HTML** with markup or characters XML 1.0 forbids (U+0001 makes a document
  invalid): :func:`xml` escapes the markup characters and shows forbidden ones as escapes;
* a **spreadsheet** with a formula (a CSV cell starting with ``=``, ``+``, ``-``, ``@``, a tab
  or a carriage return is run by Excel and LibreOffice): :func:`csv_cell` puts a ``'`` first;
* JSON and YAML are written by ``json.dumps`` and ``yaml.safe_dump``, which escape control
  characters themselves (tested in tests/test_hardening_text.py).

:func:`bounded` cuts a text for people (one finding, one cell) to a bound, saying how much was
left out. :func:`name_problems` names what is suspicious in a player name (NUL and control
characters, invisible characters, a spelling that is not in Unicode normal form NFC), for the
``PLAYER-NAME`` finding. docs/security.md describes the whole.
"""

from __future__ import annotations

import re
import unicodedata

from referee.lazy_re import lazy_pattern

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

# categories shown as escapes: controls, format (invisible: zero width, bidi), surrogates,
# private use, unassigned, line and paragraph separators
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
PLAIN_TEXT = "[ -~\u00a0-\u00ac\u00ae-\u02ff]*"  # Latin text: nothing to escape
_PLAIN = lazy_pattern(PLAIN_TEXT)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def is_hidden(ch: str) -> bool:
    """Whether ``ch`` is a control or invisible character (shown as an escape)."""
    return ch < " " or "\x7f" <= ch <= "\x9f" or unicodedata.category(ch) in _HIDDEN


def terminal(text: str, keep: str = "\n\t") -> str:
    """``text`` safe for a terminal: every control or invisible character but those in
    ``keep`` (line feed and tab) shown as a visible escape; a backslash stays as it is."""
    if _PLAIN.fullmatch(text) is not None:
        return text
    return "".join(_escape(ch) if ch not in keep and is_hidden(ch) else ch for ch in text)


def line(text: str) -> str:
    """One line for a terminal: :func:`terminal` with line feeds shown as ``\\x0a`` too."""
    return terminal(text, keep="\t")


BOUND = 2000  # characters of one finding or one cell shown to people


def bounded(text: str, limit: int = BOUND, lang: str = "en") -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    rest = len(text) - limit
    if lang == "de":
        return f"{text[:limit]} ... ({rest:,} weitere Zeichen ausgelassen)".replace(",", ".")
    return f"{text[:limit]} ... ({rest:,} more characters left out)"


# ---------------------------------------------------------------------------- XML, SVG, HTML

_XML_BAD = lazy_pattern("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_XML_MARKUP = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_XML_ANY = lazy_pattern("[&<>\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_ATTR = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}


def _xml_char(m: re.Match[str]) -> str:
    ch = m.group()
    return _XML_MARKUP.get(ch) or _escape(ch)


def xml(text: str) -> str:
    """``text`` for XML/SVG or HTML text: ``&``, ``<`` and ``>`` as entities, characters XML
    1.0 forbids (most C0 controls, C1, lone surrogates, U+FFFE/U+FFFF) as visible escapes, so
    the document stays well-formed whatever a record holds."""
    return _XML_ANY.sub(_xml_char, text)


def xml_attr(text: str) -> str:
    """``text`` as a quoted XML attribute value (:func:`xml`, line ends and tabs as character
    references; quoted as ``xml.sax.saxutils.quoteattr`` quotes)."""
    out = xml(text)
    for ch, ref in _ATTR.items():
        if ch != '"':
            out = out.replace(ch, ref)
    if '"' not in out:
        return f'"{out}"'
    if "'" not in out:  # as xml.sax.saxutils.quoteattr writes it
        return f"'{out}'"
    return '"' + out.replace('"', "&quot;") + '"'


def xml_chars(text: str) -> str:
    """Only the characters XML 1.0 forbids as visible escapes (for text a caller escapes
    for markup itself, e.g. with ``html.escape``)."""
    return _XML_BAD.sub(lambda m: _escape(m.group()), text)


# ---------------------------------------------------------------------------------- CSV

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def csv_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: a cell starting with ``=``, ``+``, ``-``, ``@``
    (or their full-width forms), a tab or a carriage return gets a ``'`` first (the OWASP
    advice against formula injection); other cells are unchanged."""
    return "'" + text if text.startswith(_FORMULA_START) else text


# ------------------------------------------------------------------------- player names


def name_problems(name: str) -> list[str]:
    """What is suspicious in a player name, as reason keys: ``control`` (NUL or another
    control character), ``invisible`` (zero-width, bidi and other format characters, or
    separators), ``unnormalised`` (not in Unicode normal form NFC: two spellings of one name
    would be two players), ``blank`` (only spaces). Empty: nothing."""
    out: list[str] = []
    if any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in name):
        out.append("control")
    if any(
        unicodedata.category(ch) in {"Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
        or (unicodedata.category(ch) == "Zs" and ch != " ")
        for ch in name
    ):
        out.append("invisible")
    if unicodedata.normalize("NFC", name) != name:
        out.append("unnormalised")
    if name and not name.strip():
        out.append("blank")
    return out


# ----------------------------------------------------------------------- terminal stream

# the only escape sequences the tool itself writes to a terminal: its colours (SGR 0, and the
# 256-colour foregrounds of referee.reports.terminal, bold or not) and, on standard error only,
# the progress line's "back to the start, erase the line"
_OWN_COLOUR = r"\x1b\[(?:0|(?:1;)?38;5;[0-9]{1,3})m"
_OWN = {False: lazy_pattern(_OWN_COLOUR), True: lazy_pattern(_OWN_COLOUR + r"|\r\x1b\[K")}
_NEEDS_CARE = lazy_pattern(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb]"
)


def terminal_output(text: str, progress: bool = False) -> str:
    """What a command writes, safe for a terminal: the tool's own colour sequences kept (and
    the progress line's erase-line when ``progress``: standard error), every other control or
    invisible character shown as an escape."""
    if _NEEDS_CARE.search(text) is None:
        return text
    out: list[str] = []
    pos = 0
    for m in _OWN[progress].finditer(text):
        out.append(terminal(text[pos : m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(terminal(text[pos:]))
    return "".join(out)


class TerminalStream:
    """A text stream that passes what is written through :func:`terminal_output` (installed
    by the command line for standard output and error when they are terminals)."""

    def __init__(self, stream: IO[str], progress: bool = False) -> None:
        self._stream = stream
        self._progress = progress

    def write(self, text: str) -> int:
        self._stream.write(terminal_output(text, self._progress))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for ln in lines:
            self.write(ln)

    def isatty(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:  # flush, fileno, encoding, errors ...
        if name == "buffer":  # no byte path around the filter (click writes text then)
            raise AttributeError(name)
        return getattr(self._stream, name)
