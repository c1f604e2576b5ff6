"""Starting a game from a ``position`` block (a whole situation typed in).

What the position does not say is unknown: cards not shown anywhere are in the deck (the
discard pile is stated by its ``discard`` line, else taken as empty), tiles not shown are in
the bag. The setup checks do not
apply; the components shown must exist (supply) and each Alhambra must obey the building rules.
"""

from __future__ import annotations

from referee.catalogue import BuildingType, Currency
from referee.engine.market_side import intercept
from referee.engine.state import EMPTY, GameState, HeldPiece, PlayerState
from referee.engine.turns import Phase
from referee.geometry import layout_problems
from referee.messages import Text
from referee.record.model import (
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    PlayerPosition,
    PlayerRef,
    Pos,
    Position,
    TileLike,
    TileRef,
    Turn,
)


def _component(
    state: GameState, player: PlayerState | None, where: str, ref: ComponentRef, pos: Pos
) -> tuple[bool, object]:
    """A module's component in a position (``sq:Tne@0,1``, ``hand ex:GuDe``): (handled, piece)."""
    handler = state.ext.kind_handler(ref.kind)
    if handler is not None:
        if where == "dirk" and handler.tower_components():
            # Dirk's tiles are drawn from the bag and lie unplaced: a piece of a module whose
            # pieces are in the bag (tower_components) is read as in a reserve, wherever else
            # that module's pieces may lie; any other module is asked with ``dirk``
            where = "reserve"
        unseen = sum(state.tower.values())
        handled, piece = handler.position_component(state, player, where, ref)
        if handled:
            if sum(state.tower.values()) < unseen:
                # a piece out of the tower (the bag's module tiles, referee.engine.tower): the
                # bag holds one fewer, as when it is drawn in play
                state.bag_count -= unseen - sum(state.tower.values())
            return True, piece
    from referee.engine.core import _unhandled_component

    _unhandled_component(state, ref, ref.pos or pos, player.name if player else None)
    return False, None


def _tile(
    state: GameState,
    ref: TileLike | None,
    pos: Pos,
    player: PlayerState | None = None,
    where: str = "market",
) -> HeldPiece:
    # HeldPiece, not TileKind | None: compiled, the return type is checked at run time, and a
    # module's component (a square, a plot) comes back from here (compiled-only TypeError)
    if isinstance(ref, ComponentRef):
        handled, piece = _component(state, player, where, ref, pos)
        if handled:
            return piece  # a module piece (e.g. a square, a plot)
    if ref is None or isinstance(ref, ComponentRef) or not ref.known:
        state.bag_count -= 1
        return None
    from referee.engine.core import _take_from_bag

    state.bag_count -= 1
    return _take_from_bag(state, ref, getattr(ref, "pos", pos) or pos)


def position_tile(state: GameState, ref: TileLike | None, pos: Pos) -> HeldPiece:
    """A tile a module's position line states out of play (Der Marktplatz's ``box C6``): taken
    from the supply and the bag as a tile the block states anywhere else (None for ``?``)."""
    return _tile(state, ref, pos, None, "box")


def position_card(state: GameState, ref: object, pos: Pos) -> object:
    """A money card a position states (in the display, on top of the deck ...): taken from the
    cards not yet seen (the pool; one more than the supply holds is reported) and counted off
    the deck's unknown cards; None for an unknown card (``?``). Public: a module stating a
    card in its own position line takes it the same way (Die Gebäude der Macht's ``ontop``)."""
    if not isinstance(ref, CardRef) or ref.card is None:
        state.deck_unknown -= 1
        return None
    c = ref.card
    if state.pool[c] > 0:
        state.pool[c] -= 1
        if state.pool[c] == 0:
            del state.pool[c]
    else:
        from referee.engine.core import _card_supply

        _card_supply(state, c, ref.pos or pos)
    state.deck_unknown -= 1
    return c


