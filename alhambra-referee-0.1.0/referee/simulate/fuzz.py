"""Fuzz inputs for ``parse``, ``fmt`` and ``check``, and the checks one input must pass.

Used by ``tests/test_fuzz.py`` (a bounded run) and ``bench/fuzz.py`` (the long, multi-process
run). Inputs: random text, token soup from the grammar's own terminals, short mutated fragments
of records (a few lines, or the first lines of a game: headers, setup, the first turns), whole
mutated records as a share, and byte-level damage (bad UTF-8, UTF-16, BOMs). Every input must
pass, in-process (:func:`run_one`):

- no uncaught exception, no traceback and no ``INTERNAL`` error in the output of the three
  command paths (``parse``: the streaming reader; ``fmt``: the whole-text reader and the
  formatter; ``check``: the batch checker's per-game function with its text report);
- no input over the time limit (CPU seconds, :data:`TIME_LIMIT`), and no ``MemoryError``
  (the long run also limits each worker's address space);
- ``fmt`` is a fixed point that says the same thing: when every game reads, ``fmt(x)`` reads
  without error, to the same records, and ``fmt(fmt(x)) == fmt(x)``.

Each input is made from its own seed (``seed``, ``index``), so any input can be made again from
its number alone (the long run saves failing inputs and can resume at any index).
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

TIME_LIMIT = 2.0  # CPU seconds per input (parse + fmt + check together)

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
    '0,0|5 , 6|100,-100|99,-99|{ok}|{a b}|{}|#c|# |"Anna Lena"|"x\\"y"|""'
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


def _huge_number(rng: random.Random) -> str:
    return rng.choice("123456789") + "".join(
        rng.choice("0123456789") for _ in range(rng.choice((7, 12, 5000)) - 1)
    )


def mutate_record(rng: random.Random, text: str, edits: int = 3) -> str:
    """A record with a few random edits: characters, tokens, whole lines, numbers, comments."""
    lines = text.split("\n")
    samples = terminal_samples()
    names = sorted(samples)
    for _ in range(rng.randrange(1, edits + 1)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(13)
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
        elif op == 7:
            lines[i] = re.sub(
                r"\d+",
                lambda m: str(int(m[0][:9]) + rng.choice((-1, 1, 7, 30))),
                line,
            )
        elif op == 8:  # a huge number somewhere (claims, counts, turn numbers, coordinates)
            lines[i] = re.sub(r"\d+", lambda m: _huge_number(rng), line, count=1)
        elif op == 9:  # an x/y slip: a coordinate far away or swapped
            lines[i] = re.sub(
                r"@(-?\d+),(-?\d+)",
                lambda m: rng.choice(
                    (f"@{m[2]},{m[1]}", f"@{int(m[1]) + 5},{m[2]}", f"@{m[1]},-{m[2]}9")
                ),
                line,
            )
        elif op == 10:  # a comment or annotation line, or a blank line
            lines.insert(i, rng.choice(("", "# note", "{aside}", "  ", "# x # y")))
        elif op == 11:  # a header line among the body (a new game starts there)
            lines.insert(i, rng.choice(('[Event "x"]', '[Notation "1"]', '[Notation "7"]')))
        else:  # a long line, or control characters
            lines[i] = line + rng.choice((" " + "x" * rng.choice((300, 20000)), "\x00", "\x1b[1m"))
    return "\n".join(lines)


@lru_cache(maxsize=256)
def _lines_of(text: str) -> tuple[str, ...]:
    return tuple(text.split("\n"))


def fragment(rng: random.Random, text: str) -> str:
    """A few lines of a record (a window, or its first lines), mutated: short, fast inputs."""
    lines = _lines_of(text)
    if rng.random() < 0.3:
        # the start of a game: headers, setup and the first turns reach deep into the engine
        cut = rng.randrange(1, min(len(lines), 30) + 1)
        part = list(lines[:cut])
    else:
        size = rng.randrange(1, 7)
        start = rng.randrange(max(1, len(lines) - size))
        part = list(lines[start : start + size])
        if rng.random() < 0.5:
            heads = [ln for ln in lines[:12] if ln.startswith("[")]
            part = [*heads, "", *part]
    return mutate_record(rng, "\n".join(part), 3)


def several_games(rng: random.Random, records: list[str]) -> str:
    """Two or three mutated fragments in one file (games after the first, comments between)."""
    parts = [fragment(rng, rng.choice(records)) for _ in range(rng.randrange(2, 4))]
    seps = ("\n", "\n\n", "\n# between\n", "\n\n# lead\n\n", "\n{aside}\n")
    return "".join(p + rng.choice(seps) for p in parts)


def damaged_bytes(rng: random.Random, text: str) -> bytes:
    """A short record with its bytes damaged: bad UTF-8, UTF-16 with or without BOM, BOMs."""
    piece = fragment(rng, text)
    op = rng.randrange(6)
    if op == 0:
        return piece.encode("utf-16")
    if op == 1:
        return piece.encode(rng.choice(("utf-16-le", "utf-16-be")))
    if op == 2:
        return b"\xef\xbb\xbf" + piece.encode("utf-8", "surrogatepass")
    if op == 3:
        return piece.encode("latin-1", "replace")
    data = bytearray(piece.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randrange(1, 4)):
        if data:
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


# ----------------------------------------------------------------------------- one input


class OverTime(Exception):
    """Raised inside an input's run when it used up its time."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`OverTime` after ``seconds`` of CPU time (main thread, POSIX; else none)."""
    if seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def _expired(signum: int, frame: object) -> None:
        raise OverTime(f"over the time limit of {seconds} s")

    try:
        old = signal.signal(signal.SIGPROF, _expired)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


