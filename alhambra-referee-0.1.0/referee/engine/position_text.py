"""Writing a game state as a ``position`` block (``show --format record``).

The block states what the rest of the game and its scorings need: who moves next, how many
scorings are over, the market, the money display, Dirk's tiles, each player's score, hand,
reserve and Alhambra, the pieces lying beside the market (``aside``, E14) and every enabled
module's own lines (:meth:`~referee.engine.extensions.Module.position_lines`). Read back by the
engine's position reader (:mod:`referee.engine.position`), the block gives the same table and
the same module state; ``score`` of it gives the same breakdown (tested per module in
``tests/test_position_modules.py``). What no line can state (the history of the turns: the
earlier scorings' breakdowns) is left out, as for any position; the discard pile is stated
(``discard``: a reshuffle brings it back).
The text is canonical (``fmt`` leaves it unchanged).
"""

from __future__ import annotations

from referee.catalogue import Currency
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.geometry.pieces import Part
from referee.messages import Text, render
from referee.notation.formatter import action as fmt_action
from referee.notation.formatter import write_name as fmt_name
from referee.record.model import ModuleAction


def piece_code(piece: object) -> str:
    """A piece as a position names it: ``?`` unknown, a tile's short code, a module piece's
    token (``bz:DePSA``)."""
    if piece is None or piece is EMPTY:
        return "?"
    carried = getattr(piece, "carried_tile", None)
    if carried is not None:  # a piece lying on a tile is named by the tile (docs/modules.md)
        return piece_code(carried)
    code = getattr(piece, "code", None)
    return str(code) if code is not None else str(piece)


def _held(state: GameState, player: PlayerState | None) -> list[str]:
    """Module cards in ``player``'s hand (None: in the money display), by their tokens: each
    module that keeps such cards names them (``position_held``; diamonds, exchange cards,
    master builders, coins), and its ``position_component`` reads them back."""
    out: list[str] = []
    for m in state.ext.modules:
        out += [f"{ref.kind}:{ref.name}" for ref in m.position_held(state, player)]
    return out


def _cards(state: GameState, p: PlayerState) -> list[str]:
    known = sorted(p.hand.elements(), key=lambda c: c.sort_key)
    return [c.code for c in known] + _held(state, p) + ["?"] * p.hand_unknown


def position_lines(state: GameState) -> list[str]:
    """The ``position`` ... ``end`` block of ``state``, one line per item."""
    out = ["position"]
    lost = unstated(state, "en")
    if lost:  # what the block cannot state: said in the block, never dropped silently
        out.append("  # not stated in this block (it reads back without it): " + "; ".join(lost))
    if state.next_player is not None and 0 <= state.next_player < len(state.players):
        out.append(f"  next {fmt_name(state.players[state.next_player].name)}")
    if state.scorings_done:
        out.append(f"  scorings {max(state.scorings_done)}")
    fields = []
    for i, slot in enumerate(state.market):
        text = "-" if slot is EMPTY else piece_code(slot)
        fields.append(f"{Currency.of_field(i + 1).code}:{text}")
    out.append("  market " + " ".join(fields))
    display = [piece_code(c) for c in state.display] + _held(state, None)
    out.append(("  display " + " ".join(display)).rstrip())
    if state.dirk is not None:
        out.append(("  dirk " + " ".join(piece_code(t) for t in state.dirk)).rstrip())
    from referee.engine.market_side import aside_lines

    aside = aside_lines(state)
    if aside:
        out.append("  " + fmt_action(ModuleAction("aside", tuple(aside))))
    for m in state.ext.modules:
        out += ["  " + fmt_action(line) for line in m.position_lines(state, None)]
    if state.standing:  # bids lying beside standing offers (after the lines laying them out)
        from referee.engine.auction import standing_position_lines

        out += ["  " + fmt_action(line) for line in standing_position_lines(state)]
    if state.discard_size:  # the money cards spent (a reshuffle brings them back)
        known = sorted(state.discard.elements(), key=lambda c: c.sort_key)
        out.append("  discard " + " ".join([c.code for c in known] + ["?"] * state.discard_unknown))
    start = start_line(state)
    if start:  # the engine's lines (start, due, the turns or the open turn) after the modules'
        out.append(start)
    if state.scoring_pending:  # scoring cards turned up whose scoring line is still to come
        out.append("  due " + " ".join(str(n) for n in state.scoring_pending))
    if state.dirk is not None and state.dirk_due in (1, 2) and state.turn is None:
        out.append("  due dirk")  # Dirk's draw after that scoring, its line still to come
    out += refill_lines(state)
    out += turn_lines(state)
    for p in state.players:
        out += _player(state, p)
    if state.dirk is not None and state.modules.get("_dirk_score"):
        # Dirk's running total (his tiles are the `dirk` line): a `player Dirk` section
        out += [f"  player {fmt_name('Dirk')}", f"    score {state.modules['_dirk_score']}"]
    out.append("end")
    return out


