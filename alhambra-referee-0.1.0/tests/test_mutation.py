"""Mutation testing: corrupt simulated records one edit at a time and require the referee to see it.

Each mutant differs from a legal, self-checking simulated game (every card and tile revealed,
claimed totals at every scoring, the Result header) by one edit of one kind:

* ``paid-currency``  a paid card's currency changed (the field fixes the currency: "in der
  Währung, die der Bauhof für das gewählte Plättchen anzeigt", Kaufen)
* ``paid-value``     a paid card's value changed (the hand, and the exact/overpaid amount)
* ``card-value``     the value of a revealed money card changed (deal or display: the money a
  player can later pay with)
* ``coordinate``     a placement's or a build's coordinate changed (far away, or the fountain)
* ``coordinate-near`` a placement's or a build's coordinate moved to a neighbouring cell
* ``swap-revealed``  two different cards revealed on two different lines exchanged
* ``drop-refill``    a refill line after a turn deleted
* ``duplicate``      an action of a turn written twice
* ``place-early``    a placement moved before the turn's redesign (or its last main action)

The test counts how many mutants get a rule violation or a syntax error, and where: the text
before the edit is unchanged and legal, so a finding can only be reported at or after the first
edited line; it must be reported there or later, never before. The detection rate over a few
hundred mutants must be at least 99 %.

Undetectable by nature (excluded, with the reason; each exclusion is decided from the legal
original, never from the referee's verdict on the mutant):

* ``swap-revealed`` of two copies of the same card: the text does not change.
* ``coordinate-near`` moved to a neighbouring cell that is legal at that moment (no
  ``placement_problems`` in the original's state): possibly another legal game (when the later
  placements still fit and the Alhambra scores the same). These are not generated; a move to
  a neighbouring cell that breaks a building rule is. ``coordinate`` moves far away (or onto
  the fountain), which is never legal.
* ``card-value`` / ``swap-revealed`` of a card that nobody ever takes or pays afterwards (it
  lies in the display until the end): the game is the same legal game with another card in
  the final display, unless the number of copies gives it away. Those mutants are not generated:
  only cards that are taken later are changed.
* ``swap-revealed`` where nobody misses the card revealed first before the second one turns
  up: it was not taken in between, or only while another copy of it lay in the display too.
  From the second reveal on the display is the same, and in between every take still finds its
  cards, so the exchange only tells another legal order of the deck (found by the first
  versions of this test: ``* display Gu5`` ... ``* display De4`` with both cards lying in the
  display until long after; ``Gu4`` taken while a second ``Gu4`` lay there). Not generated.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from shared_store_support import simulated_text

from referee.engine import check_game
from referee.notation import parse_text

CARD = re.compile(r"\b(Gu|Di|De|Du)([1-9])\b")
COORD = re.compile(r"@(-?\d+),(-?\d+)")
TURN = re.compile(r"^(\d+)\. (\S+): (.*)$")
CURRENCIES = ("Gu", "Di", "De", "Du")


@dataclass(frozen=True)
class Mutant:
    kind: str
    lines: tuple[str, ...]
    first_line: int  # 1-based: the first line that differs from the original
    what: str


Mutator = Callable[[list[str], random.Random], Iterator[Mutant]]


def _with(lines: list[str], i: int, new: str) -> tuple[str, ...]:
    out = list(lines)
    out[i] = new
    return tuple(out)


def _turns(lines: list[str]) -> Iterator[tuple[int, str, str, list[str]]]:
    for i, line in enumerate(lines):
        m = TURN.match(line)
        if m:
            yield i, m.group(1), m.group(2), m.group(3).split(", ")


def _turn_line(number: str, player: str, actions: list[str]) -> str:
    return f"{number}. {player}: " + ", ".join(actions)


def paid_currency(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, num, who, acts in _turns(lines):
        for k, act in enumerate(acts):
            if not act.startswith("buy "):
                continue
            head, pay = act.split(" pay ")
            cards = pay.split()
            j = rng.randrange(len(cards))
            cur, val = cards[j][:2], cards[j][2:]
            other = rng.choice([c for c in CURRENCIES if c != cur])
            cards[j] = other + val
            new = [*acts[:k], f"{head} pay {' '.join(cards)}", *acts[k + 1 :]]
            yield Mutant("paid-currency", _with(lines, i, _turn_line(num, who, new)), i + 1, act)


def paid_value(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, num, who, acts in _turns(lines):
        for k, act in enumerate(acts):
            if not act.startswith("buy "):
                continue
            head, pay = act.split(" pay ")
            cards = pay.split()
            j = rng.randrange(len(cards))
            cur, val = cards[j][:2], int(cards[j][2:])
            new_val = rng.choice([v for v in range(1, 10) if v != val])
            cards[j] = f"{cur}{new_val}"
            new = [*acts[:k], f"{head} pay {' '.join(cards)}", *acts[k + 1 :]]
            yield Mutant("paid-value", _with(lines, i, _turn_line(num, who, new)), i + 1, act)


def _later_used(lines: list[str], start: int, card: str) -> bool:
    """Whether ``card`` is taken or paid on a turn line after line index ``start``."""
    pattern = re.compile(rf"\b{card}\b")
    return any(TURN.match(line) and pattern.search(line) for line in lines[start + 1 :])


def _display_before(lines: list[str]) -> list[Counter[str]]:
    """The money display (card codes) before each line of a record that reveals everything."""
    shown: Counter[str] = Counter()
    out: list[Counter[str]] = []
    for line in lines:
        out.append(shown.copy())
        if line.startswith("* "):
            for event in line[2:].split(", "):
                if event.startswith("display "):
                    shown.update(w for w in event.split()[1:] if CARD.fullmatch(w))
        m = TURN.match(line)
        if m:
            for act in m.group(3).split(", "):
                if act.startswith("take "):
                    shown.subtract(act.split()[1:])
    return out


def _missed_between(lines: list[str], i: int, j: int, card: str) -> bool:
    """Whether, without the copy of ``card`` revealed on line index ``i``, a take between the
    lines ``i`` and ``j`` would lack it (no other copy of it in the display then)."""
    before = _display_before(lines)
    for t in range(i + 1, j):
        m = TURN.match(lines[t])
        if not m:
            continue
        for act in m.group(3).split(", "):
            if act.startswith("take ") and before[t][card] - 1 < act.split()[1:].count(card):
                return True
    return False


def card_value(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, line in enumerate(lines):
        if not line.startswith("* ") or not ("display " in line or "deal " in line):
            continue
        matches = [m for m in CARD.finditer(line) if _later_used(lines, i, m.group(0))]
        if not matches:
            continue
        m = rng.choice(matches)
        new_val = rng.choice([v for v in range(1, 10) if v != int(m.group(2))])
        new = line[: m.start()] + f"{m.group(1)}{new_val}" + line[m.end() :]
        yield Mutant("card-value", _with(lines, i, new), i + 1, m.group(0))


def coordinate(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, num, who, acts in _turns(lines):
        for k, act in enumerate(acts):
            if not (act.startswith("place ") or act.startswith("build ")):
                continue
            m = COORD.search(act)
            assert m is not None
            x, y = int(m.group(1)), int(m.group(2))
            # a cell that is never legal: far from the Alhambra, or the fountain itself
            x2, y2 = rng.choice([(x + 9, y), (x, y - 9), (0, 0)])
            new_act = act[: m.start()] + f"@{x2},{y2}" + act[m.end() :]
            new = [*acts[:k], new_act, *acts[k + 1 :]]
            yield Mutant("coordinate", _with(lines, i, _turn_line(num, who, new)), i + 1, act)


def _legal_now(lines: list[str], i: int, k: int, at: tuple[int, int]) -> bool:
    """Whether the tile of action ``k`` of turn line ``i`` could legally go to ``at`` (the
    state of the legal original just before that action)."""
    from referee.engine import apply_action, replay
    from referee.geometry import placement_problems
    from referee.record.model import Coord

    game = parse_text("\n".join(lines) + "\n", "orig.alh")[0]
    turn = next(item for item in game.body if item.pos.line == i + 1)
    state, _ = replay(game, until_line=i)
    for act in turn.actions[:k]:  # type: ignore[union-attr]
        apply_action(state, act)
    player = state.players[state.turn.player if state.turn else state.next_player or 0]
    tile = turn.actions[k].tile.kind  # type: ignore[union-attr]
    return not placement_problems(player.alhambra, Coord(*at), tile)


def coordinate_near(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, num, who, acts in _turns(lines):
        for k, act in enumerate(acts):
            if not (act.startswith("place ") or act.startswith("build ")) or rng.random() > 0.3:
                continue
            m = COORD.search(act)
            assert m is not None
            x, y = int(m.group(1)), int(m.group(2))
            dx, dy = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1)])
            if _legal_now(lines, i, k, (x + dx, y + dy)):
                continue  # another legal cell: possibly another legal game (see the docstring)
            new_act = act[: m.start()] + f"@{x + dx},{y + dy}" + act[m.end() :]
            new = [*acts[:k], new_act, *acts[k + 1 :]]
            yield Mutant("coordinate-near", _with(lines, i, _turn_line(num, who, new)), i + 1, act)


def swap_revealed(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    reveals = [
        (i, m)
        for i, line in enumerate(lines)
        if line.startswith("* ") and "display " in line
        for m in CARD.finditer(line)
    ]
    for _ in range(len(reveals) // 3):
        (i, a), (j, b) = rng.sample(reveals, 2)
        if i == j or a.group(0) == b.group(0):
            continue  # the same line, or two copies of one card: not a change of the game
        if i > j:
            (i, a), (j, b) = (j, b), (i, a)
        if not _later_used(lines, i, a.group(0)):
            continue  # never used again: another legal game (see the module docstring)
        if not _missed_between(lines, i, j, a.group(0)):
            continue  # nobody misses it before the other turns up: another legal game
        out = list(lines)
        out[i] = lines[i][: a.start()] + b.group(0) + lines[i][a.end() :]
        out[j] = lines[j][: b.start()] + a.group(0) + lines[j][b.end() :]
        yield Mutant("swap-revealed", tuple(out), i + 1, f"{a.group(0)}<->{b.group(0)}")


def drop_refill(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, line in enumerate(lines):
        if line.startswith("* ") and i > 0 and TURN.match(lines[i - 1]):
            out = list(lines)
            del out[i]
            yield Mutant("drop-refill", tuple(out), i + 1, line)


def duplicate(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, num, who, acts in _turns(lines):
        k = rng.randrange(len(acts))
        new = [*acts[: k + 1], acts[k], *acts[k + 1 :]]
        yield Mutant("duplicate", _with(lines, i, _turn_line(num, who, new)), i + 1, acts[k])


MAIN = ("take ", "buy ", "build ", "remove ", "swap ")
REDESIGN = ("build ", "remove ", "swap ")


def place_early(lines: list[str], rng: random.Random) -> Iterator[Mutant]:
    for i, num, who, acts in _turns(lines):
        places = [k for k, a in enumerate(acts) if a.startswith(("place ", "reserve ", "give "))]
        mains = [k for k, a in enumerate(acts) if a.startswith(MAIN)]
        if not places or not mains:
            continue
        redesigns = [k for k in mains if acts[k].startswith(REDESIGN)]
        target = redesigns[-1] if redesigns else mains[-1]
        k = rng.choice(places)
        new = list(acts)
        moved = new.pop(k)
        new.insert(target, moved)
        kind = "place-early"
        yield Mutant(kind, _with(lines, i, _turn_line(num, who, new)), i + 1, moved)


MUTATORS: dict[str, Mutator] = {
    "paid-currency": paid_currency,
    "paid-value": paid_value,
    "card-value": card_value,
    "coordinate": coordinate,
    "coordinate-near": coordinate_near,
    "swap-revealed": swap_revealed,
    "drop-refill": drop_refill,
    "duplicate": duplicate,
    "place-early": place_early,
}


def verdict(text: str) -> tuple[bool, int | None]:
    """Whether the referee objects (syntax error or rule violation) and the first line it names."""
    games = parse_text(text, "mutant.alh")
    lines: list[int] = []
    for g in games:
        if g.errors:
            lines += [e.pos.line for e in g.errors]
            continue
        rep = check_game(g)
        end = g.body[-1].pos.line if g.body else 1
        # the Result header is compared at the end of the game: count it there
        lines += [
            end if v.code == "RESULT" else v.line for v in rep.violations if v.severity == "error"
        ]
    if len(games) != 1:
        lines.append(1)
    return bool(lines), (min(lines) if lines else None)


def _original(g: int) -> str:
    """``simulate_text(2 + g % 5, 500 + g)``: original ``g`` (0 to 9), simulated once a run
    (the mutants and the check of the originals read the same ten games)."""
    return simulated_text(2 + g % 5, 500 + g, None, None, ())


def mutants(per_kind: int, seed: int = 2026) -> list[Mutant]:
    """About ``per_kind`` mutants of each kind from simulated games of 2 to 6 players."""
    rng = random.Random(seed)
    pools: dict[str, list[Mutant]] = {k: [] for k in MUTATORS}
    for g in range(10):
        text = _original(g)
        lines = text.splitlines()
        for kind, mut in MUTATORS.items():
            pools[kind].extend(mut(lines, rng))
    out: list[Mutant] = []
    for _kind, pool in pools.items():
        out.extend(rng.sample(pool, min(per_kind, len(pool))))
    return out


@pytest.fixture(scope="module")
def outcomes() -> list[tuple[Mutant, bool, int | None]]:
    result = []
    for m in mutants(per_kind=40):
        text = "\n".join(m.lines) + "\n"
        found, line = verdict(text)
        result.append((m, found, line))
    return result


def test_a_few_hundred_mutants_of_every_kind(outcomes: list[tuple[Mutant, bool, int | None]]):
    kinds = Counter(m.kind for m, _, _ in outcomes)
    assert len(outcomes) >= 250
    assert set(kinds) == set(MUTATORS)
    assert all(n >= 15 for n in kinds.values()), kinds


def test_detection_rate_at_least_99_percent(outcomes: list[tuple[Mutant, bool, int | None]]):
    missed = [m for m, found, _ in outcomes if not found]
    rate = 1 - len(missed) / len(outcomes)
    assert rate >= 0.99, (rate, [(m.kind, m.first_line, m.what) for m in missed[:10]])


def test_findings_are_never_before_the_edit(outcomes: list[tuple[Mutant, bool, int | None]]):
    for m, found, line in outcomes:
        if found:
            assert line is not None and line >= m.first_line, (m.kind, m.first_line, line, m.what)


def test_line_local_edits_are_reported_on_their_line(
    outcomes: list[tuple[Mutant, bool, int | None]],
) -> None:
    """Edits that break the turn itself are reported on the edited line."""
    local = ("paid-currency", "coordinate", "coordinate-near", "duplicate", "place-early")
    for m, found, line in outcomes:
        if m.kind in local:
            assert found and line == m.first_line, (m.kind, m.first_line, line, m.what)


def test_the_originals_are_clean() -> None:
    for g in range(10):
        text = _original(g)
        assert verdict(text) == (False, None)