@dataclass
class Outcome:
    """What one input did: an outcome class per command, and any failure.

    ``codes``: the exit code each command would give (``parse``/``fmt``: 0 read and
    formatted, 2 syntax errors or unreadable; ``check``: 0 valid, 1 violations, 2 syntax or
    unreadable). ``failure`` is None, or one of ``traceback``, ``over-time``, ``memory``,
    ``fmt-not-fixed``, ``fmt-changes-meaning``, ``internal`` with ``detail``.
    """

    codes: dict[str, int] = field(default_factory=dict)
    failure: str | None = None
    detail: str = ""
    seconds: float = 0.0

    @property
    def crash(self) -> str | None:  # the old name, kept for callers
        return f"{self.failure}: {self.detail}" if self.failure else None


def _as_bytes(data: str | bytes) -> bytes:
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")


def _parse_path(data: bytes) -> int:
    """``parse``: the streaming reader (``iter_games`` over bytes)."""
    from referee.notation import iter_games
    from referee.notation.files import UnreadableInput, error_line

    code = 0
    try:
        for g in iter_games(io.BytesIO(data), source="fuzz.alh"):
            for e in g.errors:
                error_line("fuzz.alh", e)
                code = 2
    except UnreadableInput as exc:
        exc.message("de")
        return 2
    return code


def _fmt_path(data: bytes) -> tuple[int, str | None, str]:
    """``fmt``: exit code, and a fixed-point failure (kind, detail) when there is one."""
    from referee.notation import format_games, parse_text
    from referee.notation.files import UnreadableInput, decode_text

    try:
        text = decode_text(data)
    except UnreadableInput:
        return 2, None, ""
    games = parse_text(text, "fuzz.alh")
    if any(g.errors for g in games):
        return 2, None, ""
    once = format_games(games)
    again = parse_text(once, "fuzz.alh")
    if any(g.errors for g in again):
        errs = [f"{e.pos}: {e.message}" for g in again for e in g.errors]
        return 0, "fmt-not-fixed", f"fmt output does not read: {errs[:3]}\n{once}"
    if again != games:
        return 0, "fmt-changes-meaning", f"fmt output reads to other records:\n{once}"
    twice = format_games(again)
    if twice != once:
        return 0, "fmt-not-fixed", f"fmt(fmt(x)) != fmt(x):\n--- once\n{once}--- twice\n{twice}"
    return 0, None, ""


def _check_path(data: bytes, lang: str) -> tuple[int, str]:
    """``check``: the batch checker's per-game function on each game, with its text report."""
    from referee.commands.check import _check_job_inner, _Job, _Options
    from referee.notation.files import UnreadableInput, byte_lines
    from referee.notation.parser import split_games

    opts = _Options(None, False, "text", lang, True)
    jobs: list[_Job] = []
    try:
        for start, chunk in split_games(byte_lines(io.BytesIO(data))):
            jobs.append(_Job("fuzz.alh", start, chunk))
    except UnreadableInput as exc:
        jobs.append(_Job("fuzz.alh", 1, None, f"cannot read the file: {exc}"))
    if not jobs:
        return 0, ""
    code = 0
    texts: list[str] = []
    for job in jobs:
        done = _check_job_inner(job, opts)
        texts.append(done.text)
        if done.broken:
            code = 2
        elif not done.valid and code == 0:
            code = 1
    return code, "\n".join(texts)


