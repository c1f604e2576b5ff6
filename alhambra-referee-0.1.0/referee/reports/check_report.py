"""Rendering the results of ``check``: text for people, one JSON/YAML document for programs.

The document (``--format json|yaml``)::

    {"valid": bool, "games": [
        {"file", "line", "players", "profile", "valid", "complete",
         "errors": [{code, line, column, message}],            # syntax (notation) errors
         "violations": [{code, name, section, severity, file, line, column, turn, player,
                         message}],
         "violation_count", "violations_omitted", "truncated",   # --max-violations cap
         "unverifiable": [{file, line, column, turn, player, message}],
         "unverifiable_count", "unverifiable_omitted",
         "scorings": [ScoringResult.to_dict()], "result": {player: total}, "winners": [...]}],
     "no_games": [input, ...]}      # only when an input holds no game (exit code 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.engine import GameReport
from referee.lazy_re import lazy_pattern
from referee.record.model import NotationError
from referee.reports.i18n import register, t
from referee.safe_text import BOUND, PLAIN_TEXT, bounded
from referee.safe_text import line as one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_TEXT: dict[str, dict[str, str]] = {
    "ok": {"en": "OK", "de": "OK"},
    "invalid.one": {"en": "1 violation", "de": "1 Regelverstoß"},
    "invalid": {"en": "{n} violations", "de": "{n} Regelverstöße"},
    "omitted": {
        "en": "... and {n} more violations not shown (--max-violations {cap}; 0 shows all)",
        "de": "... und {n} weitere Regelverstöße nicht gezeigt (--max-violations {cap}; 0 zeigt "
        "alle)",
    },
    "notes_omitted": {
        "en": "... and {n} more notes of what cannot be verified (--max-violations {cap})",
        "de": "... und {n} weitere Hinweise auf nicht Überprüfbares (--max-violations {cap})",
    },
    "notes_omitted.one": {
        "en": "... and 1 more note of what cannot be verified (--max-violations {cap})",
        "de": "... und 1 weiterer Hinweis auf nicht Überprüfbares (--max-violations {cap})",
    },
    "omitted.one": {
        "en": "... and 1 more violation not shown (--max-violations {cap}; 0 shows all)",
        "de": "... und 1 weiterer Regelverstoß nicht gezeigt (--max-violations {cap}; 0 zeigt "
        "alle)",
    },
    "syntax": {"en": "cannot be read", "de": "nicht lesbar"},
    "turn": {"en": "turn {n}", "de": "Zug {n}"},
    "setup": {"en": "setup", "de": "Vorbereitung"},
    "warning": {"en": "warning", "de": "Warnung"},
    "unverifiable": {"en": "not verifiable", "de": "nicht überprüfbar"},
    "result": {"en": "result", "de": "Ergebnis"},
    "winners": {"en": "winner", "de": "Sieger"},
    "incomplete": {
        "en": "the record ends before the game end",
        "de": "die Aufzeichnung endet vor dem Spielende",
    },
    "summary": {
        "en": "{games} game(s): {valid} valid, {invalid} with violations, {broken} unreadable",
        "de": "{games} Partie(n): {valid} gültig, {invalid} mit Regelverstößen, {broken} nicht "
        "lesbar",
    },
}


for _key, _texts in _TEXT.items():
    register(f"check.{_key}", _texts["en"], _texts["de"])


def _t(key: str, lang: str, **params: object) -> str:
    """A string of the check report, through the project's string table (:mod:`i18n`)."""
    return t(f"check.{key}", lang, **params)


def _tn(key: str, n: int, lang: str, **params: object) -> str:
    """The singular (``key.one``) or plural form of a counted string."""
    return _t(f"{key}.one" if n == 1 else key, lang, n=n, **params)


def violations_text(n: int, lang: str) -> str:
    """``1 violation`` / ``3 violations`` (``1 Regelverstoß`` / ``3 Regelverstöße``)."""
    return _tn("invalid", n, lang)


