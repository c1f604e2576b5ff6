"""Die Falkner (falconers): falcons bought for one money card each and laid on crossings of four
own tiles whose base buildings show both colours on the falcon's back; per falcon colour they
score 2/6/12/20/30 at every scoring.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § DIE FALKNER.

Notation: a falcon is the component token ``fk:`` + the falcon colour (``K`` schwarz, ``B``
braun, ``W`` weiß) + the two building colours on its back (``P S A C G T``, either order):
``fk:KGT``. A crossing is a cell and a corner word (``@0,0 ne``; canonical: the north-east
corner of the cell south-west of it, ``docs/notation.md``).

* ``falcon fk:KGT @0,0 ne pay Gu2`` -- the action "Kauf und Platzierung von Falken", one line
  per falcon; several in one turn (``falcon ..., falcon ...``) when it is the turn's only
  action. ``pay`` names one money card (a diamond ``dm:7`` or a master builder ``mb:Gu`` too).
* position blocks: ``falcon fk:KGT @0,0 ne`` in a player's section.
* ``scoring 1: Anna +14 (G=8, falcons=6)`` -- the falcon line may be claimed.

Rulings (``docs/modules/falkner.md``): the turn consists of the falcon action only; a falcon
returned by a redesign is out of its owner's Alhambra and scores no more; only catalogue tiles
(the base game's buildings) supply colours.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from referee.catalogue import BuildingType, Side, TileKind
from referee.engine.findings import Finding, problem
from referee.engine.payment import Mix, PaymentTerms, apply_payment, payment_findings, plan_payment
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import end_main_action, main_action_findings, start_main_action
from referee.engine.verbs import Arg, VerbSpec
from referee.geometry.grid import ORIGIN
from referee.geometry.layers import corner_cells, corner_key, corner_text
from referee.geometry.pieces import Footprint
from referee.messages import Text
from referee.modules.base import BundledModule, ModulePiece, Scratch, bundled, module_data, section
from referee.record.model import CardRef, ComponentRef, Coord, GenericArg, ModuleAction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "DIE FALKNER"
S_SCORE = section(H, "Wertungsänderungen")
KIND = "fk"
VERB = "falcon"
COLOURS = ("K", "B", "W")
TOKEN = re.compile(r"^([KBW])([PSACGT])([PSACGT])$", re.IGNORECASE)
PAID_BY = ("dm", "mb")  # "Falken können mit Diamanten und Baumeisterkarten bezahlt werden"
DOING = Text("ACTION/buying-falcons")
_ORDER = {t: i for i, t in enumerate(BuildingType)}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("falkner")["components"]["falcons"]
    return data


def per_colour() -> dict[str, int]:
    return {k: int(v) for k, v in _data()["per_colour"].items()}


def points_table() -> list[int]:
    return [int(n) for n in _data()["points"]]


def colour_name(letter: str, lang: str = "en") -> str:
    return str(_data()["colours"][letter][lang])


@dataclass(frozen=True, slots=True)
class Falcon(ModulePiece):
    """A falcon on a crossing (E23): its colour and the two building colours on its back.
    It lies on no cell (``footprint`` corner), has no walls and no building type; the grid
    takes it off when one of the four tiles under it is redesigned (``leaves_on_redesign``:
    "Beim Umbau eines der 4 Plättchen ... wird der Falke wieder in den allgemeinen Vorrat
    zurückgelegt")."""

    colour: str
    shows: tuple[BuildingType, BuildingType]

    KIND = KIND
    footprint = Footprint.CORNER
    leaves_on_redesign = True

    @property
    def walls(self) -> frozenset[Side]:
        return frozenset()

    @property
    def token_name(self) -> str:
        return f"{self.colour}{self.shows[0].code}{self.shows[1].code}"

    @property
    def cell_label(self) -> str:
        return self.token_name

    def named_by(self, name: str) -> bool:
        return parse_falcon(name) == self


def parse_falcon(name: str) -> Falcon | None:
    """``KGT`` (or ``KTG``) -> the black falcon showing gardens and towers; None: no falcon."""
    m = TOKEN.match(name)
    if m is None:
        return None
    a, b = BuildingType(m.group(2).upper()), BuildingType(m.group(3).upper())
    if a is b:
        return None
    pair = (a, b) if _ORDER[a] < _ORDER[b] else (b, a)
    return Falcon(m.group(1).upper(), pair)


def falcons_of(player: PlayerState) -> list[tuple[Coord, Falcon]]:
    """The falcons in a player's Alhambra, by crossing (the key: the cell south-west of it)."""
    return falcons_on(player.alhambra)


def falcons_on(alhambra: Any) -> list[tuple[Coord, Falcon]]:
    """The falcons on an Alhambra's crossings, sorted (north first, then west)."""
    layers = None if alhambra is None else alhambra.layers
    if layers is None:
        return []
    return sorted(
        ((k, p) for k, p in layers.corners.items() if isinstance(p, Falcon)),
        key=lambda kp: (-kp[0].y, kp[0].x),
    )


def falcon_points(alhambra: Any) -> tuple[int, str, str] | None:
    """The falcon line of one Alhambra: per colour the table's points (None: no falcon)."""
    held = Counter(f.colour for _k, f in falcons_on(alhambra))
    if not held:
        return None
    table = points_table()
    total = 0
    en: list[str] = []
    de: list[str] = []
    for c in COLOURS:
        n = held.get(c, 0)
        if n:
            pts = table[min(n, len(table) - 1)]
            total += pts
            en.append(f"{n} {colour_name(c)} -> {pts}")
            de.append(f"{n} {colour_name(c, 'de')} -> {pts}")
    return total, ", ".join(en), ", ".join(de)


def colours_at(player: PlayerState, key: Coord) -> set[BuildingType]:
    """The building colours the base buildings at a crossing show ("Es gelten hierbei nur die
    Gebäude des Basisspiels"; the start tile supplies none)."""
    out: set[BuildingType] = set()
    for c in corner_cells(key):
        piece = player.alhambra.get(c)
        if isinstance(piece, TileKind) and piece.type is not None:
            out.add(piece.type)
    return out


@dataclass
class FalconScratch(Scratch):
    # faces stated per falcon colour over the game (a face seen is one falcon at least)
    """The module's own part of the game state (``state.modules``), copied with the state."""

    faces: dict[str, set[tuple[BuildingType, BuildingType]]] = field(default_factory=dict)
    falcon_turn: int | None = None  # the turn whose action is buying falcons


@bundled
class Falkner(BundledModule):
    """15 falcons beside the market; buying and placing them is a turn's only action."""

    verb_specs = (VerbSpec(VERB, args=(Arg.COMPONENT, Arg.COORD, Arg.WORD, Arg.PAYMENT)),)
    component_kinds = (KIND,)
    scratch_type = FalconScratch
    helpers = ("falcon_args",)

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.faces = {c: set() for c in COLOURS}

    # ------------------------------------------------------------------ the verb

    def falcon_args(
        self, action: ModuleAction
    ) -> tuple[Falcon | None, Coord | None, list[object], str, str]:
        """The falcon, the crossing key, the items paid, the token and the crossing as
        written."""
        vals = [a.value for a in action.args]
        ref = vals[0] if vals else None
        token = f"{ref.kind}:{ref.name}" if isinstance(ref, ComponentRef) else str(ref)
        falcon = (
            parse_falcon(ref.name)
            if isinstance(ref, ComponentRef) and ref.kind.lower() == KIND
            else None
        )
        key = None
        shown = " ".join(str(v) for v in vals[1:3])
        if len(vals) >= 3 and isinstance(vals[1], Coord) and isinstance(vals[2], str):
            key = corner_key(vals[1], vals[2])
        paid: list[object] = [
            v for v in vals[3:] if not (isinstance(v, str) and v.lower() in ("pay", "zahlt"))
        ]
        return falcon, key, paid, token, shown

    def _in_falcon_action(self, state: GameState) -> bool:
        t = state.turn
        return t is not None and self.data(state).falcon_turn == t.number

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Every rule of the action, without changing anything."""
        state = ctx.state
        pos = action.pos
        who = player.name
        out: list[Finding] = []
        falcon, key, paid, token, shown = self.falcon_args(action)
        t = state.turn
        if t is not None and not self._in_falcon_action(state):
            if t.main_actions > 0 and not t.over:  # an exact payment left an action
                out.append(problem("FALKNER-ONLY", pos, who, reason="bonus", done=t.main_actions))
            elif t.main_actions > 0:
                out.append(problem("FALKNER-ONLY", pos, who, reason="after", done=t.main_actions))
            else:
                out.extend(main_action_findings(state, pos, player, DOING))
        if falcon is None:
            out.append(problem("FALKNER-TOKEN", pos, who, token=token))
        else:
            out.extend(self._supply_findings(state, falcon, pos, who))
        out.extend(self._pay_findings(ctx, player, falcon, paid, token, action))
        if key is None:
            out.append(problem("FALKNER-CROSSING", pos, who, reason="form", corner=shown or "-"))
        else:
            out.extend(self._crossing_findings(player, key, falcon, token, pos))
        return out

    def _supply_findings(
        self, state: GameState, falcon: Falcon, pos: Any, who: str | None
    ) -> list[Finding]:
        """Five falcons per colour; each face stated is one falcon at least."""
        c = falcon.colour
        in_play = [(p.name, k, f) for p in state.players for k, f in falcons_of(p) if f.colour == c]
        name = colour_name(c)
        if len(in_play) >= per_colour()[c]:
            where = ", ".join(f"{n} {f.code} @{corner_text(k)}" for n, k, f in in_play)
            return [
                problem(
                    "FALKNER-SUPPLY",
                    pos,
                    who,
                    reason="colour-out",
                    token=falcon.code,
                    colour=name,
                    where=where,
                )
            ]
        faces = set(self.data(state).faces.get(c, set())) | {falcon.shows}
        listed = " ".join(sorted(f"{a.code}{b.code}" for a, b in faces))
        if len(faces) > per_colour()[c]:
            return [
                problem(
                    "FALKNER-SUPPLY",
                    pos,
                    who,
                    reason="faces",
                    token=falcon.code,
                    colour=name,
                    n=len(faces),
                    faces=listed,
                )
            ]
        most = per_colour()[c] - (len(faces) - 1)
        same = sum(1 for _n, _k, f in in_play if f == falcon)
        if same >= most:
            return [
                problem(
                    "FALKNER-SUPPLY",
                    pos,
                    who,
                    reason="copies",
                    token=falcon.code,
                    colour=name,
                    n=len(faces),
                    faces=listed,
                    most=most,
                    face=falcon.code,
                    inplay=same,
                )
            ]
        return []

    def _pay_findings(
        self,
        ctx: Any,
        player: PlayerState,
        falcon: Falcon | None,
        paid: list[object],
        token: str,
        action: ModuleAction,
    ) -> list[Finding]:
        """ "Der Kaufpreis für jeden Falken ist 1 Geldkarte, egal in welcher Höhe und
        Währung"; diamonds and master-builder cards too."""
        pos = action.pos
        who = player.name
        shown = " ".join(_item_text(v) for v in paid) or "-"
        out: list[Finding] = []
        if len(paid) != 1:
            out.append(
                problem(
                    "FALKNER-PAY",
                    pos,
                    who,
                    reason="count",
                    token=token,
                    paid=shown,
                    n=len(paid),
                )
            )
        for v in paid:
            if isinstance(v, ComponentRef) and v.kind.lower() not in PAID_BY:
                out.append(
                    problem(
                        "FALKNER-PAY",
                        getattr(v, "pos", None) or pos,
                        who,
                        reason="not-a-card",
                        token=token,
                        paid=shown,
                        item=_item_text(v),
                    )
                )
        if out:
            return out
        plan = plan_payment(ctx, player, paid, self._terms(falcon, token), pos)
        return payment_findings(ctx, plan)

    def _terms(self, falcon: Falcon | None, token: str) -> PaymentTerms:
        return PaymentTerms(
            0,
            falcon.code if falcon is not None else token,
            mix=Mix.ANY,
            superfluous=False,
            source=section(H, "Aktion: Kauf und Platzierung von Falken"),
        )

    def _crossing_findings(
        self, player: PlayerState, key: Coord, falcon: Falcon | None, token: str, pos: Any
    ) -> list[Finding]:
        who = player.name
        corner = corner_text(key)
        alh = player.alhambra
        cells = corner_cells(key)
        empty = [c for c in cells if alh.get(c) is None]
        if empty:
            return [
                problem(
                    "FALKNER-CROSSING",
                    pos,
                    who,
                    reason="empty",
                    corner=corner,
                    cells=" ".join(f"@{c}" for c in empty),
                )
            ]
        if self.option("crossing") == "buildings":
            odd = [c for c in cells if c != ORIGIN and getattr(alh.get(c), "type", None) is None]
            if odd:
                return [
                    problem(
                        "FALKNER-CROSSING",
                        pos,
                        who,
                        reason="no-building",
                        corner=corner,
                        cells=" ".join(f"{alh.get(c)}@{c}" for c in odd),
                    )
                ]
        out: list[Finding] = []
        other = alh.corner(key)
        if other is not None:
            out.append(problem("FALKNER-TAKEN", pos, who, corner=corner, other=str(other)))
        if falcon is not None:
            there = colours_at(player, key)
            missing = [t for t in falcon.shows if t not in there]
            if missing:
                out.append(
                    problem(
                        "FALKNER-COLOURS",
                        pos,
                        who,
                        token=falcon.code,
                        corner=corner,
                        missing=" ".join(t.code for t in missing),
                        there=" ".join(sorted(t.code for t in there)) or "-",
                    )
                )
        return out

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """Carry the falcon action out (checked by :meth:`check_verb`): the turn's action,
        the card paid, the falcon on its crossing."""
        from referee.engine.context import Context

        ctx = Context(state, action.pos)
        data = self.data(state)
        t = state.turn
        if t is not None and not self._in_falcon_action(state):
            start_main_action(state)
            data.falcon_turn = t.number
        falcon, key, paid, token, _shown = self.falcon_args(action)
        if paid:
            plan = plan_payment(ctx, player, paid, self._terms(falcon, token), action.pos)
            apply_payment(ctx, plan)
        # "nur als die einzige Aktion": no other action and no extra action after it
        end_main_action(state, DOING)
        if falcon is None:
            return []
        data.faces.setdefault(falcon.colour, set()).add(falcon.shows)
        alh = player.alhambra
        if key is not None and alh.corner(key) is None:
            alh.place_corner(key, falcon)
        return []

    def removed(self, state: GameState, player: PlayerState, at: Coord, piece: Any) -> list[Any]:
        """A tile under a falcon was redesigned: the grid took the falcon off; it is back in
        the supply ("Dort kann er erneut von jedem Spieler erworben werden"), which counts the
        falcons in the Alhambras."""
        player.alhambra.take_returned()
        return []

    # ------------------------------------------------------------------ scoring

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Die Falken jeder Farbe werden separat gewertet": a ``falcons`` point line at every
        scoring for each player with falcons. None while no falcon was ever laid in this game
        (``faces`` empty: every falcon laid, by the action or a position's line, states its
        face there first): then no player has a falcon, the line would give nobody points,
        and a claimed ``falcons`` part is compared with 0 and named by the same registered
        label either way (``scoring.core.claim_mismatches``)."""
        data = state.modules.get(self.name)
        if data is None or not any(data.faces.values()):
            return None
        from referee.scoring import ScoringParts
        from referee.scoring.categories import PointLine

        def points(p: Any) -> tuple[int, str, str] | None:
            return falcon_points(p.alhambra)

        line = PointLine("falcons", "falcons", "Falken", S_SCORE, points, order=640)
        return ScoringParts(categories=(line,))

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """``falcon fk:KGT @0,0 ne`` for each falcon in the player's Alhambra."""
        if player is None:
            return []
        return [
            ModuleAction(
                VERB,
                (GenericArg(ComponentRef(KIND, f.token_name)), GenericArg(k), GenericArg("ne")),
            )
            for k, f in falcons_of(player)
        ]

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """``falcon fk:KGT @x,y ne`` in a player's section: a falcon on that crossing
        (checked like a placement, without a payment)."""
        if player is None or line.verb.lower() != VERB:
            return False
        falcon, key, _paid, token, shown = self.falcon_args(line)
        who = player.name
        found: list[Finding] = []
        if falcon is None:
            found.append(problem("FALKNER-TOKEN", line.pos, who, token=token))
        else:
            found.extend(self._supply_findings(state, falcon, line.pos, who))
        if key is None:
            found.append(problem("FALKNER-CROSSING", line.pos, who, reason="form", corner=shown))
        else:
            found.extend(self._crossing_findings(player, key, falcon, token, line.pos))
        from referee.engine.findings import report

        report(state, found)
        if falcon is not None and key is not None and player.alhambra.corner(key) is None:
            self.data(state).faces.setdefault(falcon.colour, set()).add(falcon.shows)
            player.alhambra.place_corner(key, falcon)
        return True

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        """The falcons left per colour, each player's falcons and falcon points now."""
        left = per_colour()
        for p in state.players:
            for _k, f in falcons_of(p):
                left[f.colour] -= 1
        players: dict[str, dict[str, str]] = {}
        for p in state.players:
            held = falcons_of(p)
            if held:
                pts = falcon_points(p.alhambra)
                players[p.name] = {
                    "falcons": " ".join(f"{f.code} {corner_text(k)}" for k, f in held),
                    "falcon points now": str(pts[0] if pts else 0),
                }
        return self.shown(
            {
                "in the supply": " ".join(f"{colour_name(c)} {left[c]}" for c in COLOURS),
                "options": f"crossing={self.option('crossing')}",
            },
            players,
        )

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """One falcon of the assumed faces still in the supply on each crossing that shows
        both its colours, paid with the player's smallest card (the turn's first action or
        the falcon action going on)."""
        state = ctx.state
        t = state.turn
        if player.alhambra_unknown or player.hand_unknown:
            return []
        if t is not None and t.main_actions > 0 and not self._in_falcon_action(state):
            return []
        cards = sorted(player.hand.elements(), key=lambda c: (c.value, c.code))
        if not cards:
            return []
        card = CardRef(cards[0])
        used = Counter(f for p in state.players for _k, f in falcons_of(p))
        colour_used = Counter(f.colour for f in used.elements())
        candidates: list[Falcon] = []
        for c, faces in _data()["assumed_faces"].items():
            if colour_used[c] >= per_colour()[c]:
                continue
            for face in faces:
                f = parse_falcon(f"{c}{face}")
                if f is not None and used[f] == 0:
                    candidates.append(f)
        alh = player.alhambra
        out: list[Any] = []
        for key in sorted(alh.cells, key=lambda k: (-k.y, k.x)):
            cells = corner_cells(key)
            if alh.corner(key) is not None or not all(alh.get(x) is not None for x in cells):
                continue
            if any(x != ORIGIN and getattr(alh.get(x), "type", None) is None for x in cells):
                continue
            there = colours_at(player, key)
            for f in candidates:
                if all(s in there for s in f.shows):
                    out.append(
                        ModuleAction(
                            VERB,
                            (
                                GenericArg(ComponentRef(KIND, f.token_name)),
                                GenericArg(key),
                                GenericArg("ne"),
                                GenericArg("pay"),
                                GenericArg(card),
                            ),
                        )
                    )
                    break
        return out

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Simulated players like falcons (so that simulated games use the module)."""
        return [a for a in actions if isinstance(a, ModuleAction) and a.verb == VERB]


def _item_text(v: object) -> str:
    if isinstance(v, ComponentRef):
        return f"{v.kind}:{v.name}"
    if isinstance(v, CardRef):
        return "?" if v.card is None else v.card.code
    code = getattr(v, "code", None)
    return str(code) if code is not None else str(v)
