"""Die Wanderhandwerker (travelling craftsmen, Klaus-Jürgen Wrede): every player has two open
craftsmen, the start player a third face down; in his turn a player may use the ability of one
open craftsman; at the end of his turn he passes the used one (or one of the two) to his left
neighbour, who lays it face down, and turns his own face-down craftsman up.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Klaus-Jürgen Wrede: Die Wanderhandwerker (heading
L3110-3111; text L3076-3105, L3117-3170).

Notation (names, texts, the counts by player number: ``handwerker.yaml``; rulings:
``docs/modules/handwerker.md``):

* ``* craftsmen Anna hw:goldschmied hw:schreiner`` -- a player's two open craftsmen, in the
  setup; the start player's third lies face down: nobody sees it, so it is unknown unless a
  third token states it (``* craftsmen Anna hw:goldschmied hw:schreiner hw:schmied``).
* an ability, a free act of one's own turn (one per turn): ``goldschmied`` (take up to 8),
  ``schreiner 2`` (the next market building costs 2 less), ``moertelmischer Gu Du`` (the
  buildings of two market fields swap), ``steinmetz Gu3 Gu5`` (as the first act: the hand's Gu3
  for the display's Gu5), ``bauherr @1,0 @0,-1`` (the redesign moves a building),
  ``ziegelmacher G11- @1,0`` (the bought G11 swapped in; the replaced building is placed or
  reserved next), ``muenzer Du2`` (the display's Du2 pays the next purchase with the hand's
  cards), ``schmied Du1 De7`` (the display widened to 6: the cards turned up, in order; a
  scoring card ``W1`` among them is scored after the turn), ``mosaikleger C7ne sw`` (the
  bought or reserved C7ne is built in this turn with the walls ``sw``: a :class:`TurnedTile`).
* ``handover hw:goldschmied`` -- at the end of the turn the used (or one open) craftsman goes
  to the left neighbour, face down; the player's face-down craftsman turns up.
* position blocks: ``craftsmen hw:goldschmied hw:schreiner down hw:schmied`` in a player's
  section (``?`` for one nobody has seen); ``mosaikleger C7ne sw``: the C7ne of the Alhambra
  lies turned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from referee.catalogue import SIDES, BuildingType, Currency, MoneyCard, Side, TileKind
from referee.engine.findings import Finding, problem
from referee.engine.fmt import fmt_cards
from referee.engine.ruleset import Decision, refines
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.turns import Moment, Phase
from referee.engine.verbs import Arg, Limit, VerbSpec, Window
from referee.messages import Join, Text
from referee.modules.base import (
    BundledModule,
    Scratch,
    acts_at,
    bundled,
    module_data,
    named_player,
    token_text,
)
from referee.record.model import (
    CardRef,
    ComponentRef,
    Coord,
    DisplayReveal,
    GenericArg,
    ModuleAction,
    ModuleChance,
    ScoringCardRef,
    TileRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

KIND = "hw"
DEAL = "craftsmen"
HANDOVER = "handover"
ABILITY = "handwerker"  # the ledger's name: one craftsman's ability per turn
DOWN_WORDS = ("down", "verdeckt")
# a moment inside a turn: the craftsman whose ability the turn used (a position's `craftsmen`
# line, after its craftsmen: `used hw:schreiner 2`, the Schreiner's discount not spent yet)
USED_WORDS = ("used", "benutzt")
UNKNOWN = "?"

GOLD, CARPENTER, MORTAR, MASON = "goldschmied", "schreiner", "moertelmischer", "steinmetz"
MOSAIC, PATRON, SMITH, BRICK, MINTER = (
    "mosaikleger",
    "bauherr",
    "schmied",
    "ziegelmacher",
    "muenzer",
)
SMITH_SIZE = 6  # "Die Auslage der Geldkarten wird sofort auf 6 Karten erweitert." (L3151-3152)


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("handwerker")["components"]
    return data


def kinds() -> tuple[str, ...]:
    return tuple(str(k) for k in _data()["kinds"])


def in_play(players: int) -> int:
    table = _data()["in_play"]
    return int(table.get(players, table.get(str(players), 13)))


def per_kind(players: int) -> int:
    """The most craftsmen of one kind in play (reading: the nine unmarked are one of each)."""
    return 1 if in_play(players) <= len(kinds()) else 2


def spelled(name: str) -> str:
    """A craftsman's token name in the canonical ASCII spelling (``Mörtelmischer`` ->
    ``moertelmischer``)."""
    low = name.strip().lower()
    for a, b in (("ö", "oe"), ("ü", "ue"), ("ä", "ae"), ("ß", "ss")):
        low = low.replace(a, b)
    return low


def parse_kind(value: object) -> str | None:
    if not isinstance(value, ComponentRef) or value.kind.lower() != KIND:
        return None
    name = spelled(value.name)
    return name if name in kinds() else None


def token(kind: str | None) -> str:
    return UNKNOWN if kind is None else f"{KIND}:{kind}"


def token_arg(kind: str | None) -> GenericArg:
    return GenericArg(UNKNOWN if kind is None else ComponentRef(KIND, kind))


def kind_text(kind: str | None) -> object:
    return (
        Text("HANDWERKER-NOT-OPEN.word/none")
        if kind is None
        else Text(f"HANDWERKER-TOKEN.kind/{kind}")
    )


def _written(value: object) -> str:
    if isinstance(value, ComponentRef):
        return f"{value.kind}:{value.name}"
    if isinstance(value, CardRef):
        return "?" if value.card is None else value.card.code
    return str(value)


@dataclass(frozen=True, slots=True)
class TurnedTile:
    """A catalogue tile built in turned by the Mosaikleger ("Erlaubt es, 1 Gebäude (auch aus der
    Reserve) beliebig gedreht einzubauen.", L3128-3129). It is still the printed tile for
    everything but its walls: named by it in the record (``carried_tile``: ``place C7ne@1,0``),
    counted as it in the supply and the scorings (type, price). Its walls are ``walls``, one of
    the rotations of the printed ones. It is not stored as the catalogue tile with those walls:
    that is often another tile (C7ne turned is C7sw). Once it leaves the Alhambra it is the
    printed tile again (:func:`printed`)."""

    carried_tile: TileKind
    walls: frozenset[Side]

    @property
    def type(self) -> BuildingType:
        return self.carried_tile.type

    @property
    def price(self) -> int:
        return self.carried_tile.price

    @property
    def printed_walls(self) -> frozenset[Side]:
        return self.carried_tile.walls

    @property
    def code(self) -> str:
        return f"{self.carried_tile.code}({walls_word(self.walls)})"

    def __str__(self) -> str:
        return self.code

    def matches(self, ref: object) -> bool:
        return False


def walls_word(walls: frozenset[Side]) -> str:
    """The walls as the ``mosaikleger`` line writes them: ``sw``, ``x`` for none."""
    return "".join(s.value.lower() for s in SIDES if s in walls) or "x"


def read_walls(word: object) -> frozenset[Side] | None:
    """``sw`` -> {S, W}; ``x`` -> none; None for a word that states no walls (each side once)."""
    if not isinstance(word, str) or not word:
        return None
    low = word.lower()
    if low == "x":
        return frozenset()
    sides = {s.value.lower(): s for s in SIDES}
    if any(c not in sides for c in low) or len(set(low)) != len(low):
        return None
    return frozenset(sides[c] for c in low)


def printed(piece: Any) -> Any:
    """A piece as printed: a turned tile's own tile, anything else unchanged."""
    return piece.carried_tile if isinstance(piece, TurnedTile) else piece


