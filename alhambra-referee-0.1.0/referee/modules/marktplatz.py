"""Der persönliche Marktplatz (Louis-David Péloquin): the reserve becomes a personal market of
four market tiles; a building under one of them may be bought by every other player in his
turn, for its price in the currency of that tile, and the cards paid go to its owner.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Louis-David Péloquin: Der persönliche Marktplatz
(text L3880-3916, heading L3918-3919).

Notation (names, texts, the tiles' currencies: ``marktplatz.yaml``; rulings:
``docs/modules/marktplatz.md``):

* ``reserve T9ne, stall De T9ne`` -- a building not built goes into the reserve (the market)
  and under the Denar market tile (``stall De T9ne`` alone reserves a building bought this
  turn and lays it under the tile in one line); ``remove T9ne@1,0, stall Gu T9ne`` after a
  redesign.
* ``stall De T9ne`` when all four tiles are taken: T9ne replaces the building under the Denar
  tile, which goes back to the box; ``box T9ne``: the incoming building goes back to the box
  unused (L3913-3916).
* ``buy T9ne pay De5 De4`` -- another player buys Anna's T9ne from her market (E15/E30: a
  piece offered beside the market, bought with the one purchase pipeline); the money cards go
  into Anna's hand (``SideOffer.payee``); an exact payment gives another action.
* position blocks: ``stall De T9ne`` in a player's section, after its ``reserve`` line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.catalogue import Currency, TileKind
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.market_side import SideOffer
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.modules.base import BundledModule, Scratch, bundled, module_data, token_text
from referee.record.model import ComponentRef, GenericArg, ModuleAction, Pos, Reserve, TileRef

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

STALL = "stall"
BOX = "box"


def tile_currencies() -> list[Currency]:
    """The currencies of the four market tiles (picture-only: marktplatz.yaml, unverified)."""
    codes = module_data("marktplatz")["components"]["tiles"]["currencies"]
    out = [Currency.of_code(str(c)) for c in codes]
    return [c for c in out if c is not None]


def parse_currency(value: object) -> Currency | None:
    if not isinstance(value, str):
        return None
    cur = Currency.of_code(value.strip())
    return cur if cur in tile_currencies() else None


def names(piece: object, ref: object) -> bool:
    """Whether a record's token ``ref`` names ``piece`` (a tile, a module piece, a module piece
    lying on a tile)."""
    if isinstance(ref, TileRef):
        if not ref.known:
            return False
        tile = piece if isinstance(piece, TileKind) else getattr(piece, "carried_tile", None)
        return tile is not None and tile in ref.candidates
    if isinstance(ref, ComponentRef):
        matches = getattr(piece, "matches", None)
        return bool(matches is not None and matches(ref))
    return False


def piece_arg(piece: object) -> GenericArg:
    from referee.engine.legal import piece_ref

    if isinstance(piece, ComponentRef | TileRef):
        return GenericArg(piece)
    return GenericArg(piece_ref(piece))


def piece_text(piece: object) -> str:
    if isinstance(piece, ComponentRef | TileRef):  # a building back in the box, as stated
        return token_text(piece)
    return str(getattr(piece, "code", piece))


@dataclass
class MarketScratch(Scratch):
    # per player: the currency of a market tile -> the building under it
    """The module's own part of the game state (``state.modules``), copied with the state."""

    stalls: dict[str, dict[Currency, Any]] = field(default_factory=dict)
    boxed: list[Any] = field(default_factory=list)  # back in the box, out of the game
    # the idle answer at a turn's end kept for the engine (Module.kept_idle, ``idle_at``'s
    # answer): per seat, the player's ``reserve_version`` when ``idle_at`` last found him idle
    # there; the engine reads it as idle while the mover's reserve is the one noted (every
    # change of a reserve moves its number). Dropped for a player where the module's own steps
    # change his tiles (``_forget``). A cache: not compared, not shown.
    idle_end: dict[int, int] = field(default_factory=dict, repr=False, compare=False)