@contextlib.contextmanager
def _one_parse_per_chunk() -> Iterator[None]:
    """Within one input, a game's text is parsed once and the result shared by the paths.

    ``parse``, ``fmt`` and ``check`` read the text their own way (a streaming reader, the
    whole-text reader, the batch checker's reader) but all parse each game's text with
    ``parse_game_text``, a pure function of (text, source, first line) returning immutable
    records. Sharing its result keeps every reader and every later step in the run and
    spares two of three identical parses.
    """
    import referee.notation as notation
    import referee.notation.parser as parser

    original = parser.parse_game_text
    memo: dict[tuple[str, str, int], object] = {}

    def parse_once(text: str, source: str, start_line: int) -> object:
        key = (text, source, start_line)
        if key not in memo:
            memo[key] = original(text, source, start_line)
        return memo[key]

    parser.parse_game_text = parse_once  # type: ignore[assignment]
    notation.parse_game_text = parse_once  # type: ignore[assignment]
    try:
        yield
    finally:
        parser.parse_game_text = original
        notation.parse_game_text = original


def run_one(data: str | bytes, workdir: Path | None = None, cli: bool = False) -> Outcome:
    """Feed one input to the ``parse``, ``fmt`` and ``check`` paths (in-process).

    ``cli``: also run the ``check`` and ``fmt --check`` commands through Click (slow; the tests
    use it on a few inputs, with ``workdir`` for the file).
    """
    raw = _as_bytes(data)
    out = Outcome()
    started = time.process_time()
    try:
        with time_limit(TIME_LIMIT), _one_parse_per_chunk():
            out.codes["parse"] = _parse_path(raw)
            code, kind, detail = _fmt_path(raw)
            out.codes["fmt"] = code
            if kind:
                out.failure, out.detail = kind, detail
            lang = "de" if len(raw) % 2 else "en"
            out.codes["check"], text = _check_path(raw, lang)
            if "Traceback (most recent" in text or ": INTERNAL: " in text:
                out.failure, out.detail = "internal", text[-2000:]
    except OverTime as exc:
        out.failure, out.detail = "over-time", str(exc)
    except MemoryError:
        out.failure, out.detail = "memory", "MemoryError"
    except Exception:  # the point of fuzzing: any exception is a finding
        out.failure, out.detail = "traceback", traceback.format_exc()
    out.seconds = time.process_time() - started
    if out.failure is None and out.seconds > TIME_LIMIT:
        out.failure, out.detail = "over-time", f"{out.seconds:.2f} s of CPU time"
    if cli and out.failure is None and workdir is not None:
        path = workdir / "fuzz.alh"
        path.write_bytes(raw)
        for name, args in (
            ("cli-check", ["check", "--no-scoring", str(path)]),
            ("cli-fmt", ["fmt", "--check", str(path)]),
        ):
            code, output = _cli(args)
            out.codes[name] = code
            if "Traceback" in output or code not in (0, 1, 2):
                out.failure, out.detail = "traceback", f"{name}: exit {code}\n{output}"
                break
    return out


def _cli(args: list[str]) -> tuple[int, str]:
    from referee.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        except Exception:
            return 99, traceback.format_exc()
    return code, out.getvalue() + err.getvalue()


# ---------------------------------------------------------------------------- the mix

Generator = Callable[[random.Random], str | bytes]

# kind -> share of the inputs (per 1000); mostly short inputs, whole records as a share
MIX: dict[str, int] = {
    "random-text": 250,
    "token-soup": 200,
    "fragment": 440,
    "several-games": 80,
    "bytes": 20,
    "mutated-record": 10,
}


def generators(records: list[str]) -> dict[str, Generator]:
    """The input kinds; fragments and mutated records start from ``records``."""
    return {
        "random-text": lambda rng: random_text(rng, 120),
        "token-soup": lambda rng: token_soup(rng, 30),
        "fragment": lambda rng: fragment(rng, rng.choice(records)),
        "several-games": lambda rng: several_games(rng, records),
        "bytes": lambda rng: damaged_bytes(rng, rng.choice(records)),
        "mutated-record": lambda rng: mutate_record(rng, rng.choice(records), 4),
    }


def _schedule(mix: dict[str, int] | None = None) -> list[str]:
    return [kind for kind, share in (mix or MIX).items() for _ in range(share)]


def make_input(
    records: list[str],
    seed: int,
    index: int,
    gens: dict[str, Generator] | None = None,
    mix: dict[str, int] | None = None,
) -> tuple[str, str | bytes]:
    """Input number ``index`` of the run ``seed``: its kind and its text (reproducible)."""
    rng = random.Random(f"{seed}-{index}")
    kinds = _schedule(mix)
    kind = kinds[rng.randrange(len(kinds))]
    gens = gens or generators(records)
    return kind, gens[kind](rng)


# ------------------------------------------------------------------ the module fuzzer (issue 32)

# the module fuzzer's mix: whole module records with module-aware edits, most of all
MODULE_MIX: dict[str, int] = {
    "module-edit": 450,
    "mutated-record": 250,
    "module-header": 150,
    "fragment": 100,
    "several-games": 30,
    "bytes": 20,
}

_COMPONENT = re.compile(r"\b[a-z]{2}:[A-Za-z0-9_]+")