# Reports are capped: a record of 200,000 bad actions would otherwise print megabytes. As the
# notation caps syntax errors per game, ``check`` shows at most this many violations per game
# (``--max-violations N``, 0 = all); the counts, the verdict and the exit code stay exact.
DEFAULT_MAX_VIOLATIONS = 100


def capped(items: list[Any], cap: int) -> tuple[list[Any], int]:
    """The first ``cap`` items (all when ``cap`` is 0) and how many were left out."""
    if cap <= 0 or len(items) <= cap:
        return items, 0
    return items[:cap], len(items) - cap


def omitted_text(n: int, cap: int, lang: str) -> str:
    return _tn("omitted", n, lang, cap=cap)


@dataclass
class CheckedGame:
    """One game as the ``check`` command saw it: either a report or notation errors."""

    source: str
    start_line: int
    players: list[str]
    report: GameReport | None
    errors: list[NotationError] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors and self.report is not None and self.report.valid


def _scoring_dict(result: Any) -> Any:
    to_dict = getattr(result, "to_dict", None)
    return to_dict() if callable(to_dict) else str(result)


def game_dict(
    g: CheckedGame, lang: str = "en", max_violations: int = DEFAULT_MAX_VIOLATIONS
) -> dict[str, Any]:
    """One game as data; ``violations`` holds at most ``max_violations`` entries (0: all),
    ``violation_count`` the true number and ``violations_omitted`` how many were left out."""
    rep = g.report
    shown, omitted = capped(list(rep.violations) if rep else [], max_violations)
    notes, notes_omitted = capped(list(rep.unverifiable) if rep else [], max_violations)
    return {
        "file": g.source,
        "line": g.start_line,
        "players": list(g.players),
        "profile": rep.profile if rep else None,
        "valid": g.valid,
        "complete": bool(rep and rep.complete),
        "errors": [
            {"code": e.code, "line": e.pos.line, "column": e.pos.column, "message": e.message}
            for e in g.errors
        ],
        "violations": [v.to_dict(lang) for v in shown],
        "violation_count": len(rep.violations) if rep else 0,
        "violations_omitted": omitted,
        "truncated": bool(omitted),
        "unverifiable": [u.to_dict(lang) for u in notes],
        "unverifiable_count": len(rep.unverifiable) if rep else 0,
        "unverifiable_omitted": notes_omitted,
        "scorings": [_scoring_dict(s) for s in rep.scorings] if rep else [],
        "result": dict(rep.result) if rep else {},
        "winners": list(rep.winners) if rep else [],
    }


def document(
    games: list[CheckedGame], lang: str = "en", max_violations: int = DEFAULT_MAX_VIOLATIONS
) -> dict[str, Any]:
    return {
        "valid": all(g.valid for g in games),
        "games": [game_dict(g, lang, max_violations) for g in games],
    }


def render_json(
    games: list[CheckedGame], lang: str = "en", max_violations: int = DEFAULT_MAX_VIOLATIONS
) -> str:
    import json  # here only: the text report (a one-game check) does without it

    return json.dumps(document(games, lang, max_violations), ensure_ascii=False, indent=2)


def render_yaml(
    games: list[CheckedGame], lang: str = "en", max_violations: int = DEFAULT_MAX_VIOLATIONS
) -> str:
    import yaml  # here only: the text report (a one-game check) does not load PyYAML

    return yaml.safe_dump(
        document(games, lang, max_violations), allow_unicode=True, sort_keys=False
    )


_RENDER_SCORING: list[Any] = []  # referee.scoring's render_scoring_text, imported on first use


def _scoring_text(result: Any, lang: str) -> str:
    if not _RENDER_SCORING:
        try:
            from referee.scoring import render_scoring_text
        except ImportError:
            return str(result)
        _RENDER_SCORING.append(render_scoring_text)
    try:
        return str(_RENDER_SCORING[0](result, lang))
    except MemoryError:  # no report rather than one without its breakdown
        raise
    except Exception:  # the breakdown is extra; never let it hide the verdict
        return str(result)