@bundled
class Marktplatz(BundledModule):
    """Four personal market tiles instead of the reserve board; buildings under them are for
    sale to the other players."""

    verb_specs = (
        VerbSpec(STALL, kind="free", aliases=("marktstand",)),
        VerbSpec(BOX, kind="free", aliases=("schachtel",)),
    )
    scratch_type = MarketScratch
    owed_before = "turn-end"
    helpers = ("stalls_of",)
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        STALL: (
            "lays a building under a personal market tile",
            "legt ein Gebäude unter ein Marktplättchen",
        ),
        BOX: ("puts a building back in the box", "legt ein Gebäude in die Schachtel zurück"),
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.stalls = {p.name: {} for p in state.players}

    # ------------------------------------------------------------- the market tiles

    def stalls_of(self, state: GameState, player: PlayerState) -> dict[Currency, Any]:
        """The market tiles of ``player`` that hold a building (currency -> building); a
        building that left the reserve (built, bought, handed out) frees its tile."""
        stalls: dict[Currency, Any] = self.data(state).stalls.setdefault(player.name, {})
        for cur, piece in list(stalls.items()):
            if piece not in player.reserve:
                del stalls[cur]
        return stalls

    def _unplaced(self, state: GameState, player: PlayerState) -> list[Any]:
        """Buildings in the reserve under no market tile yet (just reserved or removed)."""
        under = list(self.stalls_of(state, player).values())
        out = []
        for x in player.reserve:
            if x is None:
                continue
            if x in under:
                under.remove(x)
            else:
                out.append(x)
        return out

    def _free(self, state: GameState, player: PlayerState) -> list[Currency]:
        stalls = self.stalls_of(state, player)
        return [c for c in tile_currencies() if c not in stalls]

    def _held(
        self, state: GameState, player: PlayerState, ref: object
    ) -> tuple[str, Any] | tuple[None, None]:
        """Where the building ``ref`` names is: ``pending`` (bought this turn, not placed),
        ``unplaced`` (in the reserve, under no tile), ``under`` (under a tile)."""
        t = state.turn
        for x in self._unplaced(state, player):
            if names(x, ref):
                return "unplaced", x
        if t is not None and t.player == player.index:
            for x in t.pending:
                if x is not None and names(x, ref):
                    return "pending", x
        for x in self.stalls_of(state, player).values():
            if names(x, ref):
                return "under", x
        return None, None

    def _line(self, action: ModuleAction) -> tuple[Currency | None, object, str, object]:
        """(currency, building token, currency as written, building as written) of a
        ``stall`` line; either order (``stall De T9ne``, ``stall T9ne De``)."""
        vals = [a.value for a in action.args]
        cur: Currency | None = None
        ref: object = None
        cur_text = ""
        for v in vals:
            if isinstance(v, str) and cur_text == "":
                cur_text, cur = v, parse_currency(v)
            elif ref is None:
                ref = v
        return cur, ref, cur_text, ref

    # ------------------------------------------------------------- the verbs

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        state = ctx.state
        pos = action.pos
        if action.verb.lower() in (BOX, "schachtel"):
            return self._box_findings(state, player, action, pos)
        cur, ref, cur_text, _ = self._line(action)
        tile = token_text(ref) if ref is not None else "-"
        if len(action.args) != 2 or ref is None or not cur_text:
            return [problem("MARKET-STALL", pos, player.name, reason="form", tile=tile)]
        if cur is None:
            shown = " ".join(c.code for c in tile_currencies())
            return [problem("MARKET-TOKEN", pos, player.name, token=cur_text, tiles=shown)]
        where, piece = self._held(state, player, ref)
        common: dict[str, Any] = {"tile": tile, "currency": cur.code}
        if where is None:
            return [problem("MARKET-STALL", pos, player.name, reason="not-held", **common)]
        stalls = self.stalls_of(state, player)
        if where == "under":
            at = next(c for c, x in stalls.items() if x == piece)
            return [problem("MARKET-STALL", pos, player.name, reason="under", at=at.code, **common)]
        other = stalls.get(cur)
        if other is not None and self._free(state, player):
            free = " ".join(c.code for c in self._free(state, player))
            return [
                problem(
                    "MARKET-ONE", pos, player.name, other=piece_text(other), free=free, **common
                )
            ]
        return []

    def _box_findings(
        self, state: GameState, player: PlayerState, action: ModuleAction, pos: Pos
    ) -> list[Finding]:
        ref = action.args[0].value if len(action.args) == 1 else None
        tile = token_text(ref) if ref is not None else "-"
        if ref is None:
            return [problem("MARKET-BOX", pos, player.name, reason="form", tile=tile)]
        where, _piece = self._held(state, player, ref)
        if where is None:
            return [problem("MARKET-BOX", pos, player.name, reason="not-held", tile=tile)]
        if where == "under":
            return [problem("MARKET-BOX", pos, player.name, reason="under", tile=tile)]
        free = self._free(state, player)
        if free:
            shown = " ".join(c.code for c in free)
            return [problem("MARKET-BOX", pos, player.name, reason="free", tile=tile, free=shown)]
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Carry a ``stall`` / ``box`` line out (checked by :meth:`check_verb`)."""
        from referee.engine.context import Context

        self._forget(state, player)
        if action.verb.lower() in (BOX, "schachtel"):
            token = action.args[0].value if len(action.args) == 1 else None
            where, piece = self._held(state, player, token)
            if where == "pending":
                Context(state, action.pos).run_action(Reserve(token, action.pos))  # type: ignore[arg-type]
            if where in ("pending", "unplaced") and piece in player.reserve:
                player.reserve_remove(piece)
                self.data(state).boxed.append(piece)
            return []
        cur, ref, _, _ = self._line(action)
        if cur is None or ref is None:
            return []
        where, piece = self._held(state, player, ref)
        if where == "pending":
            Context(state, action.pos).run_action(Reserve(ref, action.pos))  # type: ignore[arg-type]
        if where not in ("pending", "unplaced") or piece not in player.reserve:
            return []
        stalls = self.stalls_of(state, player)
        old = stalls.get(cur)
        if old is not None:  # "ausgetauscht": the building it replaces goes back to the box
            player.reserve_remove(old)
            self.data(state).boxed.append(old)
        stalls[cur] = piece
        return []

    # ------------------------------------------------------------- the end of a turn

    @acts_at(Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        """At the end of a turn, the buildings of the player to move that lie under no tile
        (the record did not say which): the first free tiles, noted; with all four taken,
        ``MARKET-FULL``. A building reserved out of turn (a vizier's purchase) waits for its
        owner's own turn, where ``stall`` names its tile."""
        super().at_moment(ctx, moment)
        state = ctx.state
        t = state.turn
        if moment != Moment.TURN_END or t is None or t.interrupt is not None:
            return
        p = state.players[t.player]
        unplaced = self._unplaced(state, p)
        if not unplaced:
            return
        pos = t.pos
        self._forget(state, p)
        free = self._free(state, p)
        while unplaced and free:  # the record leaves the tile open: the first free one
            piece, cur = unplaced.pop(0), free.pop(0)
            self.stalls_of(state, p)[cur] = piece
            if state.checking:
                shown = piece_text(piece)
                key = "UNVERIFIED-MARKET-TILE"
                ctx.unverifiable(pos, key, p.name, tile=shown, currency=cur.code)
        if unplaced and state.checking:
            shown = " ".join(piece_text(x) for x in unplaced)
            under = self._under_text(state, p)
            ctx.report([problem("MARKET-FULL", pos, p.name, tiles=shown, under=under)])

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Yes at a turn's end when the module's part exists and each building of the reserve
        of the player to move lies under a market tile, one tile each, and each building under
        a tile is in his reserve (an empty reserve with no building under a tile among them):
        the step would neither lay a building under a tile nor free one (``stalls_of`` forgets
        a building that left the reserve). Also yes with no turn under way or an interrupt (the
        step returns at once). Else no. A yes for the player to move is kept for the engine
        (``MarketScratch.idle_end``: his ``reserve_version``)."""
        data = state.modules.get(self.name)
        if data is None:
            return False
        t = state.turn
        if t is None or t.interrupt is not None:
            return True
        p = state.players[t.player]
        stalls = data.stalls.get(p.name)
        if stalls is None:
            return False
        reserve = p.reserve
        if reserve:  # each of its buildings under a tile of its own, none under a tile left
            under = list(stalls.values())
            for x in reserve:
                if x is None:
                    continue
                if x not in under:
                    return False
                under.remove(x)
            if under:
                return False
        elif stalls:
            return False
        data.idle_end[t.player] = p.reserve_version
        return True

    idle_moments = frozenset({Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (its part's idle_end: a reserve_version per seat)

    def _forget(self, state: GameState, player: PlayerState) -> None:
        """Drop the kept idle answer of ``player`` (his tiles changed by the module's step)."""
        data = state.modules.get(self.name)
        if data is not None:
            data.idle_end.pop(player.index, None)

    def _under_text(self, state: GameState, player: PlayerState) -> str:
        stalls = self.stalls_of(state, player)
        return ", ".join(
            f"{c.code} {piece_text(stalls[c]) if c in stalls else '-'}" for c in tile_currencies()
        )

    # ------------------------------------------------------------- buying (E15, E30)

    def side_offers(self, state: GameState) -> list[Any]:
        """Every building under a market tile, in the tile's currency, for its printed price
        (L3893-3896); to its owner only as a building he cannot buy (he builds it by a
        redesign), out of turn to nobody ("in ihrem jeweiligen Zug"), without a price to
        nobody (L3910-3911); the cards paid go to the owner (L3898-3899)."""
        from referee.engine.legal import mover

        buyer = mover(state)
        t = state.turn
        out: list[Any] = []
        for owner in state.players:
            stalls = self.stalls_of(state, owner)
            for cur, piece in [(c, stalls[c]) for c in tile_currencies() if c in stalls]:
                price = getattr(piece, "price", None) or None
                rule = "MARKET-BUY"
                if buyer is None or owner is buyer:
                    price, rule = None, "MARKET-OWN"
                elif t is not None and t.interrupt is not None:
                    price, rule = None, "MARKET-OUT-OF-TURN"
                elif price is None:
                    rule = "MARKET-NO-PRICE"
                offer = SideOffer(
                    piece, self, cur, price, False, rule, own_turn=True, payee=owner.name
                )
                out.append(offer)
        return out

    placed_hows = frozenset({"build", "swap"})  # (placed returns at once for the others)

    def placed(self, ctx: Any, player: PlayerState, at: Any, piece: Any, how: str) -> None:
        """A building built from under a market tile (``build``, ``swap``) frees that tile at
        once: a second redesign of the same turn may take it out again ("baut er im Zuge einer
        Umbauaktion ein Gebäude aus, so legt er das Gebäude unter ein beliebiges
        Marktplättchen", L3892-3895), and it is then laid under a tile anew."""
        if how not in ("build", "swap"):
            return
        stalls = self.data(ctx.state).stalls.get(player.name, {})
        for cur, x in list(stalls.items()):
            if x == piece:
                del stalls[cur]
                self._forget(ctx.state, player)
                return

    def take_side_offer(self, state: GameState, piece: object) -> None:
        """The building leaves its owner's market (its tile is free again)."""
        for owner in state.players:
            stalls = self.stalls_of(state, owner)
            for cur, x in list(stalls.items()):
                if x == piece and x in owner.reserve:
                    del stalls[cur]
                    owner.reserve_remove(x)
                    self._forget(state, owner)
                    return

    # ------------------------------------------------------------- legal moves

    def owed_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """A building in the reserve under no tile goes under one (a free one; with all four
        taken it replaces one, or goes back to the box)."""
        state = ctx.state
        t = state.turn
        if t is None or t.interrupt is not None or t.player != player.index:
            return []
        return self._placings(state, player)

    def _placings(self, state: GameState, player: PlayerState) -> list[Any]:
        out: list[Any] = []
        for piece in self._unplaced(state, player)[:1]:
            free = self._free(state, player)
            for cur in free or tile_currencies():
                out.append(ModuleAction(STALL, (GenericArg(cur.code), piece_arg(piece))))
            if not free:
                out.append(ModuleAction(BOX, (piece_arg(piece),)))
        return out

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        t = ctx.state.turn
        if t is not None and (t.interrupt is not None or t.player != player.index):
            return []
        return self._placings(ctx.state, player)

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like buying from the other players' markets now and then."""
        from referee.record.model import Buy

        if sim.rng.random() >= 0.5:
            return []
        offered = [o.piece for o in self.side_offers(sim.state) if o.price is not None]
        return [a for a in actions if isinstance(a, Buy) and any(names(x, a.tile) for x in offered)]

    # ------------------------------------------------------------- position, view

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``stall De T9ne`` in a player's section: the building of its reserve under the
        Denar tile; ``box C6 A4`` outside the sections: the buildings back in the box."""
        if player is None and line.verb.lower() in (BOX, "schachtel"):
            from referee.engine.position import position_tile

            boxed = self.data(state).boxed
            for arg in line.args:
                v = arg.value
                # out of the supply and the bag, as the tile was when it was drawn in play
                if isinstance(v, TileRef) and v.known:
                    got = position_tile(state, v, arg.pos or line.pos)
                    boxed.append(got if got is not None else v.candidates[0])
                else:
                    boxed.append(v)
            return True
        if player is None or line.verb.lower() not in (STALL, "marktstand"):
            return False
        pos = line.pos
        cur, ref, cur_text, _ = self._line(line)
        tile = token_text(ref) if ref is not None else "-"
        if len(line.args) != 2 or ref is None or not cur_text:
            state.flag("MARKET-STALL", pos, player.name, reason="form", tile=tile)
            return True
        if cur is None:
            shown = " ".join(c.code for c in tile_currencies())
            state.flag("MARKET-TOKEN", pos, player.name, token=cur_text, tiles=shown)
            return True
        piece = next((x for x in self._unplaced(state, player) if names(x, ref)), None)
        common: dict[str, Any] = {"tile": tile, "currency": cur.code}
        if piece is None:
            state.flag("MARKET-STALL", pos, player.name, reason="position", **common)
            return True
        stalls = self.stalls_of(state, player)
        if cur in stalls:
            other = piece_text(stalls[cur])
            state.flag("MARKET-ONE", pos, player.name, other=other, free="-", **common)
            return True
        stalls[cur] = piece
        self._forget(state, player)
        return True

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        if player is None:
            boxed = self.data(state).boxed
            return [ModuleAction(BOX, tuple(piece_arg(x) for x in boxed))] if boxed else []
        stalls = self.stalls_of(state, player)
        return [
            ModuleAction(STALL, (GenericArg(cur.code), piece_arg(stalls[cur])))
            for cur in tile_currencies()
            if cur in stalls
        ]

    def _tiles_text(self, state: GameState, player: PlayerState, lang: str) -> str:
        """The four tiles in words: ``Gu: - | De: T9ne (tower 9, 9 De) | ...``."""
        from referee.reports.i18n import fmt_tile
        from referee.reports.pieces import piece_words

        stalls = self.stalls_of(state, player)
        parts = []
        for cur in tile_currencies():
            piece = stalls.get(cur)
            if piece is None:
                parts.append(f"{cur.code}: -")
                continue
            words = (
                fmt_tile(piece, lang, "name")
                if isinstance(piece, TileKind)
                else piece_words(piece, lang) or piece_text(piece)
            )
            price = getattr(piece, "price", None)
            unsold = "unverkäuflich" if lang == "de" else "not for sale"
            cost = f"{price} {cur.code}" if price else unsold
            parts.append(f"{cur.code}: {piece_text(piece)} ({words}, {cost})")
        return " | ".join(parts)

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """The player's four market tiles beside his Alhambra (terminal map, SVG)."""
        en = self._tiles_text(state, player, "en")
        de = self._tiles_text(state, player, "de")
        return [(f"Market tiles: {en}", f"Marktplättchen: {de}")]

    def view(self, state: GameState) -> dict[str, Any]:
        """Each player's four market tiles with the building under each (its price in the
        tile's currency), and the buildings back in the box."""
        players: dict[str, dict[str, object]] = {}
        for p in state.players:  # every player has his four tiles, taken or not
            row = {lang: self._tiles_text(state, p, lang) for lang in ("en", "de")}
            players[p.name] = {"market tiles": row}
        table: dict[str, object] = {}
        boxed = self.data(state).boxed
        if boxed:
            table["back in the box"] = " ".join(piece_text(x) for x in boxed)
        return self.shown(table, players)