def module_records() -> list[str]:
    """The seeds of the module fuzzer: every module example (``examples/module-*.alh``)."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    return [p.read_text(encoding="utf-8") for p in sorted(examples.glob("module-*.alh"))]


@lru_cache(maxsize=8)
def _module_tokens(records: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({m[0] for text in records for m in _COMPONENT.finditer(text)}))


@lru_cache(maxsize=8)
def _module_lines(records: tuple[str, ...]) -> tuple[str, ...]:
    """Lines of the records that belong to a module (a component token or a module verb)."""
    return tuple(
        sorted({ln for text in records for ln in text.split("\n") if _COMPONENT.search(ln)})
    )


def module_edit(rng: random.Random, text: str, records: tuple[str, ...], edits: int = 3) -> str:
    """A module record with module-aware edits: a component token replaced by another module's
    (or one of its own kind with another name), a module line moved, doubled, dropped, or taken
    from another module's game, a component token's case changed."""
    lines = text.split("\n")
    tokens = _module_tokens(records)
    others = _module_lines(records)
    for _ in range(rng.randrange(1, edits + 1)):
        i = rng.randrange(len(lines))
        line = lines[i]
        op = rng.randrange(6)
        found = list(_COMPONENT.finditer(line))
        if op == 0 and found and tokens:
            m = rng.choice(found)
            lines[i] = line[: m.start()] + rng.choice(tokens) + line[m.end() :]
        elif op == 1 and found:
            m = rng.choice(found)
            same = [t for t in tokens if t[:3] == m[0][:3]] or list(tokens)
            lines[i] = line[: m.start()] + rng.choice(same) + line[m.end() :]
        elif op == 2 and others:
            lines.insert(i, rng.choice(others))
        elif op == 3 and found:
            j = rng.randrange(len(lines))
            lines.insert(j, lines.pop(i))
        elif op == 4 and found:
            lines.insert(i, line)
        elif found:
            m = rng.choice(found)
            lines[i] = line[: m.start()] + m[0].swapcase() + line[m.end() :]
        else:
            del lines[i]
        if not lines:
            lines = [""]
    return "\n".join(lines)


def module_header(rng: random.Random, text: str) -> str:
    """A module record whose ``Modules`` header is changed: a module dropped, added, misspelt,
    given an unknown, a contradictory or a valid option, or the header removed."""
    from referee.simulate.combinations import module_names

    names = module_names()
    m = re.search(r'\[Modules "([^"]*)"\]', text)
    if m is None:
        return text
    mods = [x.strip() for x in m[1].split(",") if x.strip()]
    op = rng.randrange(7)
    if op == 0 and mods:
        mods.pop(rng.randrange(len(mods)))
    elif op == 1:
        mods.append(rng.choice(names))
    elif op == 2 and mods:
        k = rng.randrange(len(mods))
        word = mods[k]
        j = rng.randrange(len(word))
        mods[k] = word[:j] + rng.choice("aeiourstx") + word[j + 1 :]
    elif op == 3 and mods:
        k = rng.randrange(len(mods))
        mods[k] += rng.choice((" floor=zero floor=none", " x=y", " task5=line", " variant=open"))
    elif op == 4 and mods:
        mods.append(rng.choice(mods) + rng.choice((" floor=none", "", " variant=open")))
    elif op == 5:
        return text.replace(m[0], "", 1)
    else:
        mods = rng.sample(names, rng.randint(1, 4))
    return text.replace(m[0], f'[Modules "{", ".join(mods)}"]', 1)


def module_generators(records: list[str]) -> dict[str, Generator]:
    """The module fuzzer's input kinds (:data:`MODULE_MIX`), from the module examples."""
    seeds = tuple(records)
    base = generators(records)
    return {
        **base,
        "module-edit": lambda rng: module_edit(rng, rng.choice(records), seeds),
        "module-header": lambda rng: module_header(rng, rng.choice(records)),
        "mutated-record": lambda rng: mutate_record(rng, rng.choice(records), 3),
    }


def seed_records(seed: int = 0, count: int = 10) -> list[str]:
    """Records to mutate: simulated games (2-6 players, some with modules) and the examples."""
    from referee.simulate import simulate_text

    out = []
    modules = ((), (), ("plaetze",), ("wechselstuben",), ("bonuskarten", "wesir"))
    for i in range(count):
        try:
            out.append(simulate_text(2 + i % 5, 10_000 + seed * 100 + i, modules=modules[i % 5]))
        except Exception:  # a module the simulator cannot play: a base game instead
            out.append(simulate_text(2 + i % 5, 10_000 + seed * 100 + i))
    examples = Path(__file__).resolve().parents[2] / "examples"
    if examples.is_dir():
        out += [p.read_text(encoding="utf-8") for p in sorted(examples.glob("*.alh"))]
    return out