def _module_line(state: GameState, player: PlayerState | None, line: ModuleAction) -> None:
    """A module's line in a position (e.g. ``vizier asleep``): the module states it, or it is
    reported (never dropped)."""
    if player is None and line.verb.lower() == "aside":
        from referee.engine.market_side import position_aside

        unseen = sum(state.tower.values())
        position_aside(state, line)  # E14: pieces beside the market
        # each out of the tower: the bag holds one fewer, as when it is drawn in play (as for
        # a module piece stated elsewhere, _component)
        state.bag_count -= unseen - sum(state.tower.values())
        return
    if player is None and line.verb.lower() == "discard":
        position_discard(state, line)  # the money cards on the discard pile
        return
    if player is None and line.verb.lower() == "start":
        position_start(state, line)  # the start player (the order some modules follow)
        return
    if player is None and line.verb.lower() in _TURN_VERBS:
        if line.verb.lower() == "turn":
            position_turn(state, line)  # a moment inside a turn: the open turn
        elif line.verb.lower() == "bought":
            position_bought(state, line)  # ... and what it bought and did not place yet
        elif line.verb.lower() == "taken":
            position_taken(state, line)  # ... the money its takes took
        elif line.verb.lower() == "limits":
            position_limits(state, line)  # ... take-only, redesigns granted on top
        elif line.verb.lower() == "turns":
            position_turns(state, line)  # between lines: the turns played so far
        elif line.verb.lower() == "due":
            position_due(state, line)  # scorings due: their cards turned up, their lines not
        elif line.verb.lower() == "refill":
            position_refill(state, line)  # the refill open, the fields drawn in it
        else:
            position_abilities(state, line)  # ... and the abilities used in it (once a turn)
        return
    if player is None and state.standing and line.verb.lower() == "bid":
        from referee.engine.auction import standing_position_line

        standing_position_line(state, line)  # a bid lying beside a standing offer
        return
    handler = state.ext.verb_handler(line.verb)
    if handler is not None and handler.position_line(state, player, line):
        return
    # a word that is one module's verb and another's chance line (Frische Farben's `project`,
    # a tile taken; Großprojekte's `project`, the open project): the one that states it
    chance = state.ext.chance_handler(line.verb)
    if chance is not None and chance is not handler and chance.position_line(state, player, line):
        return
    handler = handler or chance
    from referee.engine.extensions import module_owning_verb

    owner = module_owning_verb(line.verb)
    who = player.name if player is not None else None
    if owner is not None and handler is None:
        state.flag("MODULE-NOT-ENABLED", line.pos, who, verb=line.verb, module=owner)
    else:
        from referee.messages.hints import VerbHint

        state.flag("UNKNOWN-VERB", line.pos, who, verb=line.verb, hint=VerbHint(line.verb))


# the engine's lines of an open turn in a position block
_TURN_VERBS = ("turn", "turns", "due", "refill", "bought", "limits", "taken", "abilities")
# the flags of an open turn's ``turn`` line, in the order written
TURN_FLAGS = ("over", "placing", "unsure")


def _arg_at(arg: GenericArg, line: ModuleAction) -> Pos:
    """Where a finding about ``arg`` of a position's ``line`` points: the argument's own place,
    or the line's for an argument that has none (a number's: ``Pos`` line 0)."""
    return arg.pos if arg.pos.line else line.pos


def position_discard(state: GameState, line: ModuleAction) -> None:
    """``discard CARD ...``: the money cards on the discard pile (``?`` one nobody noted), taken
    from the cards not yet seen as any card a block states. "Ist der Stapel mit den
    Geldkarten aufgebraucht, wird der Ablagestapel gemischt und bildet einen neuen verdeckten
    Stapel" (rulebook-base-de-2003.txt L235): a reshuffle after the block brings them back,
    and the deck holds the cards stated nowhere, as in the game. A module's money on the pile
    is its module's to state. Anything but a money card or ``?``: ``POSITION-INVALID``
    (reason ``discard-line``)."""
    for arg in line.args:
        v = arg.value
        if isinstance(v, CardRef) or v == "?":
            c = position_card(state, v, arg.pos or line.pos)
            if c is None:
                state.discard_unknown += 1
            else:
                state.discard[c] += 1  # type: ignore[index]
            continue
        state.flag("POSITION-INVALID", _arg_at(arg, line), reason="discard-line")


def position_start(state: GameState, line: ModuleAction) -> None:
    """``start PLAYER``: the start player, as the record's ``start`` line named him ("Gespielt
    wird reihum im Uhrzeigersinn, beginnend mit dem Startspieler", rulebook-base-de-2003.txt
    L120); a block without the line is read with the first of ``[Players]``. Modules that
    follow the order from the start player after the setup read it (Die Arbeiter's players
    deciding whether to take their workers back, rulebook-bigbox-de-2019.txt L3857-3862).
    One player of the game, once a block."""
    values = [a.value for a in line.args]
    name = values[0] if len(values) == 1 else None
    if not isinstance(name, (str, PlayerRef)):
        state.flag("POSITION-INVALID", line.pos, reason="start-line")
        return
    ref = name if isinstance(name, PlayerRef) else PlayerRef(name, line.pos)
    p = state.find_player(ref, line.pos)
    if p is None:
        return
    state.start_claim = (p.name, False, line.pos)


