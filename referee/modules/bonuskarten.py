"""Die Bonuskarten: a revealed card counts as one more building of the tile it shows.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE BONUSKARTEN.

Notation: a bonus card is named by its tile (one of the ten wall-less tiles, so ``G10`` means
``G10-``).

* ``* bonus Anna G10 T12 ?`` -- setup, optional: the cards dealt to a player (face down, so
  ``?`` where the recorder did not see them).
* ``bonus G10`` -- the card is revealed: inside a turn (it is no action), or on an out-of-turn
  line ``Anna: bonus G10`` at any other moment, e.g. just before a ``scoring`` line.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import repeat
from operator import is_

from referee.catalogue import TileKind, catalogue
from referee.engine.findings import Finding, problem, report
from referee.engine.fmt import NO_CARDS
from referee.engine.state import GameState, PlayerState
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import (
    BundledModule,
    HiddenHands,
    Scratch,
    bundled,
    interrupting_player,
    module_data,
    named_player,
    run_verb,
)
from referee.record.model import (
    Coord,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
    Pos,
    TileRef,
    Turn,
)
from referee.scoring import CountAdjustment, ScoringParts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

VERB = "bonus"
# no action ("kann diese dann jederzeit aufdecken"); one card, checked by the module (BONUS-CARD)
VERB_SPEC = VerbSpec(VERB, kind="free")


_CARD_TILES: list[tuple[TileKind, ...]] = []


def card_tiles() -> tuple[TileKind, ...]:
    """The tiles of the bonus cards (from the bundled data; worked out once per process)."""
    if not _CARD_TILES:
        codes = module_data("bonuskarten")["components"]["bonus_cards"]["cards"]
        by_code = {t.full_code: t for t in catalogue().tiles}
        _CARD_TILES.append(tuple(by_code[str(c)] for c in codes))
    return _CARD_TILES[0]


def deal_size(players: int) -> int:
    table = module_data("bonuskarten")["components"]["deal"]
    return int(table.get(players, table.get(str(players), 0)))


@dataclass
class BonusScratch(HiddenHands, Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    revealed: dict[str, list[TileKind]] = field(default_factory=dict)
    owner: dict[TileKind, str] = field(default_factory=dict)  # whose card it is, once known


@bundled
class Bonuskarten(BundledModule):
    """Ten bonus cards, one per wall-less tile, dealt face down; revealed when built."""

    verb_specs = (VERB_SPEC,)
    chance_verbs = (VERB,)
    scratch_type = BonusScratch

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.deal_unseen(state.names, deal_size(len(state.players)))
        for p in state.players:
            scratch.revealed[p.name] = []

    def view(self, state: GameState) -> dict[str, Any]:
        """Each player's bonus cards: revealed, and held face down (known or only counted)."""
        data = self.data(state)
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            known, unknown = data.hidden_parts(p.name, lambda t: t.code)
            players[p.name] = {
                "revealed": " ".join(t.code for t in data.revealed.get(p.name, [])) or "-",
                "face down": " ".join(known + ["?"] * unknown) or "-",
            }
        return self.shown(players=players)

    # ------------------------------------------------------------------ hooks

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        data = self.data(state)
        pos = event.pos
        if not event.args:
            state.flag("BONUS-DEAL", pos, reason="syntax")
            return []
        p = named_player(state, event.args[0], pos)
        if p is None:
            return []
        if state.phase != "setup":
            state.flag("BONUS-DEAL", pos, p.name, reason="after-play", name=p.name)
        if data.dealt_known[p.name]:
            state.flag("BONUS-DEAL", pos, p.name, reason="twice", name=p.name)
            return []
        want = deal_size(len(state.players))
        cards = event.args[1:]
        if len(cards) != want:
            state.flag(
                "BONUS-DEAL",
                pos,
                p.name,
                reason="count",
                name=p.name,
                n_cards=len(cards),
                n_players=len(state.players),
            )
        data.dealt_known[p.name] = True
        data.hand_unknown[p.name] = 0
        for arg in cards:
            if isinstance(arg.value, str) and arg.value == "?":
                data.hand_unknown[p.name] += 1
                continue
            kind = self._kind(state, arg.value, arg.pos or pos, p.name)
            if kind is None:
                continue
            holder = data.owner.get(kind)
            if holder is not None:
                state.flag(
                    "BONUS-SUPPLY",
                    arg.pos or pos,
                    p.name,
                    tile=kind.code,
                    where=Text("BONUS-SUPPLY.where/dealt-to", holder=holder),
                )
            data.owner[kind] = p.name
            data.hand[p.name][kind] += 1
        return []

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``bonus G10``: one card of the player's, its tile built, not revealed before."""
        return self._reveal_check(ctx.state, player, action)[0]

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The card is revealed (it leaves the hand); one whose tile is not built stays in the
        hand (now known)."""
        kind = self._reveal_check(state, player, action)[1]
        data, name = self.data(state), player.name
        if kind is None or kind in data.revealed[name]:
            return []
        holder = data.owner.get(kind)
        unseen = data.hand_unknown[name] > 0 and holder in (None, name)
        if not data.take_known(name, kind) and unseen:
            data.hand_unknown[name] -= 1
        data.owner[kind] = name
        if self._built(player, kind):
            data.revealed[name].append(kind)
        else:
            data.hand[name][kind] += 1
        return []

    out_of_turn_verbs = frozenset({VERB})  # (its out_of_turn reads `bonus` lines only)

    def out_of_turn(self, state: GameState, turn: Turn) -> list[Any] | None:
        acts = turn.actions
        if not acts or not all(
            isinstance(a, ModuleAction) and a.verb.lower() == VERB for a in acts
        ):
            return None
        player = interrupting_player(state, turn)
        if player is None:
            return []
        for a in acts:
            assert isinstance(a, ModuleAction)
            run_verb(self, state, player, a)
        return []

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        # "Baut ein Spieler ein Gebäudeplättchen wieder ab, zu dem er bereits die passende
        # Bonuskarte aufgedeckt hatte, muss er diese Bonuskarte zurück auf die Hand nehmen."
        data = state.modules.get(self.name) or self.data(state)  # (self.data, without its call)
        shown = data.revealed.get(player.name, [])
        if piece in shown and not self._built(player, piece):
            shown.remove(piece)
            data.hand[player.name][piece] += 1
        return []

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """Each revealed card whose tile stands in its owner's Alhambra counts as one more
        building of that type: a count adjustment with its own breakdown line."""
        revealed = self.data(state).revealed
        adjustments: dict[str | None, tuple[Any, ...]] = {}
        for player in state.players:
            out = [
                CountAdjustment(kind.type, 1, f"bonus card {kind.code}", f"Bonuskarte {kind.code}")
                for kind in revealed.get(player.name, [])
                if self._built(player, kind)
            ]
            if out:
                adjustments[player.name] = tuple(out)
        return ScoringParts(adjustments)

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``bonus G10 T12 hidden S9 ?`` in a player's section of a position: the cards lying
        revealed, then (after ``hidden``, optional) the cards held face down, ``?`` for one the
        recorder did not see. Without ``hidden`` the player holds the rest of the deal unseen."""
        if player is None or line.verb.lower() != VERB:
            return False
        data = self.data(state)
        words = [isinstance(a.value, str) and a.value.lower() for a in line.args]
        cut = words.index("hidden") if "hidden" in words else len(line.args)
        for arg in line.args[:cut]:
            kind = self._kind(state, arg.value, arg.pos or line.pos, player.name)
            if kind is None:
                continue
            if not self._built(player, kind):
                state.flag("BONUS-NOT-BUILT", arg.pos or line.pos, player.name, tile=kind.code)
                continue
            self._claim(state, player, kind, arg.pos or line.pos)
            if kind not in data.revealed[player.name]:
                data.revealed[player.name].append(kind)
                data.hand_unknown[player.name] = max(0, data.hand_unknown[player.name] - 1)
        if cut < len(line.args):
            self._position_hidden(state, player, line, line.args[cut + 1 :])
        return True

    def _position_hidden(
        self, state: GameState, player: PlayerState, line: ModuleAction, args: tuple[Any, ...]
    ) -> None:
        """The face-down cards of ``bonus ... hidden S9 ?``: they replace the unseen rest of
        the deal; with the revealed ones they are the player's deal (3/3/2/2/1)."""
        data = self.data(state)
        name = player.name
        hand: Counter[TileKind] = Counter()
        unknown = 0
        for arg in args:
            if isinstance(arg.value, str) and arg.value == "?":
                unknown += 1
                continue
            kind = self._kind(state, arg.value, arg.pos or line.pos, name)
            if kind is None:
                continue
            if kind in data.revealed[name] or hand[kind]:
                state.flag(
                    "BONUS-SUPPLY",
                    arg.pos or line.pos,
                    name,
                    tile=kind.code,
                    where=Text("BONUS-SUPPLY.where/s", holder=name),
                )
                continue
            self._claim(state, player, kind, arg.pos or line.pos)
            hand[kind] += 1
        data.hand[name] = hand
        data.hand_unknown[name] = unknown
        held = len(data.revealed[name]) + sum(hand.values()) + unknown
        if held != deal_size(len(state.players)):
            state.flag(
                "BONUS-DEAL",
                line.pos,
                name,
                reason="count",
                name=name,
                n_cards=held,
                n_players=len(state.players),
            )

    def _claim(self, state: GameState, player: PlayerState, kind: TileKind, pos: Pos) -> None:
        """``kind`` is ``player``'s card (in a position): each card exists once."""
        data = self.data(state)
        holder = data.owner.get(kind)
        if holder is not None and holder != player.name:
            state.flag(
                "BONUS-SUPPLY",
                pos,
                player.name,
                tile=kind.code,
                where=Text("BONUS-SUPPLY.where/s", holder=holder),
            )
        data.owner[kind] = player.name

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """A player's ``bonus`` line, as :meth:`position_line` reads it back: the revealed
        cards in the order revealed, then ``hidden`` with the face-down cards (known ones by
        their tile, ``?`` for the unseen) unless they are just the unseen rest of the deal."""
        if player is None:
            return []
        data = self.data(state)
        name = player.name
        revealed = data.revealed.get(name, [])
        hand = data.hand.get(name, Counter())
        unknown = data.hand_unknown.get(name, 0)
        args = [GenericArg(_bonus_ref(kind)) for kind in revealed]
        rest = deal_size(len(state.players)) - len(revealed)
        if +hand or unknown != max(0, rest):
            args.append(GenericArg("hidden"))
            known = sorted(hand.elements(), key=lambda k: k.code)
            args += [GenericArg(_bonus_ref(kind)) for kind in known]
            args += [GenericArg("?")] * unknown
        return [ModuleAction(VERB, tuple(args))] if args else []

    # ------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """Revealing a card is no action ("kann diese dann jederzeit aufdecken"): each known hidden
        card whose tile is built may be shown."""
        return [ModuleAction(VERB, (GenericArg(_bonus_ref(k)),)) for k in self._shows(ctx, player)]

    def legal_interrupts(self, ctx: Any) -> list[Turn]:
        """The same reveal on a line of its own between turns (e.g. just before a scoring)."""
        return [
            Turn(None, PlayerRef(p.name), (a,))
            for p in ctx.state.players
            for a in self.legal_actions(ctx, p)
        ]

    def _shows(self, ctx: Any, player: PlayerState) -> list[TileKind]:
        """The known hidden cards of ``player`` whose tile stands in the Alhambra."""
        hand = self.data(ctx.state).hand.get(player.name, Counter())
        return [k for k in sorted(+hand, key=lambda k: k.code) if self._built(player, k)]

    # ------------------------------------------------------------ simulator

    def sim_setup(self, sim: Any) -> list[Any]:
        """Every player is dealt the table's number of cards face down (3/3/2/2/1); the
        simulator writes them (``* bonus Anna G10 T12``)."""
        cards = list(card_tiles())
        sim.rng.shuffle(cards)
        k = deal_size(len(sim.state.players))
        out = []
        for p in sim.state.players:
            dealt = [cards.pop() for _ in range(k)]
            args = (GenericArg(p.name), *(GenericArg(_bonus_ref(t)) for t in dealt))
            out.append(ModuleChance(VERB, args))
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """A player would rather buy the tile of one of their hidden bonus cards."""
        hand = self.data(sim.state).hand.get(player.name, Counter())
        return [a for a in actions if getattr(getattr(a, "tile", None), "kind", None) in hand]

    # ---------------------------------------------------------------- helpers

    @staticmethod
    def _built(player: PlayerState, kind: TileKind) -> bool:
        # a tile kind equals only itself (interned), and no piece's own equality takes in a
        # tile kind: ``piece == kind`` is ``piece is kind``, here tested in C
        return any(map(is_, player.alhambra.cells.values(), repeat(kind)))

    def _kind(self, state: GameState, value: object, pos: Pos, who: str | None) -> TileKind | None:
        kind, found = _card(value, pos, who)
        report(state, found)
        return kind

    def _reveal_check(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> tuple[list[Finding], TileKind | None]:
        """What ``bonus G10`` breaks (pure), and the card it names (None: none)."""
        data, pos, name = self.data(state), action.pos, player.name
        if len(action.args) != 1:
            tile = " ".join(str(a.value) for a in action.args) or NO_CARDS
            cards = " ".join(t.code for t in card_tiles())
            return [problem("BONUS-CARD", pos, name, tile=tile, cards=cards)], None
        kind, found = _card(action.args[0].value, action.args[0].pos or pos, name)
        if kind is None:
            return found, None
        if kind in data.revealed[name]:
            return [problem("BONUS-REVEALED", pos, name, tile=kind.code)], kind
        holder = data.owner.get(kind)
        if holder is not None and holder != name:
            where = Text("BONUS-SUPPLY.where/s", holder=holder)
            found.append(problem("BONUS-SUPPLY", pos, name, tile=kind.code, where=where))
        hand = data.hand[name]
        if hand[kind] <= 0 and data.hand_unknown[name] <= 0 and holder in (None, name):
            held = " ".join(t.code for t in hand.elements()) or Text("BONUS-NOT-HELD.held/none")
            found.append(problem("BONUS-NOT-HELD", pos, name, tile=kind.code, held=held))
        if not self._built(player, kind):
            found.append(problem("BONUS-NOT-BUILT", pos, name, tile=kind.code))
        return found, kind


def _card(value: object, pos: Pos, who: str | None) -> tuple[TileKind | None, list[Finding]]:
    """The bonus card a token names, or the finding that it names none (BONUS-CARD)."""
    cards = card_tiles()
    if isinstance(value, TileRef) and value.known:
        found = [t for t in value.candidates if t in cards]
        if len(found) == 1:
            return found[0], []
        text = f"{value.type.code if value.type else '?'}{value.price or ''}"
    else:
        text = str(getattr(value, "name", value))
    codes = " ".join(t.code for t in cards)
    return None, [problem("BONUS-CARD", pos, who, tile=text, cards=codes)]


def _bonus_ref(kind: TileKind) -> TileRef:
    return TileRef(kind.type, kind.price, kind.walls, (kind,))