@dataclass
class CraftScratch(Scratch):
    # per player: the open craftsmen and the face-down ones (None: nobody has seen it)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    open: dict[str, list[str | None]] = field(default_factory=dict)
    down: dict[str, list[str | None]] = field(default_factory=dict)
    dealt: list[str] = field(default_factory=list)  # players a line dealt to
    deal_checked: bool = False
    used: dict[str, tuple[int, str]] = field(default_factory=dict)  # player -> (turn, kind)
    handed: dict[str, int] = field(default_factory=dict)  # player -> turn of the hand-over
    gold: tuple[str, int] | None = None  # (player, turn): the Goldschmied's limit of 8
    discount: tuple[str, int, int] | None = None  # (player, turn, amount): the Schreiner's
    minted: list[Any] = field(default_factory=list)  # display cards the Münzer took to pay
    widening: bool = False  # the Schmied turns cards up now: the display holds 6
    turning: bool = False  # a building was turned (Mosaikleger): straighten those that left

    def known(self) -> Counter[str]:
        """Every craftsman held and known, by kind."""
        out: Counter[str] = Counter()
        for held in (*self.open.values(), *self.down.values()):
            out.update(k for k in held if k is not None)
        return out


def _spec(verb: str, args: tuple[Arg, ...] | None, aliases: tuple[str, ...], **kw: Any) -> Any:
    return VerbSpec(
        verb,
        kind="free",
        args=args,
        window=kw.get("window", Window.OWN_TURN),
        limit=Limit.PER_TURN,
        aliases=aliases,
        ability=ABILITY,
    )


