"""Die Gebäude der Macht (buildings of power): twelve special tiles in the tower, each
replacing a base tile of the same face; a purchase allows its function once at the end of the
turn. Rulebook: ``rulebook-bigbox-de-2019.txt`` § Mike Elliott: Die Gebäude der Macht (text
L3605-3657, L3663-3706, heading L3658-3659); rulings and limits: ``docs/modules/machtgebaeude.md``.

Notation:

* ``* market Di:gm:wh_T9ne`` -- a special tile drawn: ``gm:`` + its function (``bk`` Baukunst,
  ``ws`` Weisheit, ``wh`` Wehrhaftigkeit, ``wo`` Wohlstand) + ``_`` + the base tile it replaces
  (the table in ``machtgebaeude.yaml``, picture-only, unverified). It is bought, built, kept in the
  reserve like that base tile (``buy Di gm:wh_T9ne pay Di9``, ``place gm:wh_T9ne@1,0``).
* ``* roll Anna black 4`` / ``* roll Anna white 5`` -- the die rolled "sofort nach dem Erwerb"
  (L3663-3665, L3672-3674), written after the purchase's turn (before or after its refill); the
  die lies on the tile. Dirk never rolls (L3699).
* ``buy Di A9 pay Di8 gm:white5`` -- one white die (showing 5) used in a purchase: the price is
  1 lower, the die turns down to 4 (after 1 it leaves the game), at most one per turn
  (L3675-3682).
* ``* roll Ben red 3, hide Ben Du C5 back T7 A5`` -- Baukunst (after the refill): the red die,
  the tile hidden under the Dukaten field, the tiles put back into the tower (L3605-3617); the
  next refill of that field turns it up (``* market Du:C5``); at the end the field's two tiles
  go to the most and second-most money (``distribute Du:G11 Anna reserve, Du:C5 Ben reserve``,
  L3686-3697).
* ``* roll Anna red 3, wisdom Anna keep Di5 play W1 back De3 Gu7`` -- Weisheit (after the
  refill): the red die, the card kept (into the hand), a scoring card played (optional), the
  cards put back on the deck, top first (L3621-3633).
* position blocks: ``dice wh_T9ne black 4`` (the die on a special tile the player owns),
  ``dice out white 2`` (white dice that left the game), ``hidden Du C5`` (a hidden tile).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from referee.catalogue import BuildingType, Side, TileKind, catalogue
from referee.engine.actions.purchase import Purchase
from referee.engine.context import Context
from referee.engine.findings import Finding, problem
from referee.engine.ruleset import Decision, refines
from referee.engine.state import EMPTY, GameState, PlayerState
from referee.engine.tower import take_from_tower, tower_total
from referee.engine.turns import Moment
from referee.geometry.grid import Alhambra
from referee.geometry.queries import second_longest_wall
from referee.geometry.walls import longest_outer_wall
from referee.modules.base import (
    BundledModule,
    ModulePiece,
    Scratch,
    acts_at,
    bundled,
    module_data,
    named_player,
    token_text,
)
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
    ScoringCardRef,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

DIE_FACES = range(1, 7)


def _line_head(state: GameState, event: Any, verb: str, code: str) -> tuple[Any, str] | None:
    """The player a chance line of this module names first and the line as written (for its
    messages); None when the line names nobody (reported under ``code``, reason ``form``) or
    a player not in the game (reported by ``named_player``)."""
    args = event.args
    if not args:
        state.flag(code, event.pos, None, reason="form", line=verb)
        return None
    player = named_player(state, args[0], event.pos)
    if player is None:
        return None
    return player, f"{verb} " + " ".join(_arg_text(a.value) for a in args)


def _arg_text(value: object) -> str:
    """:func:`token_text`, a scoring card as the record writes it (``W1``)."""
    if isinstance(value, ScoringCardRef):
        return f"W{value.number}"
    return token_text(value)


@dataclass(frozen=True, slots=True)
class WallPoints:
    """The wall points of an Alhambra with black dice (Gebäude der Wehrhaftigkeit)."""

    longest: int
    second: int
    cap: int  # the sum of the black dice
    points: int


def defence_points(longest: int, second: int, black_dice: Sequence[int]) -> WallPoints:
    """ "Bei einer Wertung darf er ab jetzt 2 Mauerstücke abrechnen: Wie gewöhnlich das längste
    Mauerstück und zusätzlich das zweitlängste. Vom zweitlängsten Mauerstück darf er jedoch
    maximal die Summe seiner schwarzen Würfel anrechnen." (L3666-3671). Without a black die
    only the longest counts (the base rule)."""
    for pips in black_dice:
        if pips not in DIE_FACES:
            raise ValueError(f"a die shows 1-6, not {pips}")
    cap = sum(black_dice)
    extra = min(second, cap) if black_dice else 0
    return WallPoints(longest, second, cap, longest + extra)


def alhambra_defence_points(
    alh: Alhambra, black_dice: Sequence[int], how: str = "rest", mode: Any = "trail"
) -> WallPoints:
    """:func:`defence_points` of an Alhambra: its longest outer wall and its second-longest
    (``how``: ``rest``, the longest run left once the longest is taken away, or ``piece``, the
    longest run of another piece of wall -- the digest's ambiguity (b))."""
    longest = longest_outer_wall(alh, mode).length
    second = second_longest_wall(alh, mode, how).length  # type: ignore[arg-type]
    return defence_points(longest, second, black_dice)


def prosperity_after_use(pips: int) -> int | None:
    """ "Hat er den weißen Würfel benutzt, dreht er ihn um 1 Auge herunter. Nach der 1 geht der
    Würfel aus dem Spiel." (L3680-3682): the die's face after a use (None: out of the game)."""
    if pips not in DIE_FACES:
        raise ValueError(f"a die shows 1-6, not {pips}")
    return pips - 1 if pips > 1 else None


def prosperity_price(price: int, white_dice_used: int) -> int:
    """ "In jedem Zug darf er bei einem Gebäudekauf maximal einen seiner weißen Würfel
    einsetzen. Auch wenn er mehrere besitzt, darf er nur einen einsetzen. Dadurch wird das
    Gebäude um 1 billiger." (L3675-3679)"""
    if white_dice_used not in (0, 1):
        raise ValueError("at most one white die per purchase")
    return price - white_dice_used


@dataclass(frozen=True, slots=True)
class HiddenAward:
    """Who gets the two tiles of a market field with a hidden tile at the end: the player with
    the most money of the currency chooses (``first``), the second-most gets the other
    (``second``); None: the tile(s) leave the game."""

    first: str | None
    second: str | None


def hidden_tile_awards(money: Mapping[str, int]) -> HiddenAward:
    """ "darf sich der Spieler mit dem meisten Geld dieser Währung eines der beiden dort
    liegenden Plättchen aussuchen. Der Spieler mit dem zweitmeisten Geld dieser Währung erhält
    das andere Plättchen. Haben mehrere Spieler das meiste Geld, so gehen beide Plättchen aus dem
    Spiel. Haben mehrere Spieler das zweitmeiste Geld, so geht das übriggebliebene Plättchen aus
    dem Spiel." (L3687-3697). Players with no money of the currency have none to compare (as the
    base leftover distribution: nobody gets a tile for no money)."""
    ranked = sorted(((v, k) for k, v in money.items() if v > 0), reverse=True)
    if not ranked:
        return HiddenAward(None, None)
    top = ranked[0][0]
    tops = [k for v, k in ranked if v == top]
    if len(tops) > 1:
        return HiddenAward(None, None)
    rest = [(v, k) for v, k in ranked if v != top]
    if not rest:
        return HiddenAward(tops[0], None)
    second = rest[0][0]
    seconds = [k for v, k in rest if v == second]
    return HiddenAward(tops[0], seconds[0] if len(seconds) == 1 else None)


# ============================================================================ the module

KIND = "gm"
ROLL = "roll"
DICE = "dice"
HIDE = "hide"
TABLE = "table"
HIDDEN = "hidden"
ONTOP = "ontop"
BACK = "back"
WISDOM = "wisdom"
KEEP = "keep"
PLAY = "play"
WHITE = "white"
BLACK = "black"
RED = "red"
OUT = "out"
DUE = "due"  # a position's ``dice due IDENT ...``: bought, the function still to come
FUNCTIONS = ("bk", "ws", "wh", "wo")
DIE_OF = {"wh": BLACK, "wo": WHITE, "bk": RED, "ws": RED}  # "roten/schwarzen/weißen Würfel"
COLOURS = {"black": BLACK, "schwarz": BLACK, "white": WHITE, "weiss": WHITE, "weiß": WHITE}
COLOURS |= {"red": RED, "rot": RED}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("machtgebaeude")["components"]
    return data


def tile_table() -> dict[str, tuple[str, ...]]:
    """Function -> the base tiles its special tiles replace (YAML, picture-only, unverified)."""
    return {fn: tuple(str(c) for c in codes) for fn, codes in _data()["tiles"].items()}


def dice_supply() -> dict[str, int]:
    """ "7 Würfel (3 weiß, 3 schwarz, 1 rot)" (L3637-3639)."""
    return {str(k): int(v) for k, v in _data()["dice"].items()}


def _base(code: str) -> TileKind | None:
    for t in catalogue().tiles:
        if t.code.lower() == code.lower():
            return t
    return None


@dataclass(frozen=True, slots=True)
class PowerTile(ModulePiece):
    """A special tile: the building, price and walls of the base tile it replaces ("gleiches
    Gebäude, gleicher Preis und gleiche Mauern", L3641-3643) and a function."""

    function: str
    base: str
    kind: BuildingType
    price: int
    walls: frozenset[Side]

    KIND = KIND
    from_tower = True

    @property
    def type(self) -> BuildingType:
        return self.kind

    @property
    def ident(self) -> str:
        return f"{self.function}_{self.base}"

    @property
    def token_name(self) -> str:
        return self.ident

    @property
    def cell_label(self) -> str:
        return f"{self.base}!"

    def named_by(self, name: str) -> bool:
        return name.lower() == self.ident.lower()


def power_tile(name: str, table: Mapping[str, Sequence[str]] | None = None) -> PowerTile | None:
    """``wh_T9ne`` -> the special tile (None: not in the table; ``table``: the game's, else
    the YAML's; :func:`any_power_tile` accepts every base tile)."""
    fn, _, code = name.partition("_")
    fn = fn.lower()
    if fn not in FUNCTIONS:
        return None
    codes = {c.lower(): c for c in (table if table is not None else tile_table())[fn]}
    real = codes.get(code.lower())
    base = _base(real) if real is not None else None
    if base is None or real is None:
        return None
    return PowerTile(fn, real, base.type, base.price, frozenset(base.walls))


def any_power_tile(name: str) -> PowerTile | None:
    """``wh_C7sw``: a special tile of the function on any base tile (a table not yet stated)."""
    fn, _, code = name.partition("_")
    base = _base(code)
    if fn.lower() not in FUNCTIONS or base is None:
        return None
    return power_tile(name, {fn.lower(): (base.code,)})


@dataclass
class PowerScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    dice: dict[str, tuple[str, int]] = field(default_factory=dict)  # tile ident -> die
    gone: int = 0  # white dice out of the game ("Nach der 1 geht der Würfel aus dem Spiel")
    pending: dict[str, list[str]] = field(default_factory=dict)  # player -> tiles bought
    white_turn: set[str] = field(default_factory=set)
    red: dict[str, int] = field(default_factory=dict)  # player -> a red roll not used yet
    hidden: dict[int, object] = field(default_factory=dict)  # market field -> the hidden tile
    # the end: field -> [tiles left on it, the first's name, the second's, known, money shown]
    ends: dict[int, list[Any]] = field(default_factory=dict)
    table: dict[str, tuple[str, ...]] = field(default_factory=dict)  # function -> stated tiles
    unstated: list[tuple[str, Pos, str | None]] = field(default_factory=list)  # in a position


def _white_refs(purchase: Purchase) -> list[ComponentRef]:
    return [r for r in purchase.modules_paid if r.kind.lower() == KIND]


def _white_pips(name: str) -> int | None:
    low = name.lower()
    for word in ("white", "weiss", "weiß"):
        if low.startswith(word) and low[len(word) :].isdigit():
            pips = int(low[len(word) :])
            return pips if pips in DIE_FACES else None
    return None


def owned_tiles(player: PlayerState) -> list[tuple[Coord | None, PowerTile]]:
    """The special tiles in a player's Alhambra (with their cell) and reserve (None)."""
    out: list[tuple[Coord | None, PowerTile]] = []
    if player.alhambra is not None:
        out += [(c, x) for c, x in player.alhambra.items() if isinstance(x, PowerTile)]
    reserve: list[object] = list(player.reserve)
    out += [(None, x) for x in reserve if isinstance(x, PowerTile)]
    return out


@bundled
class Machtgebaeude(BundledModule):
    """Twelve special tiles replacing base tiles; dice rolled for Wehrhaftigkeit (the
    second-longest wall) and Wohlstand (price - 1); Baukunst hides a tile under the market;
    Weisheit draws cards from the deck, keeps one, puts the rest back."""

    chance_verbs = (
        ROLL,
        HIDE,
        TABLE,
        DICE,
        HIDDEN,
        WISDOM,
        ONTOP,
    )  # dice, hidden, ontop: the position blocks' lines
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {
        KIND: ("building of power", "Gebäude der Macht")
    }
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        ROLL: (
            "rolls a die of the buildings of power",
            "würfelt einen Würfel der Gebäude der Macht",
        ),
        DICE: (
            "states a die on a building of power",
            "nennt einen Würfel auf einem Gebäude der Macht",
        ),
        HIDE: (
            "hides a tile under a market field (Gebäude der Baukunst)",
            "legt ein Plättchen verdeckt unter ein Feld des Bauhofs (Gebäude der Baukunst)",
        ),
        TABLE: (
            "states which base tiles a function's special tiles replace",
            "nennt die Basis-Plättchen, die die Spezialplättchen einer Funktion ersetzen",
        ),
        WISDOM: (
            "draws cards from the deck, keeps one and puts the rest back (Gebäude der Weisheit)",
            "zieht Karten vom Stapel, behält eine, legt die übrigen zurück (Gebäude der Weisheit)",
        ),
        HIDDEN: (
            "states a tile hidden under a market field",
            "nennt ein verdecktes Plättchen unter einem Feld des Bauhofs",
        ),
        ONTOP: (
            "states the cards a Weisheit draw put back on top of the deck",
            "nennt die Karten, die ein Zug der Weisheit oben auf den Stapel zurückgelegt hat",
        ),
    }
    component_kinds = (KIND,)
    # a special tile is drawn from the tower like a base tile ("mit den anderen Plättchen
    # zusammengemischt und in den Turm gegeben", L3644-3645): the guards edition's preview
    # board may hold one (docs/modules/machtgebaeude.md, "With the guards edition")
    tower_pieces_previewed = True
    scratch_type = PowerScratch
    piece_type = PowerTile

    def _scratch(self, state: GameState) -> PowerScratch:
        data: PowerScratch = self.data(state)
        return data

    # ------------------------------------------------------------------ the tower (E5)

    def tower_components(self) -> dict[str, int]:
        """ "12 Spezialplättchen" (L3635): one per entry of the table (unverified)."""
        return {f"{fn}_{c}": 1 for fn, codes in tile_table().items() for c in codes}

    def tower_replaces(self) -> dict[str, int]:
        """ "Die aussortierten Basis-Plättchen kommen zurück in die Schachtel" (L3646-3647)."""
        out: dict[str, int] = {}
        for codes in tile_table().values():
            for c in codes:
                out[c] = out.get(c, 0) + 1
        return out

    def tower_piece(
        self, state: GameState, ref: ComponentRef, pos: Pos
    ) -> tuple[str, object] | None:
        piece = self._read(state, ref, pos, None)
        return None if piece is None else (piece.ident, piece)

    def table(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """The game's tile table: the YAML's (unverified), each function a record stated
        replaced (``* table wh A8n C9w T11n``)."""
        stated = self._scratch(state).table
        return {**tile_table(), **stated} if stated else tile_table()

    def _read(
        self, state: GameState, ref: ComponentRef, pos: Pos, who: str | None
    ) -> PowerTile | None:
        table = self.table(state)
        piece = power_tile(ref.name, table) if ref.kind.lower() == KIND else None
        if piece is None:
            state.flag(
                "MACHT-TOKEN", pos, who, token=f"{ref.kind}:{ref.name}", table=_listing(table)
            )
        return piece

    def position_component(
        self, state: GameState, player: PlayerState | None, where: str, ref: ComponentRef
    ) -> tuple[bool, object]:
        if where not in ("market", "reserve", "alhambra") or ref.kind.lower() != KIND:
            return False, None
        who = player.name if player is not None else None
        piece = power_tile(ref.name, self.table(state))
        if piece is None:
            # the block's `table` line (read after the players) may state it
            piece = any_power_tile(ref.name)
            if piece is not None:
                self._scratch(state).unstated.append((piece.ident, ref.pos, who))
                return True, piece
        piece = self._read(state, ref, ref.pos, who)
        if piece is None:
            return True, None
        take_from_tower(state, self, piece.ident, f"{ref.kind}:{ref.name}", ref.pos, who)
        return True, piece

    # ------------------------------------------------------------------ the tile table

    def _state_table(
        self, state: GameState, args: Sequence[GenericArg], pos: Pos, in_position: bool
    ) -> None:
        """``* table wh A8n C9w T11n``: which base tiles the function's special tiles replace
        (picture-only, L3641-3643). Checked against itself ("12 Spezialplättchen", L3635; a
        base tile replaced once) and the supply (the special tile it drops and the base tile
        it takes are still in the tower: "Die aussortierten Basis-Plättchen kommen zurück in
        die Schachtel", L3646-3647); in play the tower then holds the stated tiles."""
        from referee.engine.tower import tower_key

        vals = [token_text(a.value) for a in args]
        line = f"{TABLE} " + " ".join(vals)
        data = self._scratch(state)
        fn = vals[0].lower() if vals else ""
        bases = [_base(v) for v in vals[1:]]
        if fn not in FUNCTIONS or not bases or None in bases:
            state.flag("MACHT-TABLE", pos, None, reason="form", line=line)
            return
        new = tuple(b.code for b in bases if b is not None)
        if len(set(new)) != len(new):
            state.flag("MACHT-TABLE", pos, None, reason="form", line=line)
            return
        old = self.table(state)[fn]
        if fn in data.table and set(data.table[fn]) != set(new):
            state.flag("MACHT-TABLE", pos, None, reason="changed", line=line, old=" ".join(old))
        table = {**self.table(state), fn: new}
        others = [c for f, codes in table.items() if f != fn for c in codes]
        twice = [c for c in new if c in others]
        if twice:
            state.flag("MACHT-TABLE", pos, None, reason="twice", line=line, tiles=" ".join(twice))
        total = sum(len(codes) for codes in table.values())
        if total != 12:
            state.flag("MACHT-TABLE", pos, None, reason="count", line=line, n=total)
        data.table[fn] = new
        if in_position:
            data.unstated = [u for u in data.unstated if power_tile(u[0], table) is None]
            return
        seen: list[str] = []
        for code in old:
            if code in new:
                continue
            key = tower_key(self, f"{fn}_{code}")
            if state.tower[key] > 0:
                state.tower[key] -= 1
                state.bag[_base(code)] += 1  # type: ignore[index]
            else:
                seen.append(f"{KIND}:{fn}_{code}")
        for code in new:
            if code in old:
                continue
            base = _base(code)
            if base is not None and state.bag.get(base, 0) > 0:
                state.bag[base] -= 1
                state.tower[tower_key(self, f"{fn}_{code}")] += 1
            else:
                seen.append(code)
        if seen:
            state.flag("MACHT-TABLE", pos, None, reason="seen", line=line, tiles=" ".join(seen))

    def _unstated(self, state: GameState) -> None:
        """Special tiles a position named on base tiles its table does not have."""
        data = self._scratch(state)
        for ident, pos, who in data.unstated:
            token = f"{KIND}:{ident}"
            state.flag("MACHT-TOKEN", pos, who, token=token, table=_listing(self.table(state)))
        data.unstated.clear()

    def position_scoring(self, ctx: Any, round_no: int) -> None:
        self._unstated(ctx.state)

    # ------------------------------------------------------------------ purchase

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """A special tile bought: its function may be used once ("Jedes Mal, wenn ein Spieler
        eines dieser Plättchen erworben hat, kann er ... einmalig die ... Sonderfunktion
        nutzen", L3652-3656); a white die paid turns down (L3680-3682)."""
        state = ctx.state
        data = self._scratch(state)
        who = purchase.player.name
        if isinstance(purchase.tile, PowerTile):
            data.pending.setdefault(who, []).append(purchase.tile.ident)
        refs = _white_refs(purchase)
        pips = _white_pips(refs[0].name) if refs else None
        if pips is None:
            return
        data.white_turn.add(who)
        for _at, tile in owned_tiles(purchase.player):
            die = data.dice.get(tile.ident)
            if die == (WHITE, pips):
                after = prosperity_after_use(pips)
                if after is None:
                    del data.dice[tile.ident]
                    data.gone += 1
                else:
                    data.dice[tile.ident] = (WHITE, after)
                return

    @refines(Decision.PAY_PRICE)
    def prosperity_discount(self, ctx: Context, price: int, *, purchase: Purchase, **_: Any) -> int:
        """ "Dadurch wird das Gebäude um 1 billiger" (L3679)."""
        refs = _white_refs(purchase)
        if refs and _white_pips(refs[0].name) is not None:
            return prosperity_price(price, 1)
        return price

    @refines(Decision.PAY_PROBLEMS)
    def prosperity_problems(
        self,
        ctx: Context,
        found: list[Finding],
        *,
        player: PlayerState,
        purchase: Purchase,
        **_: Any,
    ) -> list[Finding]:
        refs = _white_refs(purchase)
        if not refs:
            return found
        out = list(found)
        state = ctx.state
        data = self._scratch(state)
        who = player.name
        ref = refs[0]
        pos = ref.pos or purchase.action.pos
        token = f"{ref.kind}:{ref.name}"

        def bad(reason: str, **kw: Any) -> None:
            out.append(problem("MACHT-WHITE", pos, who, reason=reason, token=token, **kw))

        pips = _white_pips(ref.name)
        if len(refs) > 1:
            bad("several")
        if pips is None:
            bad("form")
            return out
        if who in data.white_turn:
            bad("turn")
        faces = [
            data.dice[t.ident][1]
            for _at, t in owned_tiles(player)
            if data.dice.get(t.ident, ("", 0))[0] == WHITE
        ]
        if pips not in faces and player.counts is None:
            shown = " ".join(f"{WHITE}{f}" for f in sorted(faces)) or "-"
            bad("none", dice=shown)
        return out

    # ------------------------------------------------------------------ the rolls

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        """``* roll NAME COLOUR PIPS``: the die rolled for a special tile bought."""
        pos = event.pos
        args = list(event.args)
        verb = event.verb.lower()
        if verb in (DICE, HIDDEN, ONTOP):
            line = f"{verb} " + " ".join(str(a.value) for a in args)
            state.flag("MACHT-POSITION", pos, None, reason="outside", line=line)
            return []
        if verb == HIDE:
            self._hide(state, event)
            return []
        if verb == WISDOM:
            self._wisdom(state, event)
            return []
        if verb == TABLE:
            self._state_table(state, args, pos, in_position=False)
            return []
        if not args:
            state.flag("MACHT-ROLL", pos, None, reason="form", colour="-", pips="-")
            return []
        player = named_player(state, args[0], pos)
        if player is None:
            return []
        who = player.name
        rest = [a.value for a in args[1:]]
        colour = COLOURS.get(str(rest[0]).lower()) if rest else None
        pips = rest[1] if len(rest) == 2 else None
        shown_c = str(rest[0]) if rest else "-"
        shown_p = str(pips) if pips is not None else "-"
        if colour is None or not isinstance(pips, int) or pips not in DIE_FACES:
            state.flag("MACHT-ROLL", pos, who, reason="form", colour=shown_c, pips=shown_p)
            return []
        data = self._scratch(state)
        if colour == RED:
            self._red(state, player, pips, pos)
            return []
        fn = "wh" if colour == BLACK else "wo"
        waiting = [i for i in data.pending.get(who, []) if i.startswith(fn + "_")]
        if not waiting:
            state.flag("MACHT-ROLL", pos, who, reason="no-purchase", colour=colour, pips=pips)
            return []
        on_tiles = sum(1 for c, _p in data.dice.values() if c == colour)
        used = on_tiles + (data.gone if colour == WHITE else 0)
        if used >= dice_supply()[colour]:
            state.flag("MACHT-ROLL", pos, who, reason="supply", colour=colour, pips=pips)
            return []
        ident = waiting[0]
        data.pending[who].remove(ident)
        data.dice[ident] = (colour, pips)
        return []

    def _red(self, state: GameState, player: PlayerState, pips: int, pos: Pos) -> None:
        """``* roll Anna red 3``: the red die of a Gebäude der Baukunst (or der Weisheit) bought
        in the turn just played, rolled "Sobald die Karten und Plättchen aufgefüllt sind"
        (L3606-3608, L3618-3620)."""
        data = self._scratch(state)
        who = player.name
        waiting = [i for i in data.pending.get(who, []) if i[:3] in ("bk_", "ws_")]
        if not waiting or who in data.red:
            state.flag("MACHT-ROLL", pos, who, reason="no-purchase", colour=RED, pips=pips)
            return
        if any(slot is EMPTY for slot in state.market) and state.bag_count > 0:
            state.flag("MACHT-ROLL", pos, who, reason="before-refill", colour=RED, pips=pips)
        data.red[who] = pips

    def _wisdom(self, state: GameState, event: ModuleChance) -> None:
        """``* wisdom Anna keep Di5 play W1 back De3 Gu7``: "zieht so viele Karten vom Stapel,
        wie er Augen gewürfelt hat. Eine davon wählt er aus und behält sie. Die übrigen Karten
        darf er beliebig sortiert auf den Stapel zurücklegen. Falls er eine Wertungskarte zieht,
        darf er diese sofort ausspielen (ohne Ersatz zu bekommen) und damit die Wertung auslösen
        oder mit den übrigen Karten verdeckt auf den Stapel zurücklegen" (L3623-3629,
        L3631-3633): the card kept (into the hand), a scoring card played (scored before the
        next turn, the base path), the cards put back on top of the deck (known to lie in it
        again)."""
        from referee.engine.deck import draw_to_hand, drawn_together, put_on_top, take_off
        from referee.record.model import CardRef

        pos = event.pos
        args = list(event.args)
        head = _line_head(state, event, WISDOM, "MACHT-WISDOM")
        if head is None:
            return
        player, line = head
        who = player.name
        data = self._scratch(state)
        keep: list[Any] = []
        played: list[Any] = []
        back: list[Any] = []
        into: list[Any] | None = None
        for a in args[1:]:
            word = str(a.value).lower() if isinstance(a.value, str) else ""
            if word in (KEEP, PLAY, BACK):
                into = {KEEP: keep, PLAY: played, BACK: back}[word]
            elif into is None:
                into = []  # a card before any keyword: malformed
                break
            else:
                into.append(a.value)
        cards_ok = (
            len(keep) == 1
            and isinstance(keep[0], CardRef)
            and keep[0].card is not None
            and len(played) <= 1
            and all(isinstance(c, ScoringCardRef) for c in played)
            and all(
                isinstance(c, ScoringCardRef) or (isinstance(c, CardRef) and c.card is not None)
                for c in back
            )
        )
        if into is None or not cards_ok:
            state.flag("MACHT-WISDOM", pos, who, reason="form", line=line)
            return
        pips = _take_red_roll(state, data, who, "ws_", "MACHT-WISDOM", pos, line)
        if pips is None:
            return
        scoring_left = sum(1 for n in (1, 2) if n not in state.scoring_seen)
        want = min(pips, max(state.deck_size, 0) + scoring_left)
        drawn = 1 + len(played) + len(back)
        if drawn != want:
            state.flag("MACHT-WISDOM", pos, who, reason="count", line=line, pips=pips, n=want)
        shown = {c.number for c in played} | set(state.scoring_seen)
        for c in back:  # a scoring card put back: not turned up (seen) yet, still in its pile
            if isinstance(c, ScoringCardRef) and (c.number not in (1, 2) or c.number in shown):
                state.flag("MACHT-WISDOM", pos, who, reason="scoring-seen", line=line)
        before = state.money_draws
        # the cards drawn at once (their order not written): the cards on top of the deck,
        # put back there by an earlier draw, come first (engine/deck.py)
        every = [keep[0].card, *(_deck_card(c) for c in played), *(_deck_card(c) for c in back)]
        with drawn_together(state, every, pos):
            # the kept card leaves the deck for the hand (counted as a card drawn)
            draw_to_hand(state, player, keep[0].card, pos)
            again: list[Any] = []
            for c in back:  # drawn (each must be in the deck), then put back on top
                if isinstance(c, CardRef) and c.card is not None:
                    if take_off(state, c.card, pos):
                        again.append(c.card)
                elif isinstance(c, ScoringCardRef):
                    again.append(c.number)
            for c in played:  # "sofort ausspielen ... und damit die Wertung auslösen"
                self._scoring_played(state, c, before, drawn, pos)
            # "Die übrigen Karten darf er beliebig sortiert auf den Stapel zurücklegen"
            # (L3624-3625): the next cards drawn from the deck are these, in any order
            put_on_top(
                state,
                again,
                code="MACHT-WISDOM",
                reason="back-order",
                player=who,
                line=line,
                at=pos.line,
            )
        for c in back:
            if isinstance(c, ScoringCardRef) and state.setup_after > 0:
                # on top of the deck now, it turns up earlier than its pile would let it: its
                # pile bound no longer holds (reading (h) of the docs)
                state.scoring_flagged.add(c.number)

    @staticmethod
    def _scoring_played(state: GameState, card: Any, before: int, drawn: int, pos: Pos) -> None:
        """A scoring card played from a Weisheit draw: the base path (``turn_up_scoring``),
        its pile checked with the money cards drawn before it somewhere between ``before`` and
        ``before + drawn - 1`` (the line does not say where among the cards drawn it lay)."""
        from referee.engine.deck import scoring_piles, turn_up_scoring

        number = card.number
        if state.setup_after <= 0 or number not in (1, 2) or number in state.scoring_seen:
            turn_up_scoring(state, card, pos)
            return
        lo, _hi = scoring_piles(state)[number - 1]
        counted = state.money_draws
        state.money_draws = min(max(before, lo), before + drawn - 1)
        turn_up_scoring(state, card, pos)
        state.money_draws = counted

    def _hide(self, state: GameState, event: ModuleChance) -> None:
        """``* hide Anna Di C8 back T3 A5``: "zieht so viele Plättchen aus dem Turm, wie er Augen
        gewürfelt hat. Dann wählt er eines dieser Plättchen aus und legt es verdeckt unter eines
        der Plättchen auf dem Bauhof. Die restlichen Plättchen werden in den Turm zurückgelegt"
        (L3608-3613): the chosen tile, then the ones put back."""
        from referee.catalogue import Currency
        from referee.engine.core import draw_tile
        from referee.record.model import TileRef

        pos = event.pos
        args = list(event.args)
        head = _line_head(state, event, HIDE, "MACHT-HIDE")
        if head is None:
            return
        player, line = head
        who = player.name
        data = self._scratch(state)
        rest = [a.value for a in args[1:]]
        cur = Currency.of_code(rest[0]) if rest and isinstance(rest[0], str) else None
        chosen = rest[1] if len(rest) > 1 else None
        back = rest[3:] if len(rest) > 2 and str(rest[2]).lower() == BACK else None
        if len(rest) == 2:
            back = []
        tiles_ok = all(isinstance(t, TileRef | ComponentRef) for t in [chosen, *(back or [])])
        if cur is None or chosen is None or back is None or not tiles_ok:
            state.flag("MACHT-HIDE", pos, who, reason="form", line=line)
            return
        if isinstance(chosen, TileRef) and not chosen.known:
            state.flag("MACHT-HIDE", pos, who, reason="form", line=line)
            return
        pips = _take_red_roll(state, data, who, "bk_", "MACHT-HIDE", pos, line)
        if pips is None:
            return
        want = min(pips, max(state.bag_count, 0))
        if 1 + len(back) != want:
            state.flag("MACHT-HIDE", pos, who, reason="count", line=line, pips=pips, n=want)
        fld = cur.field - 1
        if fld >= len(state.market) or state.market[fld] is EMPTY:
            state.flag("MACHT-HIDE", pos, who, reason="no-tile", line=line, field=cur.code)
            fld = -1
        elif fld in data.hidden:
            # "Unter jedem Plättchen darf höchstens ein verdecktes Plättchen liegen" (L3616-3617)
            state.flag("MACHT-HIDE", pos, who, reason="occupied", line=line, field=cur.code)
            fld = -1
        drawn, piece = draw_tile(state, chosen, pos)  # type: ignore[arg-type]
        for ref in back:
            ok, got = draw_tile(state, ref, pos)  # type: ignore[arg-type]
            if ok:
                _put_back(state, ref, got, pos)
        if drawn and piece is not None and fld >= 0:
            data.hidden[fld] = piece

    def market_refill_from(
        self, state: GameState, field: int, ref: object, pos: Pos
    ) -> tuple[object] | None:
        """ "Wird in der Folge ein Plättchen gekauft, unter dem ein verdecktes Plättchen liegt,
        wird beim Auffüllen des Bauhofes dieses Plättchen umgedreht, statt eines zu ziehen"
        (L3613-3616): the refill line names the hidden tile (``* market Di:C8``)."""
        from referee.engine.core import match_slot
        from referee.engine.fmt import fmt_ref

        data = self._scratch(state)
        piece = data.hidden.pop(field, None)
        if piece is None:
            return None
        # ref None: no line names the tile (the guards edition's slide refills the market)
        if ref is not None and match_slot(ref, [piece]) != 0:  # type: ignore[arg-type]
            state.flag(
                "MACHT-HIDDEN",
                pos,
                None,
                reason="other-tile",
                tile=fmt_ref(ref),  # type: ignore[arg-type]
                hidden=_piece_text(piece),
            )
        return (piece,)

    @acts_at(*(m for m in Moment if m is not Moment.TURN_END))  # a position's tokens: any other
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """A new turn (or the leftovers): the last turn's functions can no longer be used
        ("am Ende seines Zuges", L3654), one white die per turn again (L3675-3677). A hidden
        tile under an empty field after the refill was not turned up (L3613-3616). The
        leftovers: the hidden tiles' end award (L3686-3697)."""
        super().at_moment(ctx, moment)
        state = ctx.state
        data = self._scratch(state)
        if data.unstated:
            self._unstated(state)
        if moment in (Moment.TURN_START, Moment.LEFTOVERS_BEFORE):
            data.pending.clear()
            data.white_turn.clear()
            data.red.clear()
        if moment is Moment.REFILL_DONE:
            for fld, piece in sorted(data.hidden.items()):
                if fld < len(state.market) and state.market[fld] is EMPTY:
                    from referee.catalogue import Currency

                    state.flag(
                        "MACHT-HIDDEN",
                        ctx.pos or NOWHERE,
                        None,
                        reason="not-turned-up",
                        field=Currency.of_field(fld + 1).code,
                        hidden=_piece_text(piece),
                        tile="-",
                    )
        if moment is Moment.LEFTOVERS_BEFORE:
            self._prepare_end(ctx)
        if moment is Moment.LEFTOVERS_DONE:
            self._check_end(ctx)

    # ------------------------------------------------------------------ hidden tiles at the end

    def _prepare_end(self, ctx: Any) -> None:
        """Each market field with a hidden tile: both tiles and who gets them
        (:func:`hidden_tile_awards`, the money counted as in the base distribution)."""
        from referee.catalogue import Currency

        state = ctx.state
        data = self._scratch(state)
        for fld, piece in sorted(data.hidden.items()):
            cur = Currency.of_field(fld + 1)
            money: dict[str, int] = {}
            known = True
            for p in state.players:
                got = ctx.decide(Decision.DISTRIBUTION_MONEY, player=p, currency=cur)
                if got is None:
                    known = False
                    got = sum(c.value for c in p.hand.elements() if c.currency is cur)
                money[p.name] = int(got)
            award = hidden_tile_awards(money)
            top = state.market[fld] if fld < len(state.market) else EMPTY
            tiles = ([top] if top is not EMPTY and top is not None else []) + [piece]
            shown = ", ".join(f"{k} {v}" for k, v in money.items())
            data.ends[fld] = [tiles, award.first, award.second, known, shown, 0]
        data.hidden.clear()

    def distribution_pick(
        self, state: GameState, field: int, award: Any, pos: Pos
    ) -> tuple[object, PlayerState | None, bool, str] | None:
        """An award on a field with a hidden tile: "darf sich der Spieler mit dem meisten Geld
        dieser Währung eines der beiden dort liegenden Plättchen aussuchen. Der Spieler mit dem
        zweitmeisten Geld dieser Währung erhält das andere Plättchen" (L3687-3693); ties: the
        tile(s) leave the game (L3694-3697; the engine reports an award to anybody then)."""
        from referee.engine.core import match_slot
        from referee.engine.fmt import fmt_ref

        data = self._scratch(state)
        entry = data.ends.get(field)
        if entry is None:
            return None
        tiles, first, second, known, shown, _given = entry
        entry[5] += 1
        if not tiles:
            return None  # both handed out: the engine reports the field empty
        idx = match_slot(award.tile, tiles)
        if idx is None:
            state.flag(
                "MACHT-LEFTOVER",
                pos,
                None,
                reason="other-tile",
                tile=fmt_ref(award.tile),
                tiles=" ".join(_piece_text(t) for t in tiles),
            )
            idx = 0
        piece = tiles.pop(idx)
        named = getattr(award.player, "name", None)
        due = [n for n in (first, second) if n is not None]
        if named is not None and any(n.casefold() == str(named).casefold() for n in due):
            right = next(n for n in due if n.casefold() == str(named).casefold())
        else:
            right = due[0] if due else None
        if right is not None:
            if entry[1] == right:
                entry[1] = None
            elif entry[2] == right:
                entry[2] = None
        rightful = state.player_named(right) if right is not None else None
        return (piece, rightful, known, shown)

    def _check_end(self, ctx: Any) -> None:
        """A player due a tile of a hidden field who got none (the engine reports the field's
        first award missing; this the other one)."""
        state = ctx.state
        data = self._scratch(state)
        from referee.catalogue import Currency

        for fld, (tiles, first, second, known, shown, given) in sorted(data.ends.items()):
            if not known or not state.game_over:
                continue
            for name in (first, second):
                if name is None or not tiles or (given == 0 and name == first):
                    continue
                state.flag(
                    "MACHT-LEFTOVER",
                    ctx.pos or NOWHERE,
                    name,
                    reason="not-given",
                    field=Currency.of_field(fld + 1).code,
                    tiles=" ".join(_piece_text(t) for t in tiles),
                    shown=shown,
                    tile="-",
                )
        data.ends.clear()

    # ------------------------------------------------------------------ scoring

    def black_dice(self, state: GameState, player: PlayerState) -> list[int]:
        """The black dice on special tiles in the player's Alhambra (ruling (c): not the
        reserve; "in seiner Alhambra", L3701)."""
        data = self._scratch(state)
        if player.alhambra is None:
            return []
        out = []
        for _c, x in player.alhambra.items():
            if isinstance(x, PowerTile):
                die = data.dice.get(x.ident)
                if die is not None and die[0] == BLACK:
                    out.append(die[1])
        return out

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """The second-longest wall, capped by the black dice, at every scoring (L3666-3671),
        as its own point line beside the longest wall."""
        from referee.scoring import ScoringParts
        from referee.scoring.categories import PointLine

        by_name = {p.name: p for p in state.players}
        how = self.option("wall2")
        mode = state.profile.wall_run

        def points(part: Any) -> tuple[int, str, str] | None:
            player = by_name.get(part.name)
            if player is None or player.alhambra is None or player.counts is not None:
                return None
            dice = self.black_dice(state, player)
            if not dice:
                return None
            got = alhambra_defence_points(player.alhambra, dice, how, mode)
            extra = got.points - got.longest
            dice_text = "+".join(str(d) for d in dice)
            en = f"second-longest wall {got.second}, black dice {dice_text} = {got.cap}"
            de = f"zweitlängstes Mauerstück {got.second}, schwarze Würfel {dice_text} = {got.cap}"
            return extra, en, de

        line = PointLine(
            "machtgebaeude",
            "second-longest wall (Wehrhaftigkeit)",
            "zweitlängstes Mauerstück (Wehrhaftigkeit)",
            "Gebäude der Wehrhaftigkeit",
            points,
            order=615,
        )
        return ScoringParts(categories=(line,))

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``dice wh_T9ne black 4`` per die on a player's special tile; ``dice out white N``
        in the common part."""
        data = self._scratch(state)
        if player is None:
            from referee.catalogue import Currency
            from referee.engine.legal import piece_ref

            common = []
            for fn, codes in sorted(data.table.items()):
                args = (GenericArg(fn), *(GenericArg(c) for c in codes))
                common.append(ModuleAction(TABLE, args))
            if data.gone:
                args = (GenericArg(OUT), GenericArg(WHITE), GenericArg(data.gone))
                common.append(ModuleAction(DICE, args))
            for fld, piece in sorted(data.hidden.items()):
                cur = Currency.of_field(fld + 1).code
                common.append(ModuleAction(HIDDEN, (GenericArg(cur), GenericArg(piece_ref(piece)))))
            return common + _ontop_lines(state)
        out = []
        tiles = [tile for _at, tile in owned_tiles(player)] + _bought(state, player)
        for tile in tiles:
            die = data.dice.get(tile.ident)
            if die is not None:
                args = (GenericArg(tile.ident), GenericArg(die[0]), GenericArg(die[1]))
                out.append(ModuleAction(DICE, args))
        waiting = data.pending.get(player.name)
        if waiting:  # bought in the turn (just) played, their function not used yet
            out.append(ModuleAction(DICE, (GenericArg(DUE), *(GenericArg(i) for i in waiting))))
        if player.name in data.red:  # the red die rolled for one of them, not used yet
            out.append(ModuleAction(DICE, (GenericArg(RED), GenericArg(data.red[player.name]))))
        return out

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        if line.verb.lower() == ONTOP:
            _ontop_line(state, player, line)
            return True
        if line.verb.lower() == HIDDEN:
            self._hidden_line(state, player, line)
            return True
        if line.verb.lower() == TABLE:
            if player is not None:
                text = f"{TABLE} " + " ".join(token_text(a.value) for a in line.args)
                state.flag("MACHT-POSITION", line.pos, player.name, reason="form", line=text)
            else:
                self._state_table(state, line.args, line.pos, in_position=True)
            return True
        if line.verb.lower() != DICE:
            return False
        vals = [a.value for a in line.args]
        text = f"{line.verb} " + " ".join(str(v) for v in vals)
        who = player.name if player is not None else None
        data = self._scratch(state)
        if vals and str(vals[0]).lower() in (DUE, RED):
            self._waiting_line(state, player, line)
            return True
        colour = COLOURS.get(str(vals[1]).lower()) if len(vals) == 3 else None
        n = vals[2] if len(vals) == 3 else None
        if colour is None or not isinstance(n, int) or isinstance(n, bool):
            state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            return True
        if player is None:
            if str(vals[0]).lower() != OUT or colour != WHITE or n < 0:
                state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            else:
                data.gone = n
            return True
        tile = power_tile(str(vals[0]), self.table(state)) or any_power_tile(str(vals[0]))
        if tile is None or n not in DIE_FACES or DIE_OF[tile.function] != colour:
            state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            return True
        held = [t for _a, t in owned_tiles(player)] + _bought(state, player)
        if player.counts is None and not any(t == tile for t in held):
            state.flag("MACHT-POSITION", line.pos, who, reason="not-owned", line=text)
            return True
        data.dice[tile.ident] = (colour, n)
        return True

    def _waiting_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> None:
        """``dice due bk_C5 wh_T9ne`` in a player's section: the buildings of power he bought
        in the turn just played (or the open one) whose function is still to come ("Jedes
        Mal, wenn ein Spieler eines dieser Plättchen erworben hat, kann er ... einmalig die
        ... Sonderfunktion nutzen", L3652-3656: the die "sofort nach dem Erwerb", L3663-3665,
        L3672-3674; Baukunst's and Weisheit's red die "Sobald die Karten und Plättchen
        aufgefüllt sind", L3606-3608, L3618-3620); ``dice red 3``: the red die he rolled for
        one of them, its tiles or cards not drawn yet. Each tile his own (Alhambra, reserve,
        bought in the open turn), the red die only for a Baukunst or Weisheit due, once."""
        vals = [a.value for a in line.args]
        text = f"{line.verb} " + " ".join(token_text(v) for v in vals)
        who = player.name if player is not None else None
        data = self._scratch(state)
        word = str(vals[0]).lower()
        if player is None or len(vals) < 2:
            state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            return
        if word == RED:
            n = vals[1]
            waiting = [i for i in data.pending.get(player.name, []) if i[:3] in ("bk_", "ws_")]
            if (
                len(vals) != 2
                or not isinstance(n, int)
                or isinstance(n, bool)
                or n not in DIE_FACES
                or player.name in data.red
            ):
                state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            elif not waiting:
                state.flag("MACHT-POSITION", line.pos, who, reason="no-due", line=text)
            else:
                data.red[player.name] = n
            return
        held = [t for _a, t in owned_tiles(player)] + _bought(state, player)
        tiles = []
        for v in vals[1:]:
            tile = power_tile(str(v), self.table(state)) or any_power_tile(str(v))
            if tile is None or tile.ident in data.pending.get(player.name, []):
                state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
                return
            if player.counts is None and not any(t == tile for t in held):
                state.flag("MACHT-POSITION", line.pos, who, reason="not-owned", line=text)
                return
            tiles.append(tile.ident)
        if len(set(tiles)) != len(tiles):
            state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            return
        data.pending.setdefault(player.name, []).extend(tiles)

    def _hidden_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> None:
        """``hidden Di C8`` (common part): a tile hidden under a market field; it is out of
        the tower like every tile a position states."""
        from referee.catalogue import Currency
        from referee.engine.core import draw_tile
        from referee.record.model import TileRef

        vals = [a.value for a in line.args]
        text = f"{line.verb} " + " ".join(token_text(v) for v in vals)
        who = player.name if player is not None else None
        cur = Currency.of_code(vals[0]) if len(vals) == 2 else None
        ref = vals[1] if len(vals) == 2 else None
        known = isinstance(ref, ComponentRef) or (isinstance(ref, TileRef) and ref.known)
        data = self._scratch(state)
        if player is not None or cur is None or not known or cur.field - 1 in data.hidden:
            state.flag("MACHT-POSITION", line.pos, who, reason="form", line=text)
            return
        drawn, piece = draw_tile(state, ref, line.pos)  # type: ignore[arg-type]
        if drawn and piece is not None:
            data.hidden[cur.field - 1] = piece

    # ------------------------------------------------------------------ view

    def cell_marks(self, state: GameState, player: PlayerState) -> dict[Coord, str]:
        """The die on its tile (E17): ``gm:b4`` (black 4), ``gm:w5`` (white 5)."""
        data = self._scratch(state)
        out: dict[Coord, str] = {}
        if player.alhambra is None:
            return out
        for at, tile in owned_tiles(player):
            die = data.dice.get(tile.ident)
            if at is not None and die is not None:
                out[at] = f"gm:{die[0][0]}{die[1]}"
        return out

    def market_marks(self, state: GameState) -> dict[int, str]:
        """A tile hidden under a market field (Baukunst, "legt es verdeckt unter eines der
        Plättchen auf dem Bauhof", L3610-3611): ``hidden C5`` beside the field's tile on the
        terminal's market line and the SVG's (German ``verdeckt C5``: ``view_terms_de``)."""
        hidden = self._scratch(state).hidden
        return {f: f"{HIDDEN} {_piece_text(t)}" for f, t in sorted(hidden.items())}

    def view(self, state: GameState) -> dict[str, Any]:
        """The special tiles left in the tower, the tiles hidden under the market, each
        player's special tiles with their dice."""
        from referee.catalogue import Currency

        data = self._scratch(state)
        table = {
            "in the tower": str(tower_total(state, self)),
            "white dice out of the game": str(data.gone),
            "hidden under the market": " ".join(
                f"{Currency.of_field(f + 1).code}:{_piece_text(t)}"
                for f, t in sorted(data.hidden.items())
            )
            or "-",
            "options": f"wall2={self.option('wall2')}",
        }
        key = "tile table stated" if data.table else "tile table (unverified)"
        table[key] = " ".join(f"{fn}:{','.join(c)}" for fn, c in self.table(state).items())
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            tiles = owned_tiles(p)
            if not tiles:
                continue
            shown = []
            for at, t in tiles:
                die = data.dice.get(t.ident)
                where = f"@{at}" if at is not None else " (reserve)"
                dtext = f" {die[0]} {die[1]}" if die is not None else ""
                shown.append(f"{t.code}{where}{dtext}")
            players[p.name] = {
                "buildings of power": ", ".join(shown),
                "black dice": "+".join(str(d) for d in self.black_dice(state, p)) or "-",
            }
        return self.shown(table, players)

    # ------------------------------------------------------------------ simulator

    def sim_tower(self, sim: Any) -> list[ComponentRef]:
        return [ComponentRef(KIND, ident) for ident in self.tower_components()]

    def sim_refill(self, sim: Any) -> list[Any]:
        """The dice of the special tiles bought in the last turn, rolled (Wehrhaftigkeit,
        Wohlstand; a die of a colour whose supply is used up is not rolled)."""
        state = sim.state
        data = self._scratch(state)
        out: list[Any] = []
        used = {c: sum(1 for d, _p in data.dice.values() if d == c) for c in (BLACK, WHITE)}
        used[WHITE] += data.gone
        for who, idents in data.pending.items():
            for ident in list(idents):
                colour = DIE_OF[ident.split("_")[0]]
                if ident.startswith("bk_") and who not in data.red and not out_red(out, who):
                    out.extend(self._sim_hide(sim, who))
                if ident.startswith("ws_") and who not in data.red and not out_red(out, who):
                    out.extend(self._sim_wisdom(sim, who))
                if colour == RED or used[colour] >= dice_supply()[colour]:
                    continue
                used[colour] += 1
                pips = sim.rng.randint(1, 6)
                args = (GenericArg(who), GenericArg(colour), GenericArg(pips))
                out.append(ModuleChance(ROLL, args))
        return out

    def _sim_hide(self, sim: Any, who: str) -> list[Any]:
        """Gebäude der Baukunst: the red die, the tiles drawn from the top of the simulator's
        tower, one hidden under a market field without a hidden tile, the rest put back on top
        (L3606-3617). Nothing when no field or no tile is left."""
        from referee.catalogue import Currency
        from referee.engine.legal import piece_ref

        data = self._scratch(sim.state)
        fields = [
            f
            for f, slot in enumerate(sim.state.market)
            if slot is not EMPTY and f not in data.hidden and f not in data.ends
        ]
        if not fields or not sim.bag or who in data.red:
            return []
        pips = sim.rng.randint(1, 6)
        n = min(pips, len(sim.bag))
        drawn = [sim.bag.pop() for _ in range(n)]
        keep = sim.rng.randrange(n)
        back = [t for i, t in enumerate(drawn) if i != keep]
        sim.bag.extend(reversed(back))  # "sortiert oben auf die im Turm befindlichen" (L3613)
        fld = sim.rng.choice(fields)

        def ref(t: Any) -> Any:
            return t if isinstance(t, ComponentRef) else piece_ref(t)

        args = [GenericArg(who), GenericArg(Currency.of_field(fld + 1).code)]
        args.append(GenericArg(ref(drawn[keep])))
        if back:
            args += [GenericArg(BACK), *(GenericArg(ref(t)) for t in back)]
        roll = ModuleChance(ROLL, (GenericArg(who), GenericArg(RED), GenericArg(pips)))
        return [roll, ModuleChance(HIDE, tuple(args))]

    def _sim_wisdom(self, sim: Any, who: str) -> list[Any]:
        """Gebäude der Weisheit: the red die, the cards drawn from the top of the simulator's
        deck (index 0), one money card kept, the rest put back on top in a random order
        (L3621-3633). A scoring card drawn is put back with them (the choice "oder mit den
        übrigen Karten verdeckt auf den Stapel zurücklegen", L3628-3629; the simulator never
        plays one). Nothing when no money card would be drawn or another module's card would."""
        from referee.catalogue import MoneyCard
        from referee.record.model import CardRef

        deck: list[Any] = sim.deck
        pips = sim.rng.randint(1, 6)
        n = min(pips, len(deck))
        drawn = deck[:n]
        money = [i for i, c in enumerate(drawn) if isinstance(c, MoneyCard)]
        if not money or not all(isinstance(c, MoneyCard | int) for c in drawn):
            return []
        keep = sim.rng.choice(money)
        back = [c for i, c in enumerate(drawn) if i != keep]
        sim.rng.shuffle(back)  # "beliebig sortiert auf den Stapel zurücklegen" (L3625)
        del deck[:n]
        deck[0:0] = back

        def ref(c: Any) -> Any:
            return ScoringCardRef(c) if isinstance(c, int) else CardRef(c)

        args = [GenericArg(who), GenericArg(KEEP), GenericArg(CardRef(drawn[keep]))]
        if back:
            args += [GenericArg(BACK), *(GenericArg(ref(c)) for c in back)]
        roll = ModuleChance(ROLL, (GenericArg(who), GenericArg(RED), GenericArg(pips)))
        return [roll, ModuleChance(WISDOM, tuple(args))]

    def sim_market_refill(self, sim: Any, field: int) -> object | None:
        """The hidden tile turns up when its field is refilled (L3613-3616)."""
        from referee.engine.legal import piece_ref

        piece = self._scratch(sim.state).hidden.get(field)
        if piece is None:
            return None
        return piece if isinstance(piece, TileKind) else piece_ref(piece)

    def sim_distribution(self, sim: Any, field: int) -> list[Any] | None:
        """A field with a hidden tile at the end: the most money of its currency takes the
        field's tile, the second-most the hidden one, into the reserve; ties: nobody
        (L3686-3697)."""
        from referee.catalogue import Currency
        from referee.engine.legal import piece_ref
        from referee.record.model import Award, PlayerRef

        state = sim.state
        piece = self._scratch(state).hidden.get(field)
        if piece is None:
            return None
        cur = Currency.of_field(field + 1)
        money = {
            p.name: int(sim.ctx.decide(Decision.DISTRIBUTION_MONEY, player=p, currency=cur) or 0)
            for p in state.players
        }
        got = hidden_tile_awards(money)
        top = state.market[field]
        tiles = ([top] if top is not EMPTY and top is not None else []) + [piece]
        out = []
        for tile, name in zip(tiles, (got.first, got.second), strict=False):
            who = PlayerRef(name) if name is not None else None
            out.append(Award(cur, piece_ref(tile), who, None, name is not None))
        return out

    def legal_actions(self, ctx: Context, player: PlayerState) -> list[Any]:
        """Purchases with one white die (price - 1, paid in the field's currency, exact first;
        one die per turn, L3675-3679): the face of the player's first white die."""
        from referee.catalogue import Currency
        from referee.engine.actions.purchase import payments
        from referee.record.model import Buy, CardRef, TileRef

        state = ctx.state
        out: list[Any] = []
        if state.turn is not None and state.turn.interrupt is not None:
            return out
        if player.counts is not None or player.name in self._scratch(state).white_turn:
            return out
        data = self._scratch(state)
        faces = [
            data.dice[t.ident][1]
            for _a, t in owned_tiles(player)
            if data.dice.get(t.ident, ("", 0))[0] == WHITE
        ]
        if not faces:
            return out
        die = ComponentRef(KIND, f"{WHITE}{faces[0]}")
        hand = list(player.hand.elements())
        for idx, slot in enumerate(state.market):
            tile: TileRef | ComponentRef
            if type(slot) is TileKind:
                tile = TileRef(slot.type, slot.price, slot.walls, (slot,))
            elif isinstance(slot, PowerTile):
                tile = ComponentRef(KIND, slot.ident)
            else:
                continue
            price = int(getattr(slot, "price", 0)) - 1
            fld = Currency.of_field(idx + 1)
            for combo in payments(hand, frozenset({fld}), price):
                out.append(Buy(fld, tile, (*(CardRef(c) for c in combo), die)))
                break
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like special tiles and, now and then, a white die's discount (so
        that simulated games use the module)."""
        from referee.record.model import Buy

        buys = [a for a in actions if isinstance(a, Buy)]
        white = [a for a in buys if any(isinstance(r, ComponentRef) for r in a.paid)]
        if white and sim.rng.random() < 0.7:
            return white
        return [a for a in buys if isinstance(a.tile, ComponentRef) and a.tile.kind == KIND]


def out_red(events: list[Any], who: str) -> bool:
    """Whether ``events`` roll the red die for ``who`` already ("1 rot", L3639)."""
    return any(
        isinstance(e, ModuleChance)
        and e.verb == ROLL
        and len(e.args) > 1
        and e.args[0].value == who
        and e.args[1].value == RED
        for e in events
    )


def _deck_card(ref: object) -> Any:
    """A card of a wisdom line as it leaves the deck (a money card, a scoring card's number)."""
    number = getattr(ref, "number", None)
    return number if isinstance(number, int) else getattr(ref, "card", None)


def _piece_text(piece: object) -> str:
    """A tile as a record writes it (a base tile's code, a module piece's token)."""
    if isinstance(piece, TileKind):
        return piece.code
    return str(getattr(piece, "code", "?"))


def _put_back(state: GameState, ref: object, piece: object, pos: Pos) -> None:
    """A tile drawn for the Gebäude der Baukunst goes back into the tower ("Die restlichen
    Plättchen werden in den Turm zurückgelegt", L3612-3613): unseen again."""
    from referee.engine.tower import tower_key

    state.bag_count += 1
    if isinstance(piece, TileKind):
        state.bag[piece] += 1
    elif isinstance(ref, ComponentRef) and piece is not None:
        m = state.ext.kind_handler(ref.kind)
        got = m.tower_piece(state, ref, pos) if m is not None else None
        if m is not None and got is not None:
            state.tower[tower_key(m, got[0])] += 1


def _listing(table: Mapping[str, Sequence[str]] | None = None) -> str:
    shown = table if table is not None else tile_table()
    return " ".join(f"{KIND}:{fn}_{c}" for fn, codes in shown.items() for c in codes)


def _take_red_roll(
    state: GameState, data: Any, who: str, prefix: str, code: str, pos: Pos, line: str
) -> int | None:
    """The red die's pips of ``who``'s waiting building of power whose function id starts with
    ``prefix`` (``bk_`` Baukunst, ``ws_`` Weisheit), used up by this line; None (``code`` with
    reason ``no-roll`` reported) when no such building waits or no red die was rolled."""
    waiting = [i for i in data.pending.get(who, []) if i.startswith(prefix)]
    pips: int | None = data.red.get(who)
    if not waiting or pips is None:
        state.flag(code, pos, who, reason="no-roll", line=line)
        return None
    data.pending[who].remove(waiting[0])
    del data.red[who]
    return pips


# ------------------------------------------------------- the deck's top in a position (h)


def _ontop_lines(state: GameState) -> list[ModuleAction]:
    """``ontop Anna 2 De3 Gu5`` per Weisheit draw whose cards still lie on top of the deck
    (reading (h)): the player, how many of them are still on the deck, the cards still
    expected (a scoring card as ``W1``); innermost first, so that reading them in order lays
    them as they lay (:func:`_ontop_line`)."""
    from referee.record.model import CardRef

    out = []
    for layer in reversed(state.deck_top):
        if layer.code != "MACHT-WISDOM" or layer.player is None:
            continue
        cards = [
            GenericArg(ScoringCardRef(c) if isinstance(c, int) else CardRef(c)) for c in layer.cards
        ]
        out.append(ModuleAction(ONTOP, (GenericArg(layer.player), GenericArg(layer.left), *cards)))
    return out


def _ontop_line(state: GameState, player: PlayerState | None, line: ModuleAction) -> None:
    """``ontop NAME LEFT CARD ...`` in a position block (not in a player's section): the cards
    NAME's Weisheit draw put back on top of the deck, LEFT of them still on it; the next cards
    drawn must be these (``MACHT-WISDOM`` ``back-order``), as after the draw itself."""
    from dataclasses import replace

    from referee.engine.deck import put_on_top
    from referee.engine.position import position_card
    from referee.record.model import CardRef

    vals = [a.value for a in line.args]
    text = f"{ONTOP} " + " ".join(_arg_text(v) for v in vals)
    who = named_player(state, line.args[0], line.pos) if vals and player is None else None
    cards: list[Any] = []
    for v in vals[2:]:
        if isinstance(v, CardRef) and v.card is not None:
            cards.append(v.card)
        elif isinstance(v, ScoringCardRef):
            cards.append(v.number)
        else:
            cards = []
            break
    left = vals[1] if len(vals) > 1 else None
    if (
        who is None
        or not isinstance(left, int)
        or isinstance(left, bool)
        or not cards
        or not 0 < left <= len(cards)
    ):
        state.flag("MACHT-POSITION", line.pos, None, reason="form", line=text)
        return
    for c in cards:  # they lie in the deck (known), out of the supply of unseen cards
        if not isinstance(c, int):
            position_card(state, CardRef(c), line.pos)
    put_on_top(
        state,
        cards,
        code="MACHT-WISDOM",
        reason="back-order",
        player=who.name,
        line=text,
        at=line.pos.line,
    )
    state.deck_top = (replace(state.deck_top[0], left=left), *state.deck_top[1:])


def _bought(state: GameState, player: PlayerState) -> list[PowerTile]:
    """A moment inside a turn: the buildings of power the open turn of ``player`` bought and
    has not placed yet (their dice are stated with them: ``dice wo_G7 white 6``)."""
    t = state.turn
    if t is None or t.player != player.index:
        return []
    return [x for x in t.pending if isinstance(x, PowerTile)]