def render_text(
    games: list[CheckedGame],
    lang: str = "en",
    scorings: bool = True,
    max_violations: int = DEFAULT_MAX_VIOLATIONS,
) -> str:
    out: list[str] = []
    for g in games:
        who = ", ".join(g.players)
        head = f"{g.source}:{g.start_line}: {who}" if who else f"{g.source}:{g.start_line}"
        if g.errors:
            out.append(f"{head}: {_t('syntax', lang)}")
            for e in g.errors:
                out.append(f"  {g.source}:{e.pos.line}:{e.pos.column}: {e.code}: {e.message}")
                if e.excerpt:
                    out.extend("    " + line for line in e.excerpt.splitlines())
            continue
        rep = g.report
        assert rep is not None
        errors = [v for v in rep.violations if v.severity == "error"]
        verdict = _t("ok", lang) if rep.valid else violations_text(len(errors), lang)
        out.append(f"{head}: {verdict}")
        shown, omitted = capped(list(rep.violations), max_violations)
        for v in shown:
            r = v.rule
            when = _t("turn", lang, n=v.turn) if v.turn is not None else _t("setup", lang)
            if v.turn is None and v.player is None:
                when = ""
            who_v = f" {v.player}" if v.player else ""
            sev = f" ({_t('warning', lang)})" if v.severity == "warning" else ""
            where = f" {when}" if when else ""
            out.append(f"  {v.location()}{where}{who_v}: {v.code} {r.name(lang)}{sev} [{v.cite()}]")
            out.append(f"      {v.message(lang)}")
        if omitted:
            out.append(f"  {omitted_text(omitted, max_violations, lang)}")
        notes, notes_omitted = capped(list(rep.unverifiable), max_violations)
        for u in notes:
            out.append(
                f"  {u.source}:{u.line}:{u.column}: {_t('unverifiable', lang)}: {u.message(lang)}"
            )
        if notes_omitted:
            out.append(f"  {_tn('notes_omitted', notes_omitted, lang, cap=max_violations)}")
        if scorings:
            for s in rep.scorings:
                text = _scoring_text(s, lang).rstrip()
                out.extend(map("  ".__add__, text.splitlines()))
        if rep.result:
            res = ", ".join(f"{k} {v}" for k, v in rep.result.items())
            line = f"  {_t('result', lang)}: {res}"
            if rep.winners:
                line += f"; {_t('winners', lang)}: {', '.join(rep.winners)}"
            elif not rep.complete:
                line += f" ({_t('incomplete', lang)})"
            out.append(line)
    n_valid = sum(1 for g in games if g.valid)
    n_broken = sum(1 for g in games if g.errors)
    out.append(
        _t(
            "summary",
            lang,
            games=len(games),
            valid=n_valid,
            invalid=len(games) - n_valid - n_broken,
            broken=n_broken,
        )
    )
    # record text (names, values, comments) is shown, never obeyed by the terminal; each line
    # of a finding is bounded (a header of thousands of names is not printed whole)
    text = "\n".join(out)
    if (
        _plain_lines(text)
        and text.count("\n") == len(out) - 1  # no line holds a line break of its own
        and (len(text) <= BOUND or max(map(len, out)) <= BOUND)
    ):
        return text + "\n"  # every line as one_line and bounded give it back (checked at once)
    return "\n".join(bounded(one_line(text), lang=lang) for text in out) + "\n"


# Lines that :func:`one_line` gives back as they are (safe_text's plain Latin text), joined by
# line breaks: the common report is checked in one match instead of line by line. Compiled on
# first use (its Latin class costs 1.5 M instructions): an ASCII report never asks it.
_PLAIN_LINES = lazy_pattern(PLAIN_TEXT.replace("]*", "\n]*"))
# its ASCII characters: the printable ones (" " to "~") and the line break
_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\n"


def _plain_lines(text: str) -> bool:
    """Whether :data:`_PLAIN_LINES` matches the whole of ``text``. An ASCII text (the common
    report) is plain when deleting its plain bytes leaves none: one pass in C at about a third
    of the pattern's instructions (tests/test_check_report_fast.py holds the two equal)."""
    if text.isascii():
        return not text.encode("ascii").translate(None, _PLAIN_ASCII)
    return _PLAIN_LINES.fullmatch(text) is not None