def start_line(state: GameState) -> str:
    """``start PLAYER``: the start player the record named (its ``start`` line), when it is not
    the first of ``[Players]`` (what a block without the line is read with). The order from the
    start player is a rule after the setup too (Die Arbeiter: "beginnend mit dem Startspieler
    jeder betroffene Spieler für sich entscheiden, ob er seine/n Arbeiter zurücknimmt",
    rulebook-bigbox-de-2019.txt L3857-3862). Read back by
    :func:`referee.engine.position.position_start`."""
    claim = state.start_claim
    if claim is None or not state.players or claim[0] == state.players[0].name:
        return ""
    if state.player_named(claim[0]) is None:
        return ""
    return f"  start {fmt_name(claim[0])}"


def refill_lines(state: GameState) -> list[str]:
    """``refill FIELD ...``: the refill after the turn just played is still open and the
    market fields named were drawn in it, their pieces still lying there (a sultan card's
    holder may still claim them; none: the refill is open, nothing claimable lies there, e.g.
    right after the turn or after a claim). Kept by the engine when a module in play hears the
    market's draws (``GameState.refill_drawn``) until a line closes the refill (a record ending
    inside it leaves it open); written only in such a game. Read back by
    :func:`referee.engine.position.position_refill`."""
    from referee.engine.turns import Phase

    drawn = state.refill_drawn
    if state.turn is not None or not state.ext.drawing:
        return []
    if drawn is None and state.phase is not Phase.REFILL:
        return []  # no refill open (a record's end inside one keeps its draws: stated open)
    market = state.market
    fields = sorted({f for f, piece in drawn or () if market[f] is piece})
    return [" ".join(["  refill", *(Currency.of_field(f + 1).code for f in fields)])]


def turn_lines(state: GameState) -> list[str]:
    """A moment inside a turn: the open turn (``turn NUMBER PLAYER MAIN-ACTIONS [over]
    [placing] [unsure]``) and what it bought and did not place yet (``bought PIECE ...``),
    read back by :func:`referee.engine.position.position_turn`."""
    t = state.turn
    if t is None or not 0 <= t.player < len(state.players):
        # between lines: the turns played so far (the next numbered line is one more) and
        # the abilities whose limit still holds
        return ([f"  turns {state.turn_no}"] if state.turn_no > 0 else []) + _abilities(state)
    words = [str(t.number), fmt_name(state.players[t.player].name), str(t.main_actions)]
    if t.over and not t.unsure:
        words.append("over")
    if t.placing:
        words.append("placing")
    if t.unsure:
        words.append("unsure")
    out = ["  turn " + " ".join(words)]
    if t.pending:
        out.append("  bought " + " ".join(piece_code(x) for x in t.pending))
    limits: list[str] = []
    if t.take_only is not None:
        limits += ["takeonly", t.take_only]
    if t.extra_redesigns:
        limits += ["redesigns", str(t.extra_redesigns)]
    if limits:
        out.append("  limits " + " ".join(limits))
    if t.taken and state.ext.modules:  # read by modules (Die Bediensteten: its value)
        out.append("  taken " + " ".join(_money_code(x) for x in t.taken))
    out += _abilities(state)
    return out


