"""``alhambra-referee explain FILE [--at ...] "<action>" [--player NAME]``.

Is an action legal at a moment of a record (or in a position file)? If not: every rule it
breaks, with the rule's name, its rulebook section and the exact cells and cards; then the legal
alternatives: every legal cell for the tile, every legal money take, every affordable purchase
(and whether it can be paid exactly), every tile that may be removed or swapped.

The action is written in the notation, as on a turn line (``place T10w@1,0``, ``take Gu1 Di4``,
``buy Du C9w pay Du8 Du4, reserve C9w``; a leading ``Anna:`` names the player). The actions of
one text are checked in order, as one turn: ``buy ... , place ...`` places the tile just bought.
The checks are the engine's (``referee.engine``); nothing is changed in the file.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import click

from referee.catalogue import Currency, MoneyCard, TileKind
from referee.commands._pieces import is_piece, resolve_piece
from referee.commands._queries import Query, Situations, check_sources, read_queries
from referee.commands.show import (
    At,
    Situation,
    ats_option,
    color_option,
    emit_data,
    format_option,
    guarded,
    load_game,
    parse_text,
    player_option_with,
    use_color,
)
from referee.geometry import Alhambra
from referee.messages import values
from referee.notation.messages import localize
from referee.record.model import (
    BuildFromReserve,
    Buy,
    CardRef,
    ComponentRef,
    Coord,
    Give,
    ModuleAction,
    Place,
    PlayerRef,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
    Turn,
)
from referee.reports.i18n import (
    currency_name,
    current_lang,
    fmt_card,
    fmt_cards,
    fmt_coords,
    fmt_tile,
    lang_option,
    register,
    t,
)
from referee.reports.terminal import draw_alhambra

register(
    "explain.assumed_bought",
    "{tile} taken as acquired this turn (the text buys nothing)",
    "{tile} gilt als in diesem Zug erworben (der Text kauft nichts)",
)
register(
    "explain.game_over",
    "the game is over at this moment; the action is checked as if it were not",
    "das Spiel ist zu diesem Zeitpunkt vorbei; die Aktion wird geprüft, als wäre es das nicht",
)
register("explain.note", "note", "Hinweis")
register(
    "err.no_action",
    'no ACTION to check: give one (e.g. "place T10w@1,0") or --queries FILE',
    'keine AKTION zu prüfen: eine angeben (z. B. "place T10w@1,0") oder --queries DATEI',
)
register("explain.end_of_turn", "end of the turn", "Ende des Zuges")
register("explain.checked_as", "checked for {player}, {where}", "geprüft für {player}, {where}")
register(
    "explain.not_their_turn",
    "{player} is not to move now ({to_move} is); checked as if it were {player}'s turn",
    "{player} ist jetzt nicht am Zug ({to_move} ist es); geprüft, als wäre {player} am Zug",
)
register("explain.violation_head", "{code} {name}", "{code} {name}")
register("explain.section", "rule: {section}", "Regel: {section}")
register("explain.unverifiable", "not checkable", "nicht prüfbar")
register("explain.cells_for", "cells for {tile}", "Felder für {tile}")
register("explain.take_single", "any single card: {cards}", "eine beliebige Karte: {cards}")
register(
    "explain.take_several",
    "several cards summing to at most 5: {sets}",
    "mehrere Karten mit Summe höchstens 5: {sets}",
)
register(
    "explain.buy_line",
    "{field}: {tile} costs {price}, you hold {held} in {currency}s",
    "{field}: {tile} kostet {price}, auf der Hand {held} in {currency}",
)
register(
    "explain.buy_line_aside",
    "beside the market: {tile} costs {price}",
    "neben dem Bauhof: {tile} kostet {price}",
)
register("explain.paid_nothing", "nothing", "nichts")
register("explain.buy_exact", "exact with {cards}", "passend mit {cards}")
register(
    "explain.buy_over",
    "no exact payment; cheapest {cards} (overpaid by {over}, turn ends)",
    "nicht passend zahlbar; am günstigsten {cards} ({over} zu viel, Zug endet)",
)
register(
    "explain.cannot_afford",
    "cannot afford: {tiles}",
    "nicht bezahlbar: {tiles}",
)
register("explain.removable", "tiles that may be removed: {cells}", "abbaubare Plättchen: {cells}")
register(
    "explain.swappable", "{tile} may replace the tile at {cells}", "{tile} kann {cells} ersetzen"
)
register(
    "explain.interrupts",
    "Out-of-turn lines {player} may play now",
    "Zeilen außerhalb des Zuges, die {player} jetzt spielen darf",
)
register(
    "explain.no_interrupts",
    "{player} may play no out-of-turn line now",
    "{player} darf jetzt keine Zeile außerhalb des Zuges spielen",
)
register(
    "explain.owed",
    "Owed first, before any other action (a module's rule: e.g. a plot's building is chosen "
    "right after its purchase)",
    "Zuerst geschuldet, vor jeder anderen Aktion (Regel eines Moduls: z. B. wird das Gebäude "
    "eines Grundstücks sofort nach dem Kauf gewählt)",
)
register(
    "explain.owed_end",
    "Owed before the turn ends (a module's rule: e.g. a watchtower bought is placed where it "
    "touches a building of its colour)",
    "Vor dem Ende des Zuges geschuldet (Regel eines Moduls: z. B. wird ein gekaufter Wachturm "
    "dort gebaut, wo er ein Gebäude seiner Farbe berührt)",
)
register("explain.more", "... and {n} more", "... und {n} weitere")
register("explain.no_alternatives", "no legal alternative", "keine erlaubte Alternative")
register("explain.empty_market_field", "empty", "leer")
register(
    "explain.hand_unknown",
    "the hand is not fully known (unknown cards are left out)",
    "die Hand ist nicht ganz bekannt (unbekannte Karten bleiben außen vor)",
)


# --------------------------------------------------------------------------- the action


def parse_action(text: str) -> Turn:
    """The action text as one turn line (syntax errors exit with code 2)."""
    line = " ".join(text.split())
    games = parse_text(line + "\n", "<action>")
    errors = [e for g in games for e in g.errors]
    if errors:
        lang = current_lang()
        msgs = [
            f"<action>:{e.pos.line}:{e.pos.column}: {localize(e.message, lang)}" for e in errors
        ]
        raise click.ClickException("\n".join(msgs) + f"\n  {line}")
    turns = [item for g in games for item in g.body if isinstance(item, Turn)]
    if len(turns) != 1 or not turns[0].actions:
        raise click.ClickException("<action>: " + t("err.not_an_action", current_lang(), text=text))
    return turns[0]


# -------------------------------------------------------------------------- alternatives


@dataclass
class Alternatives:
    """The legal alternatives to one action, as data (rendered by :func:`_alt_lines`)."""

    cells: list[tuple[Any, list[Any]]] = field(default_factory=list)  # (tile, legal cells)
    takes_single: list[Any] = field(default_factory=list)
    takes_several: list[tuple[Any, ...]] = field(default_factory=list)
    buys: list[dict[str, Any]] = field(default_factory=list)
    cannot_afford: list[Any] = field(default_factory=list)
    removable: list[Any] = field(default_factory=list)
    swaps: list[tuple[Any, list[Any]]] = field(default_factory=list)
    hand_unknown: bool = False
    interrupts: list[str] | None = None  # an out-of-turn line: the lines open to the player
    owed: list[str] = field(default_factory=list)  # a module's free action owed right now
    owed_end: list[str] = field(default_factory=list)  # owed before the turn ends
    who: str = ""


def legal_takes(state: Any, p: Any) -> tuple[list[MoneyCard], list[tuple[MoneyCard, ...]]]:
    """Every legal money take from the display, as the engine's generator lists them (any one
    card, or several within the take limit, rulebook § Geld nehmen)."""
    from referee.engine.context import Context
    from referee.engine.legal import take_actions

    singles: list[MoneyCard] = []
    several: list[tuple[MoneyCard, ...]] = []
    for take in take_actions(Context(state), p):
        cards = tuple(c.card for c in take.cards if isinstance(c, CardRef) and c.card is not None)
        if len(cards) == 1:
            singles.append(cards[0])
        elif cards:
            several.append(cards)
    return singles, sorted(several, key=lambda s: (len(s), [c.sort_key for c in s]))


def payments(
    hand: Iterable[MoneyCard], currencies: frozenset[Currency], price: int
) -> tuple[tuple[MoneyCard, ...] | None, tuple[MoneyCard, ...] | None]:
    """``(exact, cheapest)`` from the engine's one payment search
    (:func:`referee.engine.actions.purchase.payments`): an exact payment with the fewest cards
    (or None), and the payment with the smallest sum of at least ``price`` (fewest cards on
    ties), or None."""
    from referee.engine.actions.purchase import payments as search

    found = list(search(list(hand), currencies, price))
    exact = next((pay for pay in found if sum(c.value for c in pay) == price), None)
    cheapest = found[0] if found else None

    def ordered(pay: tuple[MoneyCard, ...] | None) -> tuple[MoneyCard, ...] | None:
        return None if pay is None else tuple(sorted(pay, key=lambda c: c.sort_key))

    return ordered(exact), ordered(cheapest)


def market_tiles(state: Any) -> list[tuple[Currency, TileKind | None]]:
    out: list[tuple[Currency, TileKind | None]] = []
    for i, slot in enumerate(state.market[:4]):
        cur = Currency.of_field(i + 1)
        if isinstance(slot, TileKind):
            out.append((cur, slot))
    return out


def alternatives(state: Any, player_index: int, action: Any) -> Alternatives:
    """The legal alternatives to ``action`` for the player in ``state`` (before the action),
    from the engine's legal-move generator and rule decisions (modules included)."""
    from referee.engine.context import Context
    from referee.engine.legal import cells_for, remove_actions, swap_actions

    ctx = Context(state)
    p = state.players[player_index]
    alt = Alternatives()
    owed = owed_now(state, player_index)
    if owed:  # "Anschließend ... sofort": the owed step is the only one open (Neues Bauland)
        alt.owed = owed
        return alt
    alt.owed_end = owed_now(state, player_index, "turn-end")  # other actions stay open
    if isinstance(action, Place | BuildFromReserve):
        tile = _piece_of(state, p, action.tile)
        tiles: list[Any] = [tile] if tile is not None else []
        if isinstance(action, BuildFromReserve):
            tiles += [x for x in p.reserve if is_piece(x) and x not in tiles]
        how = "build" if isinstance(action, BuildFromReserve) else "place"
        for x in tiles:
            cells = sorted(cells_for(ctx, p, x, how), key=lambda c: (-c.y, c.x))
            alt.cells.append((x, cells))
    elif isinstance(action, TakeMoney):
        alt.takes_single, alt.takes_several = legal_takes(state, p)
    elif isinstance(action, Buy):
        alt.hand_unknown = p.hand_unknown > 0
        alt.buys, alt.cannot_afford = purchase_options(ctx, p)
    elif isinstance(action, RemoveToReserve):
        alt.removable = sorted(
            (a.at for a in remove_actions(ctx, p) if isinstance(a, RemoveToReserve)),
            key=lambda c: (-c.y, c.x),
        )
    elif isinstance(action, Swap):
        by_tile: dict[TileKind, list[Coord]] = {
            x: [] for x in dict.fromkeys(r for r in p.reserve if isinstance(r, TileKind))
        }
        for a in swap_actions(ctx, p):
            if not isinstance(a, Swap):
                continue
            kind = _kind(a.tile)
            if kind in by_tile:
                by_tile[kind].append(a.at)
        alt.swaps = [(x, sorted(cells, key=lambda c: (-c.y, c.x))) for x, cells in by_tile.items()]
    return alt