@bundled
class Handwerker(BundledModule):
    """Craftsmen with abilities, passed to the left at the end of every turn."""

    verb_specs = (
        _spec(GOLD, (), ("goldsmith",)),
        _spec(CARPENTER, (Arg.INT,), ("carpenter",)),
        _spec(MORTAR, (Arg.WORD, Arg.WORD), ("mortarmixer",)),
        _spec(MASON, (Arg.CARD, Arg.CARD), ("stonemason",), window=Window.TURN_START),
        _spec(MOSAIC, (Arg.TILE, Arg.WORD), ("mosaiclayer",)),
        VerbSpec(
            PATRON,
            kind="main",  # "Erlaubt eine Umbauaktion": the turn's redesign (reading)
            args=(Arg.COORD, Arg.COORD),
            window=Window.OWN_TURN,
            limit=Limit.PER_TURN,
            aliases=("masterofworks",),
            ability=ABILITY,
        ),
        _spec(SMITH, None, ("blacksmith",)),
        _spec(BRICK, (Arg.TILE, Arg.COORD), ("brickmaker",)),
        _spec(MINTER, (Arg.PAYMENT,), ("minter",)),
        VerbSpec(
            HANDOVER,
            kind="free",
            args=(Arg.COMPONENT,),
            window=Window.TURN_END,
            limit=Limit.PER_TURN,
            aliases=("weitergeben",),
        ),
    )
    chance_verbs = (DEAL, "handwerker")
    component_kinds = (KIND,)
    scratch_type = CraftScratch
    helpers = ("held_open", "held_down")
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {KIND: ("craftsman", "Handwerker")}
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        GOLD: ("uses the goldsmith (take up to 8)", "nutzt den Goldschmied (bis 8 nehmen)"),
        CARPENTER: (
            "uses the carpenter (price lowered)",
            "nutzt den Schreiner (Preis gesenkt)",
        ),
        MORTAR: (
            "uses the mortar mixer (two market buildings swapped)",
            "nutzt den Mörtelmischer (zwei Gebäude des Bauhofs getauscht)",
        ),
        MASON: (
            "uses the stonemason (a hand card swapped with the display)",
            "nutzt den Steinmetz (eine Handkarte mit der Auslage getauscht)",
        ),
        MOSAIC: ("uses the mosaic layer", "nutzt den Mosaikleger"),
        PATRON: ("uses the master of works", "nutzt den Bauherrn"),
        SMITH: (
            "uses the smith (the display widened to 6)",
            "nutzt den Schmied (Auslage auf 6 erweitert)",
        ),
        BRICK: ("uses the brickmaker", "nutzt den Ziegelmacher"),
        MINTER: ("uses the minter", "nutzt den Münzer"),
        DEAL: ("craftsmen dealt", "Handwerker verteilt"),
        "handwerker": ("craftsmen dealt", "Handwerker verteilt"),
        HANDOVER: (
            "passes a craftsman to the left neighbour",
            "gibt einen Handwerker an den linken Nachbarn weiter",
        ),
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.open = {p.name: [] for p in state.players}
        scratch.down = {p.name: [] for p in state.players}

    def held_open(self, state: GameState, player: PlayerState) -> list[str | None]:
        return self.data(state).open.setdefault(player.name, [])

    def held_down(self, state: GameState, player: PlayerState) -> list[str | None]:
        return self.data(state).down.setdefault(player.name, [])

    # ------------------------------------------------------------------ the deal

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* craftsmen Anna hw:goldschmied hw:schreiner [third]``: "Jeder Spieler erhält 2
        Handwerker, die er offen vor sich ablegt. Der Startspieler erhält einen dritten
        Handwerker, den er verdeckt vor sich ablegt." (L3090-3093)"""
        pos = event.pos
        if not event.args:
            state.flag("HANDWERKER-DEAL", pos, None, reason="count", n=0, want=2)
            return []
        head = event.args[0]
        if str(getattr(head.value, "name", head.value)).lower() == "dirk" and (
            state.player_named("Dirk") is None
        ):
            state.flag("HANDWERKER-DEAL", pos, "Dirk", reason="dirk")
            return []
        player = named_player(state, head, pos)
        if player is None:
            return []
        data = self.data(state)
        if state.phase != Phase.SETUP:
            state.flag("HANDWERKER-DEAL", pos, player.name, reason="late")
        got = self._tokens(state, event.args[1:], pos, player.name)
        if player.name in data.dealt:
            held = " ".join(token(k) for k in self.held_open(state, player)) or "-"
            state.flag("HANDWERKER-DEAL", pos, player.name, reason="twice", held=held)
            return []
        data.dealt.append(player.name)
        if not 2 <= len(got) <= 3:
            state.flag("HANDWERKER-DEAL", pos, player.name, reason="count", n=len(got), want=2)
        data.open[player.name] = got[:2]
        data.down[player.name] = got[2:]
        self._supply(state, pos)
        return []

    def _tokens(self, state: GameState, args: Any, pos: Any, who: str | None) -> list[str | None]:
        out: list[str | None] = []
        for a in args:
            if isinstance(a.value, str) and a.value == UNKNOWN:
                out.append(None)
                continue
            k = parse_kind(a.value)
            if k is None:
                state.flag("HANDWERKER-TOKEN", a.pos or pos, who, **self._token_args(a.value))
            else:
                out.append(k)
        return out

    def _token_args(self, value: object) -> dict[str, Any]:
        return {"token": _written(value), "kinds": ", ".join(kinds())}

    def _supply_findings(
        self, state: GameState, pos: Any, who: str | None, extra: str | None = None
    ) -> list[Finding]:
        """ "Bei 2-4 Spielern werden die Handwerker, die mit 6 und 5/6 gekennzeichnet sind,
        aussortiert" (L3082-3088): no more of a kind than in play (reading in the YAML)."""
        data = self.data(state)
        held = data.known()
        if extra is not None:
            held[extra] += 1
        n = len(state.players)
        most = per_kind(n)
        spare = in_play(n) - len(kinds())
        common: dict[str, Any] = {"players": n, "in_play": in_play(n), "extra": spare}
        out: list[Finding] = []
        for k, c in sorted(held.items()):
            if c > most:
                where = ", ".join(
                    name
                    for name in state.names
                    if k in data.open.get(name, []) or k in data.down.get(name, [])
                )
                out.append(
                    problem(
                        "HANDWERKER-SUPPLY",
                        pos,
                        who,
                        reason="kind",
                        token=token(k),
                        n=c,
                        most=most,
                        where=where or "-",
                        **common,
                    )
                )
        twice = [k for k, c in held.items() if c > 1]
        if spare >= 0 and len(twice) > spare and most > 1:
            out.append(
                problem(
                    "HANDWERKER-SUPPLY",
                    pos,
                    who,
                    reason="repeated",
                    token=" ".join(token(k) for k in sorted(twice)),
                    n=len(twice),
                    **common,
                )
            )
        return out

    def _supply(self, state: GameState, pos: Any, who: str | None = None) -> None:
        from referee.engine.findings import report

        report(state, self._supply_findings(state, pos, who))

    def available(self, state: GameState) -> list[str]:
        """The kinds a craftsman nobody has seen may be (supply left by the reading)."""
        held = self.data(state).known()
        n = len(state.players)
        most = per_kind(n)
        repeats = sum(1 for c in held.values() if c > 1) < in_play(n) - len(kinds())
        return [k for k in kinds() if held[k] < 1 or (held[k] < most and repeats)]

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state = ctx.state
        if moment == Moment.TURN_START:
            self._deal_done(state)
        elif moment == Moment.TURN_END:
            self._minted_left(ctx)
            self._turn_end(ctx)
            self._straighten(state)

    def _deal_done(self, state: GameState) -> None:
        """At the first turn: players no line dealt to hold unknown craftsmen (reported once);
        the start player's third lies face down (unknown unless stated); only he has three."""
        data = self.data(state)
        t = state.turn
        if data.deal_checked or t is None:
            return
        data.deal_checked = True
        from_position = state.deck_uncertain
        missing = [p for p in state.players if p.name not in data.dealt]
        if missing and not (from_position and data.dealt):
            for p in missing:
                if state.checking:
                    state.flag("HANDWERKER-DEAL", t.pos, p.name, reason="missing")
                data.open[p.name] = [None, None]
                data.down[p.name] = []
        if from_position:
            return
        start = state.players[t.player]
        for p in state.players:
            down = data.down.setdefault(p.name, [])
            if p is start and not down:
                down.append(None)  # "den er verdeckt vor sich ablegt": nobody saw it
            elif p is not start and down and state.checking and p.name in data.dealt:
                n = len(data.open.get(p.name, [])) + len(down)
                state.flag("HANDWERKER-DEAL", t.pos, p.name, reason="count", n=n, want=2)

    def _turn_end(self, ctx: Any) -> None:
        """ "Am Ende seines Zuges gibt er den benutzten Handwerker an seinen linken Nachbarn
        weiter." A turn without a hand-over is reported; the used craftsman is then passed on
        all the same (the record can only mean that one)."""
        state = ctx.state
        t = state.turn
        if t is None or t.interrupt is not None:
            return
        data = self.data(state)
        player = state.players[t.player]
        if data.handed.get(player.name) == t.number or not self.held_open(state, player):
            return
        if state.checking:
            state.flag("HANDWERKER-HANDOVER", ctx.pos or t.pos, player.name, reason="missing")
        used = data.used.get(player.name)
        if used is not None and used[0] == t.number:
            self._pass_on(state, player, used[1], t.number)

    def _minted_left(self, ctx: Any) -> None:
        state = ctx.state
        t = state.turn
        if t is not None and self.data(state).minted:
            self._unmint(state, state.players[t.player], [], ctx.pos or t.pos)

    # ------------------------------------------------------------------ holding

    def _opening(self, state: GameState, player: PlayerState, kind: str) -> str | None:
        """How ``kind`` is open before ``player``: "known", "revealed" (an unknown open one
        turns out to be it) or None (not open)."""
        held = self.held_open(state, player)
        if kind in held:
            return "known"
        if None in held:
            return "revealed"
        return None

    def _open_findings(
        self, state: GameState, player: PlayerState, kind: str, pos: Any, doing: str
    ) -> list[Finding]:
        how = self._opening(state, player, kind)
        if how is None:
            down = self.held_down(state, player)
            return [
                problem(
                    "HANDWERKER-NOT-OPEN",
                    pos,
                    player.name,
                    doing=Text(f"HANDWERKER-NOT-OPEN.doing/{doing}"),
                    token=token(kind),
                    open=" ".join(token(k) for k in self.held_open(state, player))
                    or Text("HANDWERKER-NOT-OPEN.word/none"),
                    down=Text(
                        "HANDWERKER-NOT-OPEN.where/down", down=" ".join(token(k) for k in down)
                    )
                    if down
                    else "",
                )
            ]
        if how == "revealed":
            return self._supply_findings(state, pos, player.name, extra=kind)
        return []

    def _take_open(self, state: GameState, player: PlayerState, kind: str) -> bool:
        held = self.held_open(state, player)
        if kind in held:
            held.remove(kind)
            return True
        if None in held:
            held.remove(None)
            return True
        return False

    def _reveal(self, state: GameState, player: PlayerState, kind: str) -> None:
        held = self.held_open(state, player)
        if kind not in held and None in held:
            held[held.index(None)] = kind

    def _pass_on(self, state: GameState, player: PlayerState, kind: str, turn_no: int) -> None:
        """The craftsman goes face down to the left neighbour; the passer's face-down one turns
        up ("Anschließend dreht der abgebende (noch aktive) Spieler seinen verdeckt vor sich
        ausliegenden Handwerker um", L3117-3120)."""
        data = self.data(state)
        if not self._take_open(state, player, kind):
            return
        n = len(state.players)
        left = state.players[(player.index + 1) % n]
        self.held_down(state, left).append(kind)
        self.held_open(state, player).extend(self.held_down(state, player))
        data.down[player.name] = []
        data.handed[player.name] = turn_no

    # ------------------------------------------------------------------ the verbs

    def _kind_of(self, verb: str) -> str | None:
        v = verb.lower()
        for spec in self.verb_specs:
            if v in (spec.verb, *spec.aliases):
                return spec.verb if spec.verb != HANDOVER else None
        return None

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        state = ctx.state
        pos = action.pos
        kind = self._kind_of(action.verb)
        if kind is None:
            return self._handover_findings(state, player, action)
        out = self._open_findings(state, player, kind, pos, "use")
        args = [a.value for a in action.args]
        common: dict[str, Any] = {"craftsman": kind_text(kind)}
        if kind == MOSAIC and len(args) == 2:
            out.extend(self._mosaic_findings(state, player, args[0], args[1], pos, common))
        if kind == CARPENTER and args and args[0] not in (1, 2):
            out.append(
                problem("HANDWERKER-ARGS", pos, player.name, reason="amount", got=args[0], **common)
            )
        elif kind == MORTAR and len(args) == 2:
            out.extend(self._mortar_findings(state, player, args, pos, common))
        elif kind == MASON and len(args) == 2:
            out.extend(self._mason_findings(state, player, args, pos, common))
        elif kind == PATRON and len(args) == 2:
            out.extend(self._patron_findings(ctx, player, args[0], args[1], pos))
        elif kind == BRICK and len(args) == 2:
            out.extend(self._brick_findings(ctx, player, args[0], args[1], pos, common))
        elif kind == MINTER:
            out.extend(self._minter_findings(state, player, args, pos, common))
        elif kind == SMITH:
            out.extend(self._smith_findings(ctx, player, action, common))
        return out

    # ------------------------------------------------------------------ the Mosaikleger

    def _to_turn(
        self, state: GameState, player: PlayerState, ref: Any
    ) -> tuple[list[Any], int] | None:
        """Where the building a ``mosaikleger`` line names lies: a building bought this turn
        and not yet placed, else one of the reserve ("auch aus der Reserve"); a catalogue
        tile as printed (not one already turned, not another module's piece)."""
        if not isinstance(ref, TileRef) or not ref.known:
            return None
        t = state.turn
        for slots in (t.pending if t is not None else [], player.reserve):
            for i, x in enumerate(slots):
                if type(x) is TileKind and x in ref.candidates:
                    return slots, i
        return None

    def _mosaic_findings(
        self, state: GameState, player: PlayerState, ref: Any, word: Any, pos: Any, common: Any
    ) -> list[Finding]:
        """Mosaikleger: "Erlaubt es, 1 Gebäude (auch aus der Reserve) beliebig gedreht
        einzubauen." (L3128-3129): ``mosaikleger C7ne sw`` names a building bought this turn
        (not yet placed) or one of the reserve, and its walls as it will lie: a rotation of
        the printed walls. The building rules then judge the building as turned where it is
        placed or built."""
        from referee.engine.orientation import rotations

        found = self._to_turn(state, player, ref)
        if found is None:
            t = state.turn
            pending = " ".join(
                getattr(x, "code", "?") or "?" for x in (t.pending if t is not None else [])
            )
            reserve = " ".join(getattr(x, "code", "?") or "?" for x in player.reserve)
            return [
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="mosaic-tile",
                    got=token_text(ref),
                    pending=pending or "-",
                    reserve=reserve or "-",
                    **common,
                )
            ]
        slots, i = found
        tile = slots[i]
        walls = read_walls(word)
        allowed = rotations(tile.walls)
        if walls is None or walls not in allowed:
            return [
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="mosaic-walls",
                    got=str(word),
                    tile=tile.code,
                    allowed=", ".join(walls_word(w) for w in allowed),
                    **common,
                )
            ]
        return []

    def _mosaic(self, state: GameState, player: PlayerState, ref: Any, word: Any) -> None:
        """The named building lies turned from now on (a :class:`TurnedTile` in its slot, so
        the placement or the build from the reserve that follows places it so); stated as
        printed, it stays the tile itself."""
        found = self._to_turn(state, player, ref)
        walls = read_walls(word)
        if found is None or walls is None:
            return
        slots, i = found
        tile = slots[i]
        if walls != tile.walls:
            if slots is player.reserve:  # (the reserve through its methods: the change notice)
                player.reserve_set(i, TurnedTile(tile, walls))
            else:
                slots[i] = TurnedTile(tile, walls)
            self.data(state).turning = True

    def _straighten(self, state: GameState) -> None:
        """At the end of a turn, a turned building that is not in an Alhambra (placed in the
        reserve, given away, never built, taken out by a redesign) is the printed tile again:
        the turn belongs to building it in ("gedreht einzubauen")."""
        data = self.data(state)
        if not data.turning:
            return
        data.turning = False
        for p in state.players:  # (the reserves through their methods: the change notice)
            for i, x in enumerate(p.reserve):
                if isinstance(x, TurnedTile):
                    p.reserve_set(i, x.carried_tile)
        holders: list[list[Any]] = []
        if state.dirk is not None:
            holders.append(state.dirk)
        if state.turn is not None:
            holders.append(state.turn.pending)
        for slots in holders:
            for i, x in enumerate(slots):
                if isinstance(x, TurnedTile):
                    slots[i] = x.carried_tile
        data.turning = any(
            isinstance(x, TurnedTile) for p in state.players for _at, x in p.alhambra.items()
        )

    def _patron_findings(
        self, ctx: Any, player: PlayerState, frm: Any, to: Any, pos: Any
    ) -> list[Finding]:
        """Bauherr: "Erlaubt eine Umbauaktion; hierbei darf auch innerhalb der Alhambra
        umgebaut werden (ein Gebäude an einen anderen Platz legen). Alle Bauregeln müssen dabei
        sowohl für den alten als auch den neuen Bauplatz beachtet und eingehalten werden."
        (L3144-3148): the building leaves its place (the rules for removing it) and enters the
        new one (the rules for building it there, with the old place empty)."""
        from referee.engine.actions.building import FOUNTAIN, problems_as_findings
        from referee.engine.actions.redesign import REDESIGN
        from referee.engine.context import Context
        from referee.engine.turns import redesign_findings

        state = ctx.state
        out: list[Finding] = []
        if self.option("bauherr") == "action":
            out += redesign_findings(state, pos, player, REDESIGN)
        present = player.alhambra.get(frm)
        if frm == FOUNTAIN:
            return [*out, problem("REMOVE-FOUNTAIN", pos, player.name, at=str(frm))]
        if present is None or player.alhambra.get(to) is not None or to == FOUNTAIN:
            where: dict[str, Any] = {"at": str(frm), "to": str(to)}
            if present is None:
                return [*out, problem("HANDWERKER-MOVE", pos, player.name, reason="empty", **where)]
            return [*out, problem("HANDWERKER-MOVE", pos, player.name, reason="taken", **where)]
        tile = present if isinstance(present, TileKind) else None
        problems = ctx.decide(Decision.REMOVE_PROBLEMS, player=player, at=frm, piece=present)
        out += problems_as_findings(problems, tile, frm, player, pos)
        trial = state.copy()
        moved = trial.players[player.index]
        moved.alhambra.remove(frm)
        problems = Context(trial, pos).decide(
            Decision.PLACE_PROBLEMS, player=moved, at=to, piece=present, how="build"
        )
        out += problems_as_findings(problems, tile, to, player, pos)
        return out

    def _patron(self, state: GameState, player: PlayerState, frm: Any, to: Any) -> None:
        from referee.engine.actions.redesign import REDESIGN
        from referee.engine.turns import end_main_action, start_redesign

        if self.option("bauherr") == "action":
            start_redesign(state)
        present = player.alhambra.piece_at(frm) if isinstance(frm, Coord) else None
        if present is not None and isinstance(to, Coord) and player.alhambra.get(to) is None:
            frm = player.alhambra.anchor_of(frm)
            player.alhambra.remove(frm)
            state.found.extend(state.ext.removed(state, player, frm, present))
            player.alhambra.place(to, present)  # type: ignore[arg-type]  # the piece itself
        if self.option("bauherr") == "action":
            end_main_action(state, REDESIGN)

    def _brick_findings(
        self, ctx: Any, player: PlayerState, ref: Any, at: Any, pos: Any, common: Any
    ) -> list[Finding]:
        """Ziegelmacher: "Erlaubt es, 1 in diesem Spielzug gekauftes Gebäude gegen 1 schon in
        der Alhambra eingebautes Gebäude zu tauschen (alle Bauregeln müssen dabei beachtet
        werden!)." (L3157-3160)"""
        from referee.engine.actions.building import FOUNTAIN, problems_as_findings

        state = ctx.state
        t = state.turn
        bought = self._pending(state, ref)
        if bought is None:
            pending = " ".join(x.code for x in (t.pending if t else []) if x is not None)
            return [
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="bought",
                    got=token_text(ref),
                    pending=pending or "-",
                    **common,
                )
            ]
        if at == FOUNTAIN:
            return [problem("REMOVE-FOUNTAIN", pos, player.name, at=str(at))]
        present = player.alhambra.get(at)
        if present is None:
            return [problem("REDESIGN-SWAP-EMPTY", pos, player.name, at=str(at))]
        problems = ctx.decide(
            Decision.PLACE_PROBLEMS, player=player, at=at, piece=bought, how="swap"
        )
        return list(problems_as_findings(problems, bought, at, player, pos))

    def _pending(self, state: GameState, ref: Any) -> TileKind | None:
        t = state.turn
        if t is None or not isinstance(ref, TileRef):
            return None
        return next((x for x in t.pending if x is not None and x in ref.candidates), None)

    def _brick(self, state: GameState, player: PlayerState, ref: Any, at: Any) -> None:
        """The bought building takes the place; the replaced one is placed or reserved next
        ("Das ersetzte Plättchen baut der Spieler dann unter Beachtung der Bauregeln
        unmittelbar wieder in seine Alhambra ein oder legt es in seine Reserve", L3160-3163)."""
        t = state.turn
        bought = self._pending(state, ref)
        present = player.alhambra.piece_at(at) if isinstance(at, Coord) else None
        if t is None or bought is None or present is None or not isinstance(at, Coord):
            return
        at = player.alhambra.anchor_of(at)
        player.alhambra.remove(at)
        state.found.extend(state.ext.removed(state, player, at, present))
        player.alhambra.place(at, bought)
        t.pending.remove(bought)
        # placed or reserved next, as printed (a turned one is turned only where it was built)
        t.pending.append(printed(present))
        t.placing = True

    def _minter_findings(
        self, state: GameState, player: PlayerState, args: list[Any], pos: Any, common: Any
    ) -> list[Finding]:
        """Münzer: "Erlaubt, 1 Gebäude mit einer Kombination aus Geld aus der Hand und/oder der
        Auslage zu kaufen." (L3165-3167): the display cards named lie in the display."""
        out: list[Finding] = []
        left = [c for c in state.display if c is not None]
        for a in args:
            card = a.card if isinstance(a, CardRef) else None
            if card is None or card not in left:
                out.append(
                    problem(
                        "HANDWERKER-ARGS",
                        pos,
                        player.name,
                        reason="shown",
                        got=token_text(a),
                        display=fmt_cards(state.display),
                        **common,
                    )
                )
            else:
                left.remove(card)
        return out

    def _mint(self, state: GameState, player: PlayerState, args: list[Any]) -> None:
        data = self.data(state)
        for a in args:
            card = a.card if isinstance(a, CardRef) else None
            if card is not None and card in state.display:
                state.display.remove(card)
                player.hand[card] += 1
                data.minted.append(card)

    def _unmint(self, state: GameState, player: PlayerState, spent: list[Any], pos: Any) -> None:
        """Display cards the Münzer took and the purchase did not spend go back to the display
        (reported: they were taken to pay "1 Gebäude")."""
        data = self.data(state)
        rest = list(data.minted)
        for c in spent:
            if c in rest:
                rest.remove(c)
        data.minted = []
        if rest and state.checking:
            state.flag(
                "HANDWERKER-ARGS",
                pos,
                player.name,
                reason="unspent",
                got=" ".join(c.code for c in rest),
                craftsman=kind_text(MINTER),
            )
        for c in rest:
            if player.hand[c] > 0:
                player.hand[c] -= 1
                player.hand += Counter()
                state.display.append(c)

    # ------------------------------------------------------------------ the Schmied

    @refines(Decision.DISPLAY_SIZE)
    def smith_display(self, ctx: Any, size: int, **_: Any) -> int:
        """While the Schmied turns cards up, the display holds 6 ("wird sofort auf 6 Karten
        erweitert", L3151-3152); at every other moment (the refill at a turn's end) the
        usual 4: a display of 5 or 6 is not refilled, one of fewer than 4 is refilled to 4
        ("erst wieder wie gewohnt auf 4 Karten aufgefüllt, wenn am Ende eines Spielzuges
        weniger als 4 Geldkarten offen ausliegen", L3152-3154)."""
        return max(int(size), SMITH_SIZE) if self.data(ctx.state).widening else size

    def _smith_refs(self, action: ModuleAction) -> tuple[list[Any], list[Any]]:
        """The cards a ``schmied`` line turns up (``?``: a card nobody named) and the arguments
        that are no card."""
        refs: list[Any] = []
        bad: list[Any] = []
        for a in action.args:
            v = a.value
            if isinstance(v, str) and v == UNKNOWN:
                refs.append(CardRef(None, a.pos or action.pos))
            elif isinstance(v, CardRef | ScoringCardRef | ComponentRef):
                refs.append(v)
            else:
                bad.append(v)
        return refs, bad

    def _smith_want(self, ctx: Any) -> int:
        """How many cards the Schmied turns up: up to 6 in the display, as many as the deck
        still holds (reading: no reshuffle inside the turn, the next refill reshuffles as
        usual)."""
        state = ctx.state
        want = max(0, SMITH_SIZE - int(ctx.decide(Decision.DISPLAY_OCCUPIED)))
        return want if state.deck_uncertain else min(want, state.deck_size)

    def _smith_findings(
        self, ctx: Any, player: PlayerState, action: ModuleAction, common: Any
    ) -> list[Finding]:
        """Schmied: "Die Auslage der Geldkarten wird sofort auf 6 Karten erweitert." (L3151-3152):
        ``schmied Di3 Gu5`` names the cards turned up, in order (a scoring card ``W1``/``W2``
        among them takes no place and is scored at the end of the turn, L3154-3156)."""
        state = ctx.state
        pos = action.pos
        refs, bad = self._smith_refs(action)
        out = [
            problem(
                "HANDWERKER-ARGS", pos, player.name, reason="smith-card", got=_written(v), **common
            )
            for v in bad
        ]
        places = sum(1 for r in refs if not isinstance(r, ScoringCardRef))
        want = self._smith_want(ctx)
        if places != want and not (state.deck_uncertain and places < want):
            out.append(
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="smith-count",
                    got=places,
                    want=want,
                    display=fmt_cards(state.display),
                    **common,
                )
            )
        return out

    def _smith(self, state: GameState, action: ModuleAction) -> None:
        """The cards turned up join the display (checked like a refill line's: the deck, the
        scoring card's pile); a scoring card is due at the end of the turn: the record writes
        its scoring after the turn's refill, as after any refill ("Sollte dabei eine Wertung
        aufgedeckt werden, so wird sie am Ende des Spielerzuges abgehandelt", L3154-3156)."""
        from referee.engine.context import Context
        from referee.engine.core import reveal_display

        refs, _bad = self._smith_refs(action)
        want = self._smith_want(Context(state, action.pos))
        shown: list[Any] = []
        for r in refs:  # more cards than places: the first ones (HANDWERKER-ARGS smith-count)
            if not isinstance(r, ScoringCardRef):
                if want <= 0:
                    break
                want -= 1
            shown.append(r)
        data = self.data(state)
        data.widening = True
        try:
            reveal_display(state, DisplayReveal(tuple(shown), action.pos), action.pos)
        finally:
            data.widening = False

    def _fields(self, args: list[Any]) -> list[int | None]:
        out: list[int | None] = []
        for a in args:
            cur = Currency.of_code(a) if isinstance(a, str) else None
            out.append(None if cur is None else cur.field - 1)
        return out

    def _mortar_findings(
        self, state: GameState, player: PlayerState, args: list[Any], pos: Any, common: Any
    ) -> list[Finding]:
        """ "Tauscht 2 Gebäude auf dem Bauhof miteinander aus." (L3138-3139)"""
        out: list[Finding] = []
        fields = self._fields(args)
        for raw, i in zip(args, fields, strict=True):
            if i is None or state.market[i] is EMPTY:
                out.append(
                    problem(
                        "HANDWERKER-ARGS", pos, player.name, reason="field", got=str(raw), **common
                    )
                )
        if not out and fields[0] == fields[1]:
            got = str(args[0])
            out.append(
                problem("HANDWERKER-ARGS", pos, player.name, reason="same", got=got, **common)
            )
        return out

    def _mason_findings(
        self, state: GameState, player: PlayerState, args: list[Any], pos: Any, common: Any
    ) -> list[Finding]:
        """ "Erlaubt es, zu Beginn des Zuges eine Geldkarte von der Hand mit einer ausliegenden
        Geldkarte der gleichen Währung zu tauschen." (L3141-3143)"""
        mine, shown = args
        out: list[Finding] = []
        if mine.card is not None and player.hand[mine.card] <= 0 and not player.hand_unknown:
            out.append(
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="hand",
                    got=mine.card.code,
                    hand=fmt_cards(player.hand.elements()),
                    **common,
                )
            )
        if shown.card is None or shown.card not in state.display:
            out.append(
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="display",
                    got=_written(shown),
                    display=fmt_cards(state.display),
                    **common,
                )
            )
        if (
            mine.card is not None
            and shown.card is not None
            and mine.card.currency is not shown.card.currency
        ):
            out.append(
                problem(
                    "HANDWERKER-ARGS",
                    pos,
                    player.name,
                    reason="currency",
                    got=mine.card.code,
                    other=shown.card.code,
                    **common,
                )
            )
        return out

    def _handover_findings(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        pos = action.pos
        if not action.args:
            return []  # VERB-ARGS
        value = action.args[0].value
        kind = parse_kind(value)
        if kind is None:
            if isinstance(value, ComponentRef):
                return [problem("HANDWERKER-TOKEN", pos, player.name, **self._token_args(value))]
            return []
        t = state.turn
        if t is not None and t.interrupt is not None:
            return [
                problem(
                    "HANDWERKER-HANDOVER", pos, player.name, reason="out-of-turn", token=token(kind)
                )
            ]
        out = self._open_findings(state, player, kind, pos, "handover")
        used = self.data(state).used.get(player.name)
        if used is not None and t is not None and used[0] == t.number and used[1] != kind:
            out.append(
                problem(
                    "HANDWERKER-HANDOVER",
                    pos,
                    player.name,
                    reason="not-used",
                    token=token(kind),
                    used=token(used[1]),
                )
            )
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        t = state.turn
        turn_no = t.number if t is not None else state.turn_no
        kind = self._kind_of(action.verb)
        data = self.data(state)
        if kind is None:
            handed = parse_kind(action.args[0].value) if action.args else None
            if handed is not None and (t is None or t.interrupt is None):
                self._reveal(state, player, handed)
                self._pass_on(state, player, handed, turn_no)
            return []
        if t is None or t.interrupt is not None:
            return []
        self._reveal(state, player, kind)
        data.used[player.name] = (turn_no, kind)
        args = [a.value for a in action.args]
        if kind == GOLD:
            data.gold = (player.name, turn_no)
        elif kind == CARPENTER and args and args[0] in (1, 2):
            data.discount = (player.name, turn_no, int(args[0]))
        elif kind == MORTAR and len(args) == 2:
            i, j = self._fields(args)
            if i is not None and j is not None:
                state.market[i], state.market[j] = state.market[j], state.market[i]
        elif kind == MASON and len(args) == 2:
            self._mason(state, player, args[0], args[1])
        elif kind == PATRON and len(args) == 2:
            self._patron(state, player, args[0], args[1])
        elif kind == BRICK and len(args) == 2:
            self._brick(state, player, args[0], args[1])
        elif kind == MINTER:
            self._mint(state, player, [a for a in args if isinstance(a, CardRef)])
        elif kind == SMITH:
            self._smith(state, action)
        elif kind == MOSAIC and len(args) == 2:
            self._mosaic(state, player, args[0], args[1])
        return []

    def _mason(self, state: GameState, player: PlayerState, mine: Any, shown: Any) -> None:
        if not isinstance(mine, CardRef) or not isinstance(shown, CardRef):
            return
        if shown.card is None or shown.card not in state.display:
            return
        if mine.card is not None and player.hand[mine.card] > 0:
            player.hand[mine.card] -= 1
            player.hand += Counter()
        elif player.hand_unknown:
            player.hand_unknown -= 1
        else:
            return
        at = state.display.index(shown.card)
        state.display[at] = mine.card
        player.hand[shown.card] += 1

    # ------------------------------------------------------------------ the abilities' rules

    def _active(self, state: GameState, mark: tuple[Any, ...] | None, player: Any) -> bool:
        t = state.turn
        return (
            mark is not None
            and t is not None
            and t.interrupt is None
            and player is not None
            and mark[0] == player.name
            and mark[1] == t.number
        )

    @refines(Decision.TAKE_LIMIT)
    def goldsmith_limit(self, ctx: Any, limit: int, *, player: Any = None, **_: Any) -> int:
        """Goldschmied: "Erlaubt, sich weitere Geldkarten bis zu einem Gesamtwert von 8 (statt
        5) zu nehmen." (L3135-3136)"""
        state = ctx.state
        if self._active(state, self.data(state).gold, player):
            return max(int(limit), int(_data()["take_limit_goldschmied"]))
        return limit

    def _discounted(self, state: GameState, player: Any, purchase: Any) -> int:
        mark = self.data(state).discount
        if purchase is None or not self._active(state, mark, player):
            return 0
        if getattr(purchase, "offer", None) is not None or purchase.field is None:
            return 0  # "eines ausliegenden Gebäudes": a building on the market
        assert mark is not None
        return int(mark[2])

    @refines(Decision.PAY_PRICE)
    def carpenter_price(
        self, ctx: Any, price: int, *, player: Any = None, purchase: Any = None, **_: Any
    ) -> int:
        """Schreiner: "Verringert beim Bezahlen den Kaufpreis eines ausliegenden Gebäudes um 1
        oder 2." (L3131-3133); an exact payment is exact against the lowered price."""
        off = self._discounted(ctx.state, player, purchase)
        return max(0, int(price) - off) if off else price

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """The lowered price serves one purchase ("eines ausliegenden Gebäudes"); the display
        cards the Münzer took serve this one purchase ("1 Gebäude")."""
        state = ctx.state
        if self._discounted(state, purchase.player, purchase):
            self.data(state).discount = None
        if self.data(state).minted:
            pos = purchase.action.pos
            self._unmint(state, purchase.player, list(purchase.cards_paid), pos)

    # ------------------------------------------------------------------ positions, view

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``craftsmen hw:goldschmied hw:schreiner [down hw:schmied]`` in a player's section;
        ``mosaikleger C7ne sw``: the C7ne of the player's Alhambra lies turned."""
        if player is not None and self._kind_of(line.verb) == MOSAIC:
            self._position_turned(state, player, line)
            return True
        if player is None or line.verb.lower() not in (DEAL, "handwerker"):
            return False
        args = list(line.args)
        used = next(
            (
                i
                for i, a in enumerate(args)
                if isinstance(a.value, str) and a.value.lower() in USED_WORDS
            ),
            len(args),
        )
        args, used_args = args[:used], args[used + 1 :]
        split = next(
            (
                i
                for i, a in enumerate(args)
                if isinstance(a.value, str) and a.value.lower() in DOWN_WORDS
            ),
            len(args),
        )
        data = self.data(state)
        if player.name in data.dealt:
            held = " ".join(token(k) for k in self.held_open(state, player)) or "-"
            state.flag("HANDWERKER-DEAL", line.pos, player.name, reason="twice", held=held)
            return True
        data.dealt.append(player.name)
        t = state.turn
        # the mover's hand-over made in the open turn ("Am Ende seines Zuges gibt er den
        # benutzten Handwerker ... weiter"): the block's engine line `abilities PLAYER handover`
        # (read before the players' sections) states it; the craftsmen lines state where the
        # craftsman went, so the turn's end passes nothing on again
        if (
            t is not None
            and t.player == player.index
            and t.number in state.abilities.get((player.index, HANDOVER), ())
        ):
            data.handed[player.name] = t.number
        data.open[player.name] = self._tokens(state, args[:split], line.pos, player.name)
        data.down[player.name] = self._tokens(state, args[split + 1 :], line.pos, player.name)
        self._supply(state, line.pos, player.name)
        if used < len(line.args):
            self._position_used(state, player, used_args, line.pos)
        return True

    def _position_used(self, state: GameState, player: PlayerState, args: Any, pos: Any) -> None:
        """``used hw:KIND [AMOUNT]`` after the craftsmen of a ``craftsmen`` line (a moment
        inside the open turn): the craftsman whose ability this turn used, passed on at its
        end; AMOUNT: the Schreiner's discount not spent yet; a Goldschmied's limit of 8 holds
        for the rest of the turn."""
        values = [a.value for a in args]
        kind = parse_kind(values[0]) if values else None
        amount = values[1] if len(values) == 2 else None
        if kind is None or len(values) > 2 or (amount is not None and amount not in (1, 2)):
            form = "'craftsmen ... used hw:KIND' ('used hw:schreiner 1|2')"
            state.flag("POSITION-INVALID", pos, player.name, reason="turn-state", form=form)
            return
        t = state.turn
        turn_no = t.number if t is not None else state.turn_no
        data = self.data(state)
        data.used[player.name] = (turn_no, kind)
        if kind == GOLD:
            data.gold = (player.name, turn_no)
        elif kind == CARPENTER and amount is not None:
            data.discount = (player.name, turn_no, int(amount))

    def _position_turned(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        """``mosaikleger C7ne sw`` in a player's section: the C7ne the Alhambra lines state lies
        with the walls ``sw`` (built in turned by the Mosaikleger); inside the player's open
        turn, also a C7ne bought this turn (``bought``) or in the reserve, turned and not built
        in yet (as the ``mosaikleger`` line left it). A building found in none of these, or
        walls that are no rotation of it, are ``HANDWERKER-TURNED``."""
        from referee.engine.orientation import rotations

        args = [a.value for a in line.args]
        ref = args[0] if args else None
        walls = read_walls(args[1]) if len(args) == 2 else None
        cands = ref.candidates if isinstance(ref, TileRef) and ref.known else ()
        cells = list(player.alhambra.items())
        at = next((c for c, x in cells if type(x) is TileKind and x in cands), None)
        tile = player.alhambra.get(at) if at is not None else None
        if at is None and walls is not None:  # a moment inside a turn: turned, not built yet
            found = self._to_turn(state, player, ref) if self._moving(state, player) else None
            if found is not None and walls in rotations(found[0][found[1]].walls):
                self._mosaic(state, player, ref, args[1])
                return
        if (
            at is None
            or not isinstance(tile, TileKind)
            or walls is None
            or walls not in rotations(tile.walls)
        ):
            got = " ".join(token_text(a) if isinstance(a, TileRef) else _written(a) for a in args)
            state.flag("HANDWERKER-TURNED", line.pos, player.name, got=got)
            return
        if walls == tile.walls:
            return
        # the cell keeps its place among the cells (the order a position writes them in); the
        # fountain stays where it is
        rest = [(c, x) for c, x in cells if c != Coord(0, 0)]
        later = rest[[c for c, _x in rest].index(at) + 1 :]
        for c, _x in later:
            player.alhambra.remove(c)
        player.alhambra.remove(at)
        player.alhambra.place(at, TurnedTile(tile, walls))
        for c, x in later:
            player.alhambra.place(c, x)
        self.data(state).turning = True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        if player is None:
            return []
        out: list[ModuleAction] = []
        shown = self.held_open(state, player)
        down = self.held_down(state, player)
        if shown or down:
            args = [token_arg(k) for k in shown]
            if down:
                args += [GenericArg("down"), *(token_arg(k) for k in down)]
            args += self._used_args(state, player)
            out.append(ModuleAction(DEAL, tuple(args)))
        turned = [x for _at, x in player.alhambra.items() if isinstance(x, TurnedTile)]
        t = state.turn
        if self._moving(state, player) and t is not None:  # inside a turn: not built in yet
            turned += [x for x in (*t.pending, *player.reserve) if isinstance(x, TurnedTile)]
        for x in turned:
            tile = x.carried_tile
            ref = TileRef(tile.type, tile.price, tile.walls, (tile,))
            out.append(ModuleAction(MOSAIC, (GenericArg(ref), GenericArg(walls_word(x.walls)))))
        return out

    @staticmethod
    def _moving(state: GameState, player: PlayerState) -> bool:
        """Whether ``player`` is the one whose turn is open (a position inside a turn)."""
        t = state.turn
        return t is not None and t.player == player.index

    def _used_args(self, state: GameState, player: PlayerState) -> list[GenericArg]:
        """``used hw:KIND [AMOUNT]``: the craftsman the open turn used (its Schreiner's
        discount when not spent yet), read back by :meth:`_position_used`."""
        t = state.turn
        data = self.data(state)
        used = data.used.get(player.name)
        if t is None or used is None or used[0] != t.number:
            return []
        out = [GenericArg("used"), token_arg(used[1])]
        d = data.discount
        if used[1] == CARPENTER and d is not None and d[:2] == (player.name, t.number):
            out.append(GenericArg(d[2]))
        return out

    def view(self, state: GameState) -> dict[str, Any]:
        """The craftsmen in play and each player's open and face-down craftsmen, in words."""
        n = len(state.players)
        data = self.data(state)
        players: dict[str, dict[str, object]] = {}
        t = state.turn
        for p in state.players:
            shown = self.held_open(state, p)
            down = self.held_down(state, p)
            if not shown and not down:
                continue
            part: dict[str, object] = {
                "open craftsmen": _words(shown),
                "face down": _words(down) if down else "-",
            }
            used = data.used.get(p.name)
            if used is not None and t is not None and used[0] == t.number:
                part["used this turn"] = _words([used[1]])
            players[p.name] = part
        return self.shown({"craftsmen in play": f"{in_play(n)} / 13"}, players)

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """The craftsmen in front of the player, for his area in the drawings."""
        shown = self.held_open(state, player)
        down = self.held_down(state, player)
        if not shown and not down:
            return []
        o, d = _words(shown), _words(down)
        en = f"craftsmen: {o['en']}" + (f"; face down: {d['en']}" if down else "")
        de = f"Handwerker: {o['de']}" + (f"; verdeckt: {d['de']}" if down else "")
        return [(en, de)]

    # ------------------------------------------------------------------ legal moves

    def _own_turn(self, state: GameState, player: PlayerState) -> bool:
        t = state.turn
        return t is not None and t.interrupt is None and t.player == player.index

    def _choices(self, state: GameState, player: PlayerState) -> list[str]:
        """The kinds ``player`` may name as an open craftsman now (an unknown one may be any
        kind the supply still has)."""
        shown = self.held_open(state, player)
        out = [k for k in shown if k is not None]
        if None in shown:
            out += [k for k in self.available(state) if k not in out]
        return out

    def _abilities(self, state: GameState, player: PlayerState) -> list[ModuleAction]:
        from referee.engine.context import Context

        t = state.turn
        data = self.data(state)
        if t is None:  # the simulator asks before the turn begins (its first act)
            from referee.engine.legal import mover

            if mover(state) is not player:
                return []
            number = state.turn_no + 1
        elif not self._own_turn(state, player) or t.main_actions or t.placing:
            return []
        else:
            number = t.number
        if data.used.get(player.name, (0, ""))[0] == number:
            return []
        if data.handed.get(player.name) == number:
            return []
        out: list[ModuleAction] = []
        for kind in self._choices(state, player):
            if kind == GOLD:
                out.append(ModuleAction(GOLD, ()))
            elif kind == CARPENTER:
                out += [ModuleAction(CARPENTER, (GenericArg(n),)) for n in (1, 2)]
            elif kind == MORTAR:
                full = [i for i, s in enumerate(state.market) if s is not EMPTY]
                out += [
                    ModuleAction(
                        MORTAR,
                        (
                            GenericArg(Currency.of_field(i + 1).value),
                            GenericArg(Currency.of_field(j + 1).value),
                        ),
                    )
                    for i in full
                    for j in full
                    if i < j
                ]
            elif kind == MASON:
                out += self._mason_moves(state, player)
            elif kind == SMITH:
                want = self._smith_want(Context(state))
                if want > 0:
                    out.append(ModuleAction(SMITH, tuple(GenericArg(UNKNOWN) for _ in range(want))))
            elif kind == MOSAIC:
                out += _turnings(player.reserve)  # "auch aus der Reserve"
        return out

    def _mosaic_after_purchase(self, state: GameState, player: PlayerState) -> list[ModuleAction]:
        """The Mosaikleger for a building bought this turn and not yet placed (the ability is
        open all turn; the other abilities are generated before the first action only)."""
        t = state.turn
        data = self.data(state)
        if not self._own_turn(state, player) or t is None or not t.pending:
            return []
        if data.used.get(player.name, (0, ""))[0] == t.number:
            return []
        if data.handed.get(player.name) == t.number or MOSAIC not in self._choices(state, player):
            return []
        return _turnings(t.pending)

    def _mason_moves(self, state: GameState, player: PlayerState) -> list[ModuleAction]:
        out: list[ModuleAction] = []
        shown = sorted({c for c in state.display if c is not None}, key=lambda c: c.sort_key)
        mine = sorted(set(player.hand.elements()), key=lambda c: c.sort_key)
        for c in mine:
            for d in shown:
                if c.currency is d.currency and c != d:
                    out.append(
                        ModuleAction(MASON, (GenericArg(CardRef(c)), GenericArg(CardRef(d))))
                    )
        return out

    def _handovers(self, state: GameState, player: PlayerState) -> list[ModuleAction]:
        t = state.turn
        data = self.data(state)
        if not self._own_turn(state, player) or t is None or not t.main_actions or t.pending:
            return []
        if data.handed.get(player.name) == t.number:
            return []
        used = data.used.get(player.name)
        if used is not None and used[0] == t.number:
            names = [used[1]] if self._opening(state, player, used[1]) else []
        else:
            names = self._choices(state, player)
        return [ModuleAction(HANDOVER, (token_arg(k),)) for k in names]

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """An open craftsman's ability before the turn's first action (the generator's
        choice; the rule allows them later in the turn too, except the Steinmetz), and the
        hand-over once the turn has acted and its buildings are placed."""
        state = ctx.state
        return [
            *self._abilities(state, player),
            *self._mosaic_after_purchase(state, player),
            *self._handovers(state, player),
        ]

    owed_before = "turn-end"

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """The hand-over, owed before the turn ends: once the turn has acted and its
        buildings are placed (an exact purchase of a piece that is not placed, a
        caravanserai card, leaves nothing to place: then at once)."""
        state = ctx.state
        t = state.turn
        if t is None or not (t.over or t.placing or not t.pending):
            return []
        return self._handovers(state, player)

    def sim_turn_start(self, sim: Any, player: PlayerState) -> list[Any]:
        """A simulated player may use an open craftsman's ability as the first act. The
        Schmied names the cards on top of the simulator's deck (``SimContext.deck``; it
        leaves them out when a scoring card or a module's card lies among them, or the deck
        is short: the refill then plays those)."""
        out: list[Any] = []
        turnings: list[Any] = []
        for move in self._abilities(sim.state, player):
            if move.verb == MOSAIC:
                turnings.append(move)
                continue
            if move.verb != SMITH:
                out.append(move)
                continue
            top = list(sim.deck[: len(move.args)])
            if len(top) == len(move.args) and all(isinstance(c, MoneyCard) for c in top):
                out.append(ModuleAction(SMITH, tuple(GenericArg(CardRef(c)) for c in top)))
        if turnings:  # one building of the reserve turned, as often as one other ability
            out.append(sim.rng.choice(turnings))
        return out

    def sim_setup(self, sim: Any) -> list[Any]:
        """Two craftsmen for every player, from those in play shuffled (the start player's
        third lies face down: unknown)."""
        state = sim.state
        n = len(state.players)
        pool = list(kinds())
        pool += sim.rng.sample(pool, in_play(n) - len(pool))
        sim.rng.shuffle(pool)
        out: list[Any] = []
        for p in state.players:
            got = [pool.pop(), pool.pop()]
            args = (GenericArg(p.name), *(token_arg(k) for k in got))
            out.append(ModuleChance(DEAL, args))
        return out


def _turnings(slots: list[Any]) -> list[ModuleAction]:
    """``mosaikleger C7ne sw`` for each catalogue tile of ``slots`` and each of its rotations
    but the printed one."""
    from referee.engine.orientation import rotations

    out: list[ModuleAction] = []
    for x in slots:
        if type(x) is not TileKind:
            continue
        ref = TileRef(x.type, x.price, x.walls, (x,))
        for walls in rotations(x.walls)[1:]:
            out.append(ModuleAction(MOSAIC, (GenericArg(ref), GenericArg(walls_word(walls)))))
    return out


def _words(held: list[str | None]) -> dict[str, str]:
    """Craftsmen in words, English and German (``?``: unknown)."""
    from referee.messages import value

    parts = Join(
        tuple(
            kind_text(k) if k is not None else Text("HANDWERKER-TOKEN.kind/unknown") for k in held
        )
    )
    return {"en": str(value("en", parts)) or "-", "de": str(value("de", parts)) or "-"}


__all__ = ["Handwerker"]