def _abilities(state: GameState) -> list[str]:
    """``abilities PLAYER KEY ...``: the uses of abilities whose limit still holds (the engine's
    ledger, ``GameState.abilities``): those of the open turn (once a turn), of this round
    (once a round), for the coming scoring (once a scoring), and of the game (once a game);
    a key twice: used twice. Read back by :func:`referee.engine.position.position_abilities`,
    which gives each use the stamp of the moment and the limit the module declares."""
    if not state.abilities:
        return []
    from referee.engine.verbs import Limit, limited_specs, stamp

    specs = limited_specs(state)
    used: dict[int, list[str]] = {}
    for (seat, key), stamps in sorted(state.abilities.items()):
        spec = specs.get(key)
        if spec is None or spec.limit is None or not 0 <= seat < len(state.players):
            continue  # not an ability of the modules in play: it limits nothing
        now = stamp(state, spec.limit)
        n = sum(1 for u in stamps if spec.limit is Limit.ONCE or u == now)
        used.setdefault(seat, []).extend([key] * n)
    return [
        f"  abilities {fmt_name(state.players[seat].name)} " + " ".join(keys)
        for seat, keys in sorted(used.items())
        if keys
    ]


# what a position block cannot state about a moment (English, German)
_UNSTATED = {
    "stages": (
        "other players are still acting inside the turn or the refill ({what})",
        "andere Spieler handeln noch im Zug oder beim Auffüllen ({what})",
    ),
    "refused": (
        "purchases of this turn the referee refused ({what})",
        "vom Schiedsrichter abgelehnte Käufe dieses Zuges ({what})",
    ),
    "interrupt": (
        "a line played out of turn ({what})",
        "eine Zeile außerhalb der Reihe ({what})",
    ),
    "over": (
        "the game is over, its final scoring not yet written ({what})",
        "das Spiel ist zu Ende, seine Schlusswertung noch nicht geschrieben ({what})",
    ),
}


def _money_code(x: object) -> str:
    """Money taken, as written (a card's code, a module's money token)."""
    card = getattr(x, "card", x)
    code = getattr(card, "code", None)
    if code is not None:
        return str(code)
    kind, name = getattr(x, "kind", None), getattr(x, "name", None)
    return f"{kind}:{name}" if kind is not None and name is not None else "?"


def unstated(state: GameState, lang: str = "en") -> list[str]:
    """What a position block of ``state`` cannot state (empty: nothing is lost), in ``lang``
    (``en``/``de``): ``show --format record`` writes it as a comment in the block and tells the
    user (``show``), so that no block reads back as another state silently."""
    out: list[tuple[str, str]] = []
    if state.stages:
        out.append(("stages", ", ".join(f"{s.owner}: {s.kind}" for s in state.stages)))
    t = state.turn
    if t is not None:
        if t.refused:
            out.append(("refused", " ".join(piece_code(x) for x in t.refused)))
        if t.interrupt is not None:
            out.append(("interrupt", t.interrupt))
    if state.game_over and 3 not in state.scorings_done:
        why = state.end_reason
        out.append(("over", render(lang, why.key, why.params) if isinstance(why, Text) else "-"))
    index = 1 if lang == "de" else 0
    return [_UNSTATED[key][index].format(what=what) for key, what in out]


def _player(state: GameState, p: PlayerState) -> list[str]:
    out = [f"  player {fmt_name(p.name)}"]
    if p.score_known:
        out.append(f"    score {p.score}")
    if p.hand_known:
        out.append(("    hand " + " ".join(_cards(state, p))).rstrip())
    if p.reserve:
        out.append("    reserve " + " ".join(piece_code(t) for t in p.reserve))
    cells = list(p.alhambra.items())  # in the order built (a module's view may follow it)
    placed = [
        f"{piece_code(t)}@{c.x},{c.y}"
        for c, t in cells
        if (c.x, c.y) != (0, 0) and not (type(t) is Part and t.index)  # a two-cell piece once
    ]
    if placed:
        out.append("    alhambra " + " ".join(placed))
    if p.counts is not None:
        parts = [f"{t.code}={n}" for t, n in p.counts.items() if n]
        if p.wall_claim is not None:
            parts.append(f"wall={p.wall_claim}")
        if parts:
            out.append("    counts " + " ".join(parts))
    for m in state.ext.modules:
        out += ["    " + fmt_action(line) for line in m.position_lines(state, p)]
    return out


def position_text(state: GameState) -> str:
    return "\n".join(position_lines(state)) + "\n"