def position_turn(state: GameState, line: ModuleAction) -> None:
    """``turn NUMBER PLAYER MAIN-ACTIONS [over] [placing] [unsure]`` in a position block: the
    moment lies inside turn NUMBER of PLAYER, who has made MAIN-ACTIONS main actions (take,
    buy, redesign, a module action); ``over``: no further main action is allowed, ``placing``:
    a placement was made, ``unsure``: whether the turn goes on cannot be told (an unknown
    payment). The next turn line continues this turn when it has its number (or none) and its
    player (or none) (:func:`continue_open_turn`); any other closes it first."""
    from referee.engine.state import TurnState

    values = [a.value for a in line.args]
    flags = values[3:]
    if (
        len(values) < 3
        or not isinstance(values[0], int)
        or not isinstance(values[1], (str, PlayerRef))
        or not isinstance(values[2], int)
        or values[0] < 1
        or values[2] < 0
        or any(not isinstance(f, str) or f.lower() not in TURN_FLAGS for f in flags)
    ):
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")
        return
    name = values[1]
    ref = name if isinstance(name, PlayerRef) else PlayerRef(name, line.pos)
    p = state.find_player(ref, line.pos)
    if p is None:
        return
    words = {str(f).lower() for f in flags}
    state.turn = TurnState(values[0], p.index, pos=line.pos)
    state.turn.main_actions = values[2]
    state.turn.placing = "placing" in words
    state.turn.unsure = "unsure" in words
    if "over" in words or state.turn.unsure:
        state.turn.over = True
        state.turn.over_after = Text("ACTION/before-position")
    state.turn_no = values[0]
    state.phase = Phase.TURN


def position_bought(state: GameState, line: ModuleAction) -> None:
    """``bought PIECE ...`` after a ``turn`` line: the pieces the open turn bought and did not
    place yet (each taken from the supply, as a reserve's are)."""
    if state.turn is None:
        state.flag("POSITION-INVALID", line.pos, reason="bought-without-turn")
        return
    p = state.players[state.turn.player]
    for arg in line.args:
        v = arg.value
        ref: TileLike | None = None  # `?`: a piece nobody noted
        if isinstance(v, (TileRef, ComponentRef)):
            ref = v
        elif v != "?":
            state.flag("POSITION-INVALID", arg.pos or line.pos, reason="turn-line")
            continue
        state.turn.pending.append(_tile(state, ref, arg.pos or line.pos, p, "reserve"))


def position_limits(state: GameState, line: ModuleAction) -> None:
    """``limits [takeonly CODE] [redesigns N]`` after a ``turn`` line: the open turn may only
    take money (a module's rule, CODE the rule a main action of another kind breaks, e.g. Die
    Arbeiter's "Würfelt er, darf er ausschließlich die Aktion: Geld nehmen ausführen"), and
    N redesigns granted on top of its actions (a master builder's card ...)."""
    from referee.engine.rules import RULES

    values = [a.value for a in line.args]
    t = state.turn
    ok = t is not None and len(values) in (2, 4)
    pairs = list(zip(values[::2], values[1::2], strict=False)) if ok else []
    for key, value in pairs:
        if t is None:
            break
        if key == "takeonly" and isinstance(value, str) and value.upper() in RULES:
            t.take_only = value.upper()
        elif key == "redesigns" and isinstance(value, int) and 0 < value <= 9:
            t.extra_redesigns = value
        else:
            ok = False
    if not ok:
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")


def position_taken(state: GameState, line: ModuleAction) -> None:
    """``taken CARD ...`` after a ``turn`` line: the money the open turn's takes took, as
    written (money cards, ``?``, module money tokens), which modules read (Die Bediensteten:
    its value)."""
    if state.turn is None:
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")
        return
    for arg in line.args:
        v = arg.value
        if isinstance(v, (CardRef, ComponentRef)):
            state.turn.taken.append(v)
        elif v == "?":
            state.turn.taken.append(CardRef(None, arg.pos or line.pos))
        else:
            state.flag("POSITION-INVALID", arg.pos or line.pos, reason="turn-line")


