"""Fuzz inputs for the parser, ``fmt`` and ``check``: random text, token soup, mutated records.

Used by ``tests/test_fuzz.py`` (a bounded run) and ``bench/fuzz.py`` (a long run). Whatever the
input, only the project's own error reporting may come out: no uncaught exception, no
traceback, and the exit codes 0, 1 or 2.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ALPHABET = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    " \t\n\n\n\r[]\"'{}()#*@,.:;=+-?/\\_~ äöüßÄÖÜéÅ→€\u00a0\u200b\ufeff\x00\x1b"
)

# Words for the grammar's regular-expression terminals: each is offered to every terminal whose
# pattern accepts it.
_CANDIDATE_TEXT = (
    "Gu3|Di9|De1|Du5|Gulden3|florin9|dirham2|Denar7|dinar1|ducat5|Dukaten4|gu0|Di10|W1|W2|W3|"
    "score1|Wertung2|T13|G10n|G10-|G10|T9ne|A6sw|P2|S8|C11|tower13|Turm13|garden10N|Garten10n|"
    "Pavillon2|X9|Gu|Di|De|Du|1|2|3|4|5|dinar|ex:GuDe|sq:T|bonus:T9|a:b|Anna|Ben|Cem|Dana|Emil|"
    "Fritz|dirk|none|youngest|x|y-z|O'Neil|0|7|12|999|99999999999999999999|1.|12.|0.|1,2|-3,-4|"
    '0,0|5 , 6|100,-100|{ok}|{a b}|{}|#c|# |"Anna Lena"|"x\\"y"|""'
)
_CANDIDATES = tuple(_CANDIDATE_TEXT.split("|"))


@cache
def terminal_samples() -> dict[str, list[str]]:
    """For each terminal of the grammar: strings it matches (from its literal or the pool)."""
    from referee.notation.parser import _parser

    lark = _parser()[0]
    out: dict[str, list[str]] = {}
    for term in lark.terminals:
        pat = term.pattern
        if pat.type == "str":
            out[term.name] = [pat.value]
            continue
        flags = 0
        for f in pat.flags:
            flags |= {"i": re.I, "m": re.M, "s": re.S, "u": re.U, "x": re.X}.get(f, 0)
        rx = re.compile(pat.to_regexp(), flags)
        found = [w for w in _CANDIDATES if w and rx.fullmatch(w)]
        if term.name.startswith("_NL"):
            found = ["\n", "\n\n", "\r\n"]
        if found:
            out[term.name] = found
    return out


def random_text(rng: random.Random, size: int = 200) -> str:
    """Characters at random (brackets, quotes, digits, umlauts, control characters)."""
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(size + 1)))


def token_soup(rng: random.Random, tokens: int = 60) -> str:
    """The grammar's own terminals in random order, with spaces and line breaks between them."""
    samples = terminal_samples()
    names = sorted(samples)
    parts: list[str] = []
    if rng.random() < 0.5:
        parts.append('[Players "Anna, Ben, Cem"]\n\n')
    for _ in range(rng.randrange(1, tokens + 1)):
        parts.append(rng.choice(samples[rng.choice(names)]))
        parts.append(rng.choice((" ", " ", " ", "", "\n", ", ")))
    return "".join(parts)


def mutate_record(rng: random.Random, text: str, edits: int = 3) -> str:
    """A record with a few random edits: characters, tokens, whole lines."""
    lines = text.split("\n")
    samples = terminal_samples()
    names = sorted(samples)
    for _ in range(rng.randrange(1, edits + 1)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(8)
        line = lines[i]
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, line)
        elif op == 2 and len(lines) > 1:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and line:
            k = rng.randrange(len(line))
            lines[i] = line[:k] + rng.choice(ALPHABET) + line[k + 1 :]
        elif op == 4:
            k = rng.randrange(len(line) + 1)
            tok = rng.choice(samples[rng.choice(names)])
            lines[i] = line[:k] + tok + line[k:]
        elif op == 5 and line:
            k = rng.randrange(len(line))
            lines[i] = line[:k] + line[k + rng.randrange(1, 12) :]
        elif op == 6:
            words = line.split(" ")
            if len(words) > 1:
                a, b = rng.sample(range(len(words)), 2)
                words[a], words[b] = words[b], words[a]
                lines[i] = " ".join(words)
        else:
            lines[i] = re.sub(r"\d+", lambda m: str(int(m.group()) + rng.choice((-1, 1, 7))), line)
    return "\n".join(lines)


@dataclass
class Outcome:
    """What one input did: the exit codes of the commands, and any crash (with its trace)."""

    codes: dict[str, int]
    crash: str | None = None


def _cli(args: list[str]) -> tuple[int, str]:
    from referee.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue() + err.getvalue()


def run_one(text: str, workdir: Path, cli: bool = True) -> Outcome:
    """Feed ``text`` to the parser, the formatter and the checker, and (``cli``) to the
    ``check`` and ``fmt --check`` commands. Returns their exit codes and any crash."""
    from referee.engine import check_game
    from referee.notation import format_game, parse_text

    codes: dict[str, int] = {}
    try:
        games = parse_text(text, "fuzz.alh")
        for g in games:
            if g.errors:
                continue
            canonical = format_game(g)
            again = parse_text(canonical, "fuzz.alh")
            if any(x.errors for x in again):
                return Outcome(codes, f"fmt output does not parse:\n{canonical}")
            check_game(g)
    except Exception:  # the point of fuzzing: any exception is a finding
        return Outcome(codes, traceback.format_exc())
    if cli:
        path = workdir / "fuzz.alh"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        for name, args in (
            ("check", ["check", "--no-scoring", str(path)]),
            ("fmt", ["fmt", "--check", str(path)]),
        ):
            try:
                code, output = _cli(args)
            except Exception:
                return Outcome(codes, traceback.format_exc())
            codes[name] = code
            if "Traceback" in output or code not in (0, 1, 2):
                return Outcome(codes, f"{name}: exit {code}\n{output}")
    return Outcome(codes)


Generator = Callable[[random.Random], str]


def generators(records: list[str]) -> dict[str, Generator]:
    """The three input kinds; mutated records start from ``records`` (simulated games)."""
    return {
        "random-text": lambda rng: random_text(rng, 300),
        "token-soup": lambda rng: token_soup(rng, 80),
        "mutated-record": lambda rng: mutate_record(rng, rng.choice(records), 4),
    }