def owed_now(state: Any, player_index: int, when: str = "next") -> list[str]:
    """The free actions a module says the player owes now (the engine's
    :func:`~referee.engine.legal.owed_actions`), in notation, of the modules whose
    ``owed_before`` is ``when``: ``"next"``, before any other action, or ``"turn-end"``,
    before the turn ends; empty when none is owed or the turn is another player's."""
    from referee.engine.context import Context
    from referee.notation import formatter

    if state.turn is None or state.turn.player != player_index or not state.ext:
        return []
    ctx = Context(state)
    p = state.players[player_index]
    acts = [a for m in state.ext.modules if m.owed_before == when for a in m.owed_actions(ctx, p)]
    return list(dict.fromkeys(formatter.action(a) for a in acts))


def purchase_options(ctx: Any, p: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """Every piece on offer the player can buy now, from the engine's legal-move generator
    (base payments and every module's ways to pay: diamonds, coins, exchange cards, stored
    credits, ...): per piece an exact payment with the fewest items (or None) and the payment
    that counts for the least (fewest items on ties); and the pieces on offer nobody's money
    in the hand reaches."""
    from referee.engine.actions.purchase import payment_value, plan_purchase
    from referee.engine.legal import buy_actions, module_actions, piece_ref
    from referee.engine.market_side import side_offers
    from referee.engine.ruleset import Decision
    from referee.engine.state import EMPTY
    from referee.notation import formatter

    state = ctx.state
    buys = [*buy_actions(ctx, p), *(a for a in module_actions(ctx, p) if isinstance(a, Buy))]
    groups: dict[tuple[str, str], list[tuple[Buy, Any]]] = {}
    for b in buys:
        plan = plan_purchase(state, p, b)
        if plan.price is None or plan.tile is None:
            continue
        key = ("" if plan.field is None else plan.field.code, formatter.tile(b.tile))
        groups.setdefault(key, []).append((b, plan))
    hand = list(p.hand.elements())
    out: list[dict[str, Any]] = []
    for options in groups.values():
        scored = [(payment_value(ctx, plan), b, plan) for b, plan in options]
        price = scored[0][2].price
        exact = [
            (len(b.paid), b)
            for value, b, plan in scored
            if ctx.decide(
                Decision.PAY_EXACT, player=p, purchase=plan, value=value, price=plan.price
            )
        ]
        cheapest = min(scored, key=lambda x: (x[0], len(x[1].paid)))
        first = scored[0][2]
        held = 0
        if first.field is not None:
            allowed = frozenset(
                ctx.decide(Decision.PAY_CURRENCIES, player=p, field=first.field, purchase=first)
            )
            held = sum(c.value for c in hand if c.currency in allowed)
        out.append(
            {
                "field": first.field,
                "tile": first.tile,
                "price": price,
                "held": held,
                "exact": min(exact, key=lambda x: x[0])[1].paid if exact else None,
                "cheapest": cheapest[1].paid,
                "over": cheapest[0] - price,
            }
        )
    bought = {formatter.tile(piece_ref(b["tile"])) for b in out}
    offered = [x for x in state.market[:4] if x is not None and x is not EMPTY]
    if state.ext:
        beside: list[Any] = []
        for o in side_offers(state):  # a piece offered in several currencies: named once
            if not any(o.piece is x for x in beside):
                beside.append(o.piece)
        offered += beside
    cannot = [x for x in offered if formatter.tile(piece_ref(x)) not in bought]
    return out, cannot


def paid_words(paid: Iterable[Any], lang: str) -> str:
    """A payment for people: money cards by their code (``Gu3 Gu7``), a module's money or
    component with its name (``dm:7 (diamond 7)``); nothing paid is said in words."""
    parts = [
        fmt_card(c, lang, "both") if getattr(c, "kind", None) is not None else fmt_card(c, lang)
        for c in paid
    ]
    return " ".join(parts) if parts else t("explain.paid_nothing", lang)


def _piece_of(state: Any, p: Any, ref: Any) -> Any:
    """The piece an action names: a catalogue tile, or the module piece of this moment a
    token names (``md:5n``: on the market, beside it, in the reserve, or given by a module
    action now); None when none is known."""
    kind = _kind(ref)
    if kind is not None:
        return kind
    if isinstance(ref, ComponentRef):
        return resolve_piece(state, p, ref)
    return None


def _kind(ref: Any) -> TileKind | None:
    if isinstance(ref, TileKind):
        return ref
    kind = getattr(ref, "kind", None)
    return kind if isinstance(kind, TileKind) else None


# ------------------------------------------------------------------------------ checking


@dataclass
class Step:
    """One action of the text, what the engine found, and the alternatives."""

    action: Any  # None: the end of the turn
    violations: list[Any]
    notes: list[Any]
    alternatives: Alternatives
    alhambra: Alhambra
    assumed_bought: bool = False
    assumed_piece: Any = None


def interrupt_line(sit: Situation, turn: Turn, player: str | None) -> Turn | None:
    """The text as an out-of-turn line (a vizier purchase, a thief, a sultan claim, ...), or
    None: a line without a turn number whose first action an enabled module claims as played
    out of turn, exactly as ``check`` reads such a line (``Extensions.out_of_turn``, tried on a
    copy). Its player is ``player``, else the name the text starts with, else the player to
    move."""
    state = sit.state
    if state is None or not state.ext or turn.number is not None or not turn.actions:
        return None
    if not isinstance(turn.actions[0], ModuleAction):
        return None
    name = player or (turn.player.name if turn.player else None)
    side = sit.player(name)
    line = dataclasses.replace(turn, player=PlayerRef(side.name, turn.pos))
    if state.stages:  # a line of the stage under way (an auction's bid or pass)
        from referee.engine.stages import belongs

        if belongs(state.stages[-1], line):
            return line
    probe = state.copy()
    if probe.ext.out_of_turn(probe, line) is None:
        return None
    return line


def check_interrupt(sit: Situation, line: Turn) -> tuple[str, list[Step]]:
    """Check an out-of-turn line as ``check`` does (the engine's own reading of the line on a
    copy of the state); each finding goes to the action at its column."""
    from referee.engine import core

    assert sit.state is not None and line.player is not None
    trial = sit.state.copy()
    index = next(i for i, p in enumerate(trial.players) if p.name == line.player.name)
    alh_before = trial.players[index].alhambra.copy()
    found_before, notes_before = len(trial.found), len(trial.unverifiable)
    core.apply_item(trial, line)
    found = trial.found[found_before:]
    notes = trial.unverifiable[notes_before:]
    cols = [a.pos.column for a in line.actions]

    def owner(v: Any) -> int:
        col = getattr(v, "column", 0) or 0
        return max((i for i, c in enumerate(cols) if c <= col), default=0)

    steps = [
        Step(
            a,
            [v for v in found if owner(v) == i],
            [n for n in notes if owner(n) == i],
            Alternatives(),
            alh_before,
        )
        for i, a in enumerate(line.actions)
    ]
    wrong = next((s for s in steps if any(v.severity == "error" for v in s.violations)), None)
    if wrong is not None:  # the alternatives once, at the first action that breaks a rule
        wrong.alternatives = Alternatives(
            interrupts=interrupts_for(sit.state, line.player.name), who=line.player.name
        )
    return line.player.name, steps


def interrupts_for(state: Any, name: str) -> list[str]:
    """The out-of-turn lines ``name`` may play now, as the engine's generator lists them
    (:func:`referee.engine.legal.legal_interrupts`), in notation."""
    from referee.engine.legal import legal_interrupts
    from referee.notation import formatter

    out: list[str] = []
    for line in legal_interrupts(state):
        if line.player is not None and line.player.name == name:
            text = ", ".join(formatter.action(a) for a in line.actions)
            if text not in out:
                out.append(text)
    return out


def check_turn(sit: Situation, turn: Turn, player: str | None) -> tuple[str, list[Step], bool]:
    """Check the actions one after the other on a copy of the state."""
    from referee.engine import core

    state = sit.state
    if state is None:  # pragma: no cover - situations always come from the engine
        raise click.ClickException("explain needs the rules engine")
    line = interrupt_line(sit, turn, player)
    if line is not None:
        who, oot_steps = check_interrupt(sit, line)
        return who, oot_steps, False
    name = player or (turn.player.name if turn.player else None)
    side = sit.player(name)
    index = next(i for i, p in enumerate(state.players) if p.name == side.name)
    trial = state.copy()
    expected = trial.turn.player if trial.turn is not None else trial.next_player
    not_their_turn = False
    if trial.turn is not None and trial.turn.player != index:
        not_their_turn = True
        core.end_turn(trial, turn.pos)
    if trial.turn is None:
        not_their_turn = not_their_turn or (
            trial.next_player is not None and trial.next_player != index
        )
        core.begin_trial_turn(trial, index, turn.pos)
    steps: list[Step] = []
    claimed: list[Any] = []
    if not_their_turn and player is None and turn.player is not None and expected is not None:
        # the text itself says that this player moves now: it is not their turn (with
        # --player the question is hypothetical: "what if it were their turn?")
        n = len(trial.players)
        order = [trial.players[(expected + i) % n].name for i in range(n)]
        before = len(trial.found)
        trial.flag(
            "TURN-ORDER",
            turn.pos,
            side.name,
            expected=trial.players[expected].name,
            order=" \u2192 ".join(order),
        )
        claimed = trial.found[before:]
    buys = any(isinstance(a, Buy) for a in turn.actions)
    refused: list[Any] = []
    for action in turn.actions:
        alt = alternatives(trial, index, action)
        alh_before = trial.players[index].alhambra.copy()
        assumed = False
        kind = None
        if isinstance(action, Place | Reserve | Give) and not buys:
            kind = _piece_of(trial, trial.players[index], action.tile)
            if kind is not None and trial.turn is not None and kind not in trial.turn.pending:
                # "may I put this tile there?": as if it had just been bought (a text with a
                # purchase is a whole turn: there, placing an unbought tile is an error)
                core.assume_bought(trial, kind)
                assumed = True
        notes_before = len(trial.unverifiable)
        pending_before = list(trial.turn.pending) if trial.turn is not None else []
        found = core.apply_action(trial, action)
        notes = trial.unverifiable[notes_before:]
        if (
            isinstance(action, Buy)
            and trial.turn is not None
            and any(v.severity == "error" for v in found)
        ):
            # a refused purchase gives no tile to place: one mistake, one finding (no
            # PLACE-MISSING at the end of the turn for the tile that was not bought; a place
            # written after it is still checked by the building rules)
            refused += trial.turn.pending[len(pending_before) :]
        steps.append(Step(action, [*claimed, *found], list(notes), alt, alh_before, assumed, kind))
        claimed = []
    if buys and trial.turn is not None:
        # a text with a purchase is a whole turn: what the end of the turn requires
        for piece in refused:
            if piece in trial.turn.pending:
                trial.turn.pending.remove(piece)
        before = len(trial.found)
        alh_before = trial.players[index].alhambra.copy()
        owed = Alternatives(  # a step owed still comes first
            owed=owed_now(trial, index), owed_end=owed_now(trial, index, "turn-end")
        )
        core.end_turn(trial, turn.pos)
        steps.append(Step(None, trial.found[before:], [], owed, alh_before))
    return side.name, steps, not_their_turn and not claimed_any(steps)


def claimed_any(steps: list[Step]) -> bool:
    """Whether a TURN-ORDER violation was reported (then the turn is not hypothetical)."""
    return any(v.code == "TURN-ORDER" for s in steps for v in s.violations)


# -------------------------------------------------------------------------------- output


def _alt_lines(alt: Alternatives, lang: str, color: bool, alh: Alhambra) -> list[str]:
    out: list[str] = []
    if alt.owed:
        out.append(t("explain.owed", lang) + ":")
        out.extend("  " + x for x in alt.owed)
    if alt.owed_end:
        out.append(t("explain.owed_end", lang) + ":")
        out.extend("  " + x for x in alt.owed_end)
    for tile, cells in alt.cells:
        name = fmt_tile(tile, lang)
        if cells:
            out.append(f"{t('legal_cells', lang, tile=name)}: {fmt_coords(cells)}")
        else:
            out.append(t("no_legal_cells", lang, tile=name))
    if len(alt.cells) == 1 and alt.cells[0][1]:
        out.append("")
        out.extend(
            ("  " + line).rstrip()
            for line in draw_alhambra(alh, marks=alt.cells[0][1], color=color)
        )
        out.append(t("legend_legal", lang, tile=fmt_tile(alt.cells[0][0], lang, "code")))
    if alt.takes_single or alt.takes_several:
        out.append(t("legal_takes", lang) + ":")
        out.append("  " + t("explain.take_single", lang, cards=fmt_cards(alt.takes_single, lang)))
        if alt.takes_several:
            sets = "; ".join(" + ".join(fmt_card(c, lang) for c in s) for s in alt.takes_several)
            out.append("  " + t("explain.take_several", lang, sets=sets))
    if alt.buys or alt.cannot_afford:
        out.append(t("affordable", lang) + ":")
        if alt.hand_unknown:
            out.append("  " + t("explain.hand_unknown", lang))
        if not alt.buys:
            out.append("  " + t("nothing_affordable", lang))
        for b in alt.buys:
            cur: Currency | None = b["field"]
            if cur is not None:
                head = t(
                    "explain.buy_line",
                    lang,
                    field=cur.code,
                    tile=fmt_tile(b["tile"], lang),
                    price=b["price"],
                    currency=currency_name(cur, lang),
                    held=b["held"],
                )
            else:
                head = t(
                    "explain.buy_line_aside", lang, tile=fmt_tile(b["tile"], lang), price=b["price"]
                )
            if b["exact"] is not None:
                tail = t("explain.buy_exact", lang, cards=paid_words(b["exact"], lang))
            else:
                tail = t(
                    "explain.buy_over",
                    lang,
                    cards=paid_words(b["cheapest"], lang),
                    over=b["over"],
                )
            out.append(f"  {head}: {tail}")
        if alt.cannot_afford:
            tiles = ", ".join(fmt_tile(x, lang) for x in alt.cannot_afford)
            out.append("  " + t("explain.cannot_afford", lang, tiles=tiles))
    if alt.removable:
        out.append(t("explain.removable", lang, cells=fmt_coords(alt.removable)))
    for tile, cells in alt.swaps:
        out.append(
            t("explain.swappable", lang, tile=fmt_tile(tile, lang), cells=fmt_coords(cells) or "-")
        )
    if alt.interrupts is not None:
        if alt.interrupts:
            out.append(t("explain.interrupts", lang, player=alt.who) + ":")
            out.extend("  " + line for line in alt.interrupts[:12])
            if len(alt.interrupts) > 12:
                out.append("  " + t("explain.more", lang, n=len(alt.interrupts) - 12))
        else:
            out.append(t("explain.no_interrupts", lang, player=alt.who))
    return out


def _alt_data(alt: Alternatives) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if alt.owed:
        data["owed"] = list(alt.owed)
    if alt.owed_end:
        data["owed_before_turn_end"] = list(alt.owed_end)
    if alt.cells:
        data["cells"] = [
            {"tile": fmt_tile(x, "en", "code"), "cells": [str(c) for c in cells]}
            for x, cells in alt.cells
        ]
    if alt.takes_single or alt.takes_several:
        data["takes"] = [[c.code] for c in alt.takes_single] + [
            [c.code for c in s] for s in alt.takes_several
        ]
    if alt.buys or alt.cannot_afford:
        data["purchases"] = [
            {
                "field": None if b["field"] is None else b["field"].code,
                "tile": fmt_tile(b["tile"], "en", "code"),
                "price": b["price"],
                "exact": None if b["exact"] is None else [fmt_card(c, "en") for c in b["exact"]],
                "cheapest": [fmt_card(c, "en") for c in b["cheapest"]],
                "overpaid": b["over"],
            }
            for b in alt.buys
        ]
        data["cannot_afford"] = [fmt_tile(x, "en", "code") for x in alt.cannot_afford]
    if alt.removable:
        data["removable"] = [str(c) for c in alt.removable]
    if alt.interrupts is not None:
        data["out_of_turn"] = list(alt.interrupts)
    if alt.swaps:
        data["swaps"] = [
            {"tile": x.code, "cells": [str(c) for c in cells]} for x, cells in alt.swaps
        ]
    return data


def _cut(text: str, steps: list[Step], lang: str) -> list[str]:
    """Each action's own text, cut from the action line at the actions' columns."""
    line = " ".join(text.split())
    acts = [s for s in steps if s.action is not None]
    cols = [s.action.pos.column - 1 for s in acts] + [len(line)]
    out = [line[a:b].strip().rstrip(",").strip() for a, b in itertools.pairwise(cols)]
    out += [t("explain.end_of_turn", lang)] * (len(steps) - len(acts))
    return out


@dataclass
class Answer:
    """The answer to one question: legal or not, as data and as text."""

    legal: bool
    data: dict[str, Any]
    lines: list[str]


def answer(sit: Situation, action: str, player: str | None, lang: str, color: bool) -> Answer:
    """Is ``action`` legal in ``sit``? The verdict, every broken rule and the alternatives."""
    turn = parse_action(action)
    name, steps, not_their_turn = check_turn(sit, turn, player)
    texts = _cut(action, steps, lang)
    legal = not any(v.severity == "error" for s in steps for v in s.violations)
    where = sit.where(lang)
    data = {
        "action": " ".join(action.split()),
        "player": name,
        "at": where,
        "legal": legal,
        "not_their_turn": not_their_turn,
        "game_over": sit.game_over,
        "steps": [
            {
                "action": text,
                "legal": not any(v.severity == "error" for v in s.violations),
                "violations": [_violation_data(v, lang) for v in s.violations],
                "unverifiable": [n.message(lang) for n in s.notes],
                "assumed_bought": s.assumed_bought,
                "alternatives": _alt_data(s.alternatives),
            }
            for text, s in zip(texts, steps, strict=True)
        ],
    }
    out: list[str] = []
    out.append(
        t("action_legal" if legal else "action_illegal", lang, action=" ".join(action.split()))
    )
    out.append("  (" + t("explain.checked_as", lang, player=name, where=where) + ")")
    if not_their_turn and not sit.game_over:
        out.append("  " + t("explain.not_their_turn", lang, player=name, to_move=sit.to_move))
    if sit.game_over:
        out.append("  " + t("explain.game_over", lang))
    for text, step in zip(texts, steps, strict=True):
        ok = not any(v.severity == "error" for v in step.violations)
        out.append("")
        out.append(f"{text}: {t('legal' if ok else 'illegal', lang)}")
        if step.assumed_bought:
            tile = fmt_tile(step.assumed_piece or _kind(step.action.tile), lang)
            out.append(
                f"  {t('explain.note', lang)}: {t('explain.assumed_bought', lang, tile=tile)}"
            )
        for v in step.violations:
            r = v.rule
            mark = "\u2717" if v.severity == "error" else "!"
            out.append(f"  {mark} {v.code} {r.name(lang)} [{v.cite()}]")
            out.append(f"    {v.message(lang)}")
        for n in step.notes:
            out.append(f"  ? {t('explain.unverifiable', lang)}: {n.message(lang)}")
        if not ok:
            lines = _alt_lines(step.alternatives, lang, color, step.alhambra)
            if lines:
                out.append("")
                out.append(f"  {t('alternatives', lang)}:")
                out.extend(("    " + line).rstrip() for line in lines)
    return Answer(legal, data, out)


@click.command(name="explain")
@click.argument("file", type=click.Path(dir_okay=False))
@click.argument("actions", nargs=-1, metavar="[ACTION]...")
@ats_option
@player_option_with(
    "The player who makes the action (default: the name the action starts with, as in "
    '"Ben: take Gu1", else the player to move). A player who is not to move is checked as if '
    "it were their turn."
)
@click.option(
    "--queries",
    "queries",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Answer every query of FILE too, one per line: MOMENT [player=NAME] ACTION "
    "(- reads standard input; format in docs/dispute-tools.md).",
)
@click.option("--game", "game_no", type=int, default=None, help="Which game of the file (1..).")
@format_option
@color_option
@lang_option
@guarded
def command(
    file: str,
    actions: tuple[str, ...],
    ats: tuple[tuple[str, At], ...],
    player: str | None,
    queries: str | None,
    game_no: int | None,
    fmt: str,
    color_mode: str,
    lang: str,
) -> None:
    """Is ACTION legal at that moment? If not, which rule (name, section, cells, cards), and
    what the legal alternatives are. FILE is a record or position file (- reads standard
    input). Exit code 0 when legal, 1 when not.

    Several questions in one call: give several ACTIONs and/or several --at points (every
    action is asked at every point), or a file of queries (--queries). Each answer is then
    shown under its question, and JSON/YAML give a list of {question, answer}; the exit code
    is 1 when any answer is "not legal", 2 when a question cannot be answered.

    \b
    Examples:
      alhambra-referee explain game.alh --at 12 "place T10w@1,0"
      alhambra-referee explain game.alh --at L40 "take Gu1 Di4"
      alhambra-referee explain position.alh "Ben: buy Du C9w pay Du8 Du4" --lang de
      alhambra-referee explain game.alh --at 10 --at 12 "take Gu1" "take Di4"
      alhambra-referee explain game.alh --queries questions.txt --format json
    """
    check_sources(file, queries)
    questions = [Query(text, at, player, a) for text, at in ats for a in actions]
    if queries is not None:
        default_at = ats[0] if len(ats) == 1 else ("end", At("end"))
        asked = read_queries(queries, default_at, "ACTION")
        questions += [
            q if q.player is not None else dataclasses.replace(q, player=player) for q in asked
        ]
    if queries is None and not actions:
        raise click.UsageError(t("err.no_action", lang))
    batch = queries is not None or len(questions) > 1
    if not batch:
        # one question: the action's syntax is checked before the record is read
        parse_action(questions[0].subject or "")
    game = load_game(file, game_no)
    color = use_color(color_mode)
    situations = Situations(game)
    if not batch:
        q = questions[0]
        ans = answer(situations.at(q.at), q.subject or "", q.player, lang, color)
        if fmt != "text":
            emit_data(ans.data, fmt)
        else:
            click.echo("\n".join(ans.lines), color=color)
        raise click.exceptions.Exit(0 if ans.legal else 1)
    code = 0
    docs: list[dict[str, Any]] = []
    for n, q in enumerate(questions, 1):
        echo = {**q.echo(), "action": q.subject}
        if fmt == "text":
            if n > 1:
                click.echo("")
            click.echo(t("query.head", lang, n=n, question=q.label("action")))
        try:
            if not q.subject:
                raise click.ClickException(t("err.no_action", lang))
            ans = answer(situations.at(q.at), q.subject, q.player, lang, color)
        except click.ClickException as exc:
            code = 2
            docs.append({"question": echo, "error": exc.format_message()})
            if fmt == "text":
                click.echo("  " + t("query.error", lang, error=exc.format_message()))
            continue
        code = max(code, 0 if ans.legal else 1)
        docs.append({"question": echo, "answer": ans.data})
        if fmt == "text":
            click.echo("\n".join("  " + ln if ln else "" for ln in ans.lines), color=color)
    if fmt != "text":
        emit_data({"questions": docs, "legal": code == 0}, fmt)
    raise click.exceptions.Exit(code)


def _violation_data(v: Any, lang: str) -> dict[str, Any]:
    r = v.rule
    return {
        "code": v.code,
        "name": r.name(lang),
        "section": v.cite(),
        "severity": v.severity,
        "column": v.column,  # in the action text
        "message": v.message(lang),
        # each value as the message shows it (a piece by its name and code, not a Python repr:
        # the same text on every run)
        "params": {k: str(val) for k, val in values(lang, v.params).items()},
    }