def position_abilities(state: GameState, line: ModuleAction) -> None:
    """``abilities PLAYER KEY ...``: the uses of abilities whose limit still holds at the
    moment (the ledger's names, e.g. ``handwerker``; a key twice: used twice): each is stamped
    as a use made now under the limit its module declares (once a turn, a round, a scoring,
    a game), so a further use is ``ABILITY-LIMIT`` as in the game it was written from. A key
    no module in play declares is stamped with the turn."""
    from referee.engine.verbs import Limit, limited_specs, stamp

    values = [a.value for a in line.args]
    if (
        len(values) < 2
        or not isinstance(values[0], (str, PlayerRef))
        or any(not isinstance(v, str) for v in values[1:])
    ):
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")
        return
    name = values[0]
    p = state.find_player(
        name if isinstance(name, PlayerRef) else PlayerRef(name, line.pos), line.pos
    )
    if p is None:
        return
    specs = limited_specs(state)
    now = stamp(state, Limit.PER_TURN)  # a key no module in play declares: the turn's
    for key in values[1:]:
        k = (p.index, str(key).lower())
        spec = specs.get(k[1])
        at = stamp(state, spec.limit) if spec is not None and spec.limit is not None else now
        state.abilities[k] = (*state.abilities.get(k, ()), at)


def position_due(state: GameState, line: ModuleAction) -> None:
    """``due NUMBER ...``: the scoring cards turned up whose scoring line is still to come (in
    the order turned up); the next ``scoring NUMBER`` line scores them as in the game."""
    values = [a.value for a in line.args]
    if values and isinstance(values[0], str) and values[0].lower() == "dirk":
        position_dirk_due(state, line)
        return
    numbers = [v for v in values if isinstance(v, int) and v in (1, 2)]
    if not values or len(numbers) != len(values) or set(numbers) & set(state.scorings_done):
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")
        return
    for n in numbers:
        if n not in state.scoring_pending:
            state.scoring_seen[n] = 0
            state.scoring_pending.append(n)


def position_dirk_due(state: GameState, line: ModuleAction) -> None:
    """``due dirk``: Dirk's draw after the last scoring is still to come ("Unmittelbar nach der
    1. Wertung bekommt Dirk 6 weitere Plättchen", "Nach der 2. Wertung bekommt Dirk nochmals
    Gebäudeplättchen ... ein Drittel – abgerundet – der noch im Beutel verbliebenen
    Plättchen", rulebook-base-de-2003.txt L343-345): the next ``* dirk`` line is that draw.
    A two-player game (Dirk) after scoring 1 or 2 only; else ``POSITION-INVALID``."""
    last = max(state.scorings_done, default=0)
    if len(line.args) != 1 or state.dirk is None or last not in (1, 2):
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")
        return
    state.dirk_due = last


def position_refill(state: GameState, line: ModuleAction) -> None:
    """``refill FIELD ...`` between lines: the refill after the turn just played is still open
    (its lines may go on), and the market fields named (``De``, ``Di`` ...) were drawn in it;
    what lies there was just drawn (Sultan: "Wird ein Gebäudeplättchen beim Auffüllen des
    Bauhofes gezogen ..., darf ein Spieler mit einer Sultankarte, auf der diese Gebäudeart
    markiert ist, das Plättchen kostenlos nehmen", rulebook-bigbox-de-2019.txt L2017-2021). The
    modules that hear the market's draws (``Module.market_draw``) are told of each, as when it
    was drawn in play, so a claim after the block finds it; ``refill`` alone: the refill is
    open, nothing claimable drawn (right after the turn, or after a claim). Each field once,
    holding a piece, no turn open, one line: else ``POSITION-INVALID`` (``refill-line``)."""
    fields: list[int] = []
    for arg in line.args:
        v = arg.value
        cur = Currency.of_code(v) if isinstance(v, str) else None
        idx = cur.field - 1 if cur is not None else -1
        if (
            cur is None
            or idx in fields
            or not 0 <= idx < len(state.market)
            or state.market[idx] is EMPTY
            or state.market[idx] is None
        ):
            state.flag("POSITION-INVALID", _arg_at(arg, line), reason="refill-line")
            continue
        fields.append(idx)
    if state.turn is not None or state.phase is not Phase.BETWEEN or state.refill_drawn is not None:
        # a turn left open, the game over, a second line: no (other) refill is open here
        state.flag("POSITION-INVALID", line.pos, reason="refill-line")
        return
    state.phase = Phase.REFILL
    state.refill_drawn = ()  # open (the engine keeps the draws only when a module hears them)
    for idx in fields:
        piece = state.market[idx]
        intercept(state, idx, piece, line.pos, True)  # every hearer told, as the draw in play
        state.refill_drawn = (*state.refill_drawn, (idx, piece))


def position_turns(state: GameState, line: ModuleAction) -> None:
    """``turns NUMBER`` between lines: the turns played so far (every player's, counted as the
    turn numbers count them); the next numbered turn line is NUMBER + 1."""
    values = [a.value for a in line.args]
    if (
        len(values) != 1
        or not isinstance(values[0], int)
        or values[0] < 0
        or state.turn is not None
    ):
        state.flag("POSITION-INVALID", line.pos, reason="turn-line")
        return
    state.turn_no = values[0]


def continue_open_turn(state: GameState, item: Turn) -> bool:
    """A turn line after a position that left a turn open (``turn`` line): True when the line
    continues that turn (its number or none, its player or none): its actions are made and
    the turn is closed. Otherwise the open turn is closed here (its unplaced pieces reported
    as at any turn's end) and False is returned: the line begins a turn of its own."""
    from referee.engine.core import apply_action, end_turn

    t = state.turn
    assert t is not None
    same_number = item.number is None or item.number == t.number
    same_player = item.player is None or (
        state.player_named(item.player.name) is state.players[t.player]
    )
    if same_number and same_player:
        for action in item.actions:
            apply_action(state, action)
        end_turn(state, item.pos)
        return True
    end_turn(state, item.pos)
    return False


def apply_position(state: GameState, item: Position) -> None:
    """Replace the state's table by what the position block states."""
    pos = item.pos
    state.phase = Phase.BETWEEN
    state.setup_after = 0
    state.deck_uncertain = True
    state.bag_uncertain = True
    if item.scorings_done is not None:
        state.scorings_done = list(range(1, item.scorings_done + 1))
        for n in state.scorings_done:
            if n in (1, 2):
                state.scoring_seen[n] = 0
        if 3 in state.scorings_done:  # the final scoring is over: so is the game (issue 32)
            state.game_over = True
            state.phase = Phase.OVER
    if item.display is not None:
        state.display = []
        for ref in item.display:
            if isinstance(ref, ComponentRef):
                _component(state, None, "display", ref, pos)
                continue
            state.display.append(position_card(state, ref, pos))  # type: ignore[arg-type]
    if item.market is not None:
        state.market = [EMPTY, EMPTY, EMPTY, EMPTY]
        for i, (fld, tref) in enumerate(item.market):
            idx = fld.field - 1 if isinstance(fld, Currency) else i
            if 0 <= idx < 4 and tref is not None:
                state.market[idx] = _tile(state, tref, pos)
    if item.dirk is not None and state.dirk is not None:
        state.dirk = [_tile(state, ref, pos, None, "dirk") for ref in item.dirk]
        state.dirk_due = None
    elif state.dirk is not None:
        state.dirk_due = None
    dirk_given = item.dirk is not None
    # the open turn first (a moment inside a turn): a module's line in a player's section may
    # name a piece it bought and did not place yet (e.g. a building site on it)
    opening = [x for x in item.extra if x.verb.lower() in _TURN_VERBS]
    named: set[str] = set()  # the players an ``abilities`` line stated
    for extra in opening:
        if extra.verb.lower() == "abilities" and extra.args:
            first = extra.args[0].value
            name = first.name if isinstance(first, PlayerRef) else str(first)
            if name.casefold() in named:
                # one line a player (a name twice on it: used twice); a second line is a
                # contradiction or a slip, not merged silently
                state.flag("POSITION-INVALID", extra.pos, name, reason="abilities-twice", name=name)
                continue
            named.add(name.casefold())
        _module_line(state, None, extra)
    for pp in item.players:
        if (
            state.dirk is not None
            and pp.player.name.casefold() == "dirk"
            and state.player_named(pp.player.name) is None
        ):
            # `player Dirk` in a two-player game: Dirk's tiles or counts (as `score` reads it)
            _dirk_section(state, pp, pos)
            dirk_given = True
            continue
        p = state.find_player(pp.player, pos)
        if p is None:
            continue
        p.dealt_pos = pp.pos or pos
        p.score_known = pp.score is not None
        if pp.score is not None:
            p.score = pp.score
        p.hand_known = pp.hand is not None
        if pp.hand is not None:
            p.hand.clear()
            p.hand_unknown = 0
            for ref in pp.hand:
                if isinstance(ref, ComponentRef):
                    _component(state, p, "hand", ref, pos)
                    continue
                c = position_card(state, ref, pos)
                if c is None:
                    p.hand_unknown += 1
                else:
                    p.hand[c] += 1  # type: ignore[index]
        p.reserve_replace([_tile(state, ref, pos, p, "reserve") for ref in pp.reserve])
        if pp.counts or pp.wall is not None:
            counts = dict.fromkeys(BuildingType, 0)
            for part in pp.counts:
                if isinstance(part.key, BuildingType):
                    counts[part.key] = part.points
            p.counts = counts
            p.wall_claim = pp.wall
            state.note(pp.pos or pos, "UNVERIFIED-ALHAMBRA-COUNTS", p.name, name=p.name)
        for placed in pp.alhambra:
            tile = _tile(state, placed.tile, placed.pos or pos, p, "alhambra")
            if tile is None:
                p.alhambra_unknown += 1
            elif placed.at not in p.alhambra:
                p.alhambra.place(placed.at, tile)
            else:
                state.flag(
                    "POSITION-INVALID",
                    placed.pos or pos,
                    p.name,
                    reason="two-tiles",
                    at=placed.at,
                    name=p.name,
                )
        for extra in pp.extra:
            _module_line(state, p, extra)
        module_layout = [x for m in state.ext.modules for x in m.position_layout(state, p)]
        for pr in layout_problems(p.alhambra) + module_layout:
            cells = ", ".join(str(c) for c in pr.cells)
            state.flag(
                "POSITION-INVALID",
                pp.pos or pos,
                p.name,
                reason="building-rule",
                name=p.name,
                problem=pr,
                cells=cells,
            )
    starts = 0
    for extra in item.extra:
        if any(extra is x for x in opening):
            continue
        if extra.verb.lower() == "start":
            starts += 1
            if starts > 1:  # two start players: a contradiction, not the later one silently
                state.flag("POSITION-INVALID", extra.pos, reason="start-line")
                continue
        _module_line(state, None, extra)
    if state.deck_unknown < 0:
        state.deck_unknown = 0
    if state.bag_count < 0:
        state.bag_count = 0
    n = len(state.players)
    if n < 2 or n > 6:
        state.flag(
            "SETUP-PLAYERS",
            pos,
            reason="position-count",
            n=n,
            players=Text("WORD/player" if n == 1 else "WORD/players"),
            names=", ".join(state.names) or Text("WORD/none"),
        )
    elif state.dirk is not None and not dirk_given and not state.dirk:
        state.flag("POSITION-INVALID", pos, "Dirk", reason="dirk-missing")
    if item.to_move is not None:
        p = state.find_player(item.to_move, pos)
        if p is not None:
            state.next_player = p.index
    if state.turn is None and any(s is EMPTY for s in state.market):
        # a market field empty between turns: the block does not say how many tiles are
        # left in the bag, so the record decides whether the game is over (as after a refill)
        state.maybe_over = True
    _ = TileRef


def _dirk_section(state: GameState, pp: PlayerPosition, pos: Pos) -> None:
    """A ``player Dirk`` section of a two-player position: his tiles (``alhambra`` or
    ``reserve``, coordinates aside) join the ``dirk`` line's, his ``counts`` are kept for the
    scorings, his ``score`` is his running total."""
    assert state.dirk is not None
    for placed in pp.alhambra:
        state.dirk.append(_tile(state, placed.tile, placed.pos or pos, None, "dirk"))
    state.dirk.extend(_tile(state, ref, pos, None, "dirk") for ref in pp.reserve)
    counts = dict(state.modules.get("_dirk_counts") or {})
    for part in pp.counts:
        if isinstance(part.key, BuildingType):
            counts[part.key] = counts.get(part.key, 0) + part.points
    state.modules["_dirk_counts"] = counts
    if pp.score is not None:
        state.modules["_dirk_score"] = pp.score
