"""Die Obstgärten (orchards): a fruit on every base building laid on the market, fruit boards
scored at the end.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Emanuele Ornella: Die Obstgärten.

"Wenn ein Gebäude des Grundspiels auf den Bauhof gelegt wird, wird sofort eine Frucht aus dem
Vorrat gezogen und offen auf das Gebäudeplättchen gelegt. Erwirbt ein Spieler nun eines dieser
Gebäude, bekommt er neben dem Gebäude auch die Frucht, die er auf ein passendes Feld seiner
Früchtetafel legt."

Notation::

    * orchard Anna bd:3 Ben bd:5 Cem bd:1      # "Jedem Spieler wird eine Früchtetafel zugelost"
    * market Gu:T9ne
    * fruit Gu fr:4                            # the fruit drawn onto the new market tile
    8. Ben: buy Gu T9ne pay Gu9, place T9ne@1,0, fruit fr:4 5     # onto field 5 of his board
    9. Cem: buy Di G8 pay Di8, reserve G8, fruit fr:2 down        # all fields of kind 2 full

A fruit the record does not place lies on the first free matching field (else face down). The
boards' fields are picture-only data (``obstgaerten.yaml``, ``verified: false``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.catalogue import Currency, TileKind
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.modules.base import BundledModule, Scratch, bundled, module_data, rule, section
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
)
from referee.scoring.categories import CategoryInfo, PointLine, register_category

H = "Emanuele Ornella: Die Obstgärten"
S_MATERIAL = section(H, "Spielmaterial")
S_SETUP = section(H, "Änderungen in der Spielvorbereitung")
S_PLAY = section(H, "Änderungen im Spielablauf")
S_SCORE = section(H, "Wertungsänderung")
ORCHARD = "orchard"
FRUIT = "fruit"
FR = "fr"
BD = "bd"
DOWN = ("down", "verdeckt")

_DATA = module_data("obstgaerten")["components"]
KINDS = int(_DATA["fruits"]["kinds"])
PER_KIND = int(_DATA["fruits"]["per_kind"])
BOARDS: dict[int, list[tuple[int, list[int]]]] = {
    int(b): [(int(g["points"]), [int(k) for k in g["fields"]]) for g in groups]
    for b, groups in _DATA["boards"]["layouts"].items()
}


def board_fields(board: int) -> list[int]:
    """The fruit kind of each field of ``board`` (field 1 first)."""
    return [k for _pts, kinds in BOARDS[board] for k in kinds]


def orchard_points(board: int, fields: dict[int, int], face_down: int) -> tuple[int, str, str]:
    """ "für jede komplett mit Früchten belegte Punktegruppe ... die dort angegebenen Punkte.
    Jede verdeckte Frucht zählt dann 1 Siegpunkt." -- with the explanation (EN, DE)."""
    full: list[int] = []
    i = 1
    for pts, kinds in BOARDS[board]:
        if all(i + j in fields for j in range(len(kinds))):
            full.append(pts)
        i += len(kinds)
    total = sum(full) + face_down
    parts = "+".join(str(p) for p in full) or "0"
    en = f"groups {parts}, {face_down} face down"
    de = f"Gruppen {parts}, {face_down} verdeckt"
    return total, en, de


rule(
    "ORCHARD-BOARD",
    "fruit board stated wrongly",
    "Früchtetafel falsch angegeben",
    S_SETUP,
    '{detail}: "Jedem Spieler wird eine Früchtetafel zugelost" (7 boards, bd:1 ... bd:7)',
    "{detail}: jedem Spieler wird eine Früchtetafel zugelost (7 Tafeln, bd:1 ... bd:7)",
    reasons={
        "syntax": (
            "`orchard` names players and their boards: orchard Anna bd:3 Ben bd:5",
            "`orchard` nennt Spieler und ihre Tafeln: orchard Anna bd:3 Ben bd:5",
        ),
        "token": ("{token} is no fruit board", "{token} ist keine Früchtetafel"),
        "twice": ("board bd:{board} is drawn twice", "Tafel bd:{board} wird zweimal gezogen"),
        "player": ("{name} gets a second board", "{name} bekommt eine zweite Tafel"),
        "unknown": ("{name} plays no part", "{name} spielt nicht mit"),
    },
)
rule(
    "FRUIT-TOKEN",
    "no such fruit",
    "keine solche Frucht",
    S_MATERIAL,
    '{token} is no fruit: write fr:1 ... fr:7 ("56 Früchte (je 8 in 7 Sorten)")',
    "{token} ist keine Frucht: fr:1 ... fr:7 schreiben (56 Früchte, je 8 in 7 Sorten)",
)
rule(
    "FRUIT-SUPPLY",
    "more fruits than exist",
    "mehr Früchte als vorhanden",
    S_MATERIAL,
    'a ninth fruit fr:{kind} is drawn: there are 8 of each kind ("je 8 in 7 Sorten")',
    "eine neunte Frucht fr:{kind} wird gezogen: es gibt 8 je Sorte (je 8 in 7 Sorten)",
)
rule(
    "FRUIT-DRAW",
    "fruit on the wrong market tile",
    "Frucht auf dem falschen Plättchen",
    S_PLAY,
    '{detail}: "Wenn ein Gebäude des Grundspiels auf den Bauhof gelegt wird, wird sofort eine '
    'Frucht aus dem Vorrat gezogen und offen auf das Gebäudeplättchen gelegt"',
    "{detail}: wenn ein Gebäude des Grundspiels auf den Bauhof gelegt wird, wird sofort eine "
    "Frucht aus dem Vorrat gezogen und offen auf das Gebäudeplättchen gelegt",
    reasons={
        "syntax": (
            "`fruit` names market fields and fruits: fruit Gu fr:4 Di fr:2",
            "`fruit` nennt Felder des Bauhofs und Früchte: fruit Gu fr:4 Di fr:2",
        ),
        "no-tile": (
            "no base building lies on the {field} field",
            "auf dem Feld {field} liegt kein Gebäude des Grundspiels",
        ),
        "has-fruit": (
            "the tile on the {field} field already carries fr:{kind}",
            "das Plättchen auf dem Feld {field} trägt schon fr:{kind}",
        ),
    },
)
rule(
    "FRUIT-MISSING",
    "no fruit on a market tile",
    "keine Frucht auf einem Plättchen",
    S_PLAY,
    "the {tile} on the {field} field got no fruit: a `* fruit {field} fr:N` line must follow "
    'the market line ("wird sofort eine Frucht aus dem Vorrat gezogen")',
    "{tile} auf dem Feld {field} bekam keine Frucht: eine Zeile `* fruit {field} fr:N` muss "
    "der Bauhof-Zeile folgen (es wird sofort eine Frucht aus dem Vorrat gezogen)",
)
rule(
    "FRUIT-NOT-HELD",
    "fruit not received",
    "Frucht nicht erhalten",
    S_PLAY,
    "{player} places fr:{kind} but bought no tile carrying it in this turn (received: "
    '{held}): "bekommt er neben dem Gebäude auch die Frucht"',
    "{player} legt fr:{kind}, hat aber in diesem Zug kein Plättchen mit dieser Frucht erworben "
    "(erhalten: {held}): er bekommt neben dem Gebäude auch die Frucht",
)
rule(
    "FRUIT-FIELD",
    "fruit on a wrong field",
    "Frucht auf falschem Feld",
    S_PLAY,
    '{player} lays fr:{kind} on field {field}: {detail} ("die er auf ein passendes Feld '
    'seiner Früchtetafel legt")',
    "{player} legt fr:{kind} auf Feld {field}: {detail} (die er auf ein passendes Feld seiner "
    "Früchtetafel legt)",
    reasons={
        "no-field": (
            "board bd:{board} has no such field",
            "Tafel bd:{board} hat kein solches Feld",
        ),
        "kind": ("the field shows fr:{shows}", "das Feld zeigt fr:{shows}"),
        "taken": ("the field is already taken", "das Feld ist schon belegt"),
        "no-board": ("the player has no board stated", "für den Spieler ist keine Tafel angegeben"),
    },
)
rule(
    "FRUIT-FACEDOWN",
    "fruit face down too early",
    "Frucht zu früh verdeckt",
    S_PLAY,
    '{player} lays fr:{kind} face down while field {free} of that fruit is free: "Dies ist '
    'nicht erlaubt, solange es noch ein der Frucht entsprechendes freies Fruchtfeld gibt."',
    "{player} legt fr:{kind} verdeckt ab, obwohl Feld {free} dieser Frucht frei ist: dies ist "
    "nicht erlaubt, solange es noch ein der Frucht entsprechendes freies Fruchtfeld gibt",
)
register_category(CategoryInfo(ORCHARD, "orchard", "Obstgarten", S_SCORE, ORCHARD))


@dataclass
class OrchardScratch(Scratch):
    boards: dict[str, int] = field(default_factory=dict)  # player -> board
    on_market: dict[int, int | None] = field(default_factory=dict)  # slot -> kind (None: ?)
    drawn: Counter[int] = field(default_factory=Counter)
    fields: dict[str, dict[int, int]] = field(default_factory=dict)  # player -> field -> kind
    face_down: dict[str, int] = field(default_factory=dict)
    pending: dict[str, list[int | None]] = field(default_factory=dict)  # bought, not laid
    leftovers: dict[TileKind, int | None] = field(default_factory=dict)


@bundled
class Obstgaerten(BundledModule):
    name = "obstgaerten"
    aliases = ("obstgärten", "orchards")
    title_en = "The Orchards"
    title_de = "Die Obstgärten"
    section = section(H)
    page = 40  # printed page of rulebook-bigbox-de-2019.txt: the listing order
    summary = (
        "a fruit on every base building laid on the market goes with it to the buyer's board; "
        "full point groups and face-down fruits score at the end"
    )
    summary_de = (
        "eine Frucht auf jedem Grundspiel-Gebäude im Bauhof geht mit ihm auf die Tafel des "
        "Käufers; volle Punktegruppen und verdeckte Früchte zählen am Ende"
    )
    verbs = (FRUIT,)
    verb_kinds: ClassVar[dict[str, str]] = {FRUIT: "free"}
    free_verbs = (FRUIT,)
    chance_verbs = (ORCHARD, FRUIT)
    component_kinds = (FR, BD)
    scratch_type = OrchardScratch

    # ------------------------------------------------------------------ lines

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        if event.verb.lower() == ORCHARD:
            self._boards(state, event)
        else:
            self._fruits(state, event)
        return []

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """``fruit fr:4 5`` (onto field 5) or ``fruit fr:4 down`` (face down)."""
        data = self.data(state)
        args = action.args
        if len(args) != 2:
            state.flag(
                "FRUIT-TOKEN", action.pos, player.name, token=" ".join(_tok(a) for a in args)
            )
            return []
        kind = _fruit(args[0].value)
        if kind is None:
            state.flag("FRUIT-TOKEN", args[0].pos or action.pos, player.name, token=_tok(args[0]))
            return []
        held = data.pending.setdefault(player.name, [])
        if kind in held:
            held.remove(kind)
        elif None in held:
            held.remove(None)  # an unknown fruit: the record names it now
        else:
            state.flag(
                "FRUIT-NOT-HELD",
                action.pos,
                player.name,
                kind=kind,
                held=" ".join(f"fr:{k}" for k in held if k) or "-",
            )
            return []
        where = args[1].value
        board = data.boards.get(player.name)
        if board is None:
            state.flag(
                "FRUIT-FIELD", action.pos, player.name, reason="no-board", kind=kind, field=where
            )
            return []
        taken = data.fields.setdefault(player.name, {})
        kinds = board_fields(board)
        if isinstance(where, str) and where.lower() in DOWN:
            free = _free_field(kinds, taken, kind)
            if free is not None:
                state.flag("FRUIT-FACEDOWN", action.pos, player.name, kind=kind, free=free)
            data.face_down[player.name] = data.face_down.get(player.name, 0) + 1
            return []
        if not isinstance(where, int) or not 1 <= where <= len(kinds):
            state.flag(
                "FRUIT-FIELD",
                action.pos,
                player.name,
                reason="no-field",
                kind=kind,
                field=where,
                board=board,
            )
            return []
        if kinds[where - 1] != kind:
            state.flag(
                "FRUIT-FIELD",
                action.pos,
                player.name,
                reason="kind",
                kind=kind,
                field=where,
                shows=kinds[where - 1],
            )
            return []
        if where in taken:
            state.flag(
                "FRUIT-FIELD", action.pos, player.name, reason="taken", kind=kind, field=where
            )
            return []
        taken[where] = kind
        return []

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Erwirbt ein Spieler nun eines dieser Gebäude, bekommt er neben dem Gebäude auch die
        Frucht" -- also into the reserve, also by the vizier."""
        if purchase.slot is None:
            return
        data = self.data(ctx.state)
        if purchase.slot in data.on_market:
            fruit = data.on_market.pop(purchase.slot)
            data.pending.setdefault(purchase.player.name, []).append(fruit)

    def at_moment(self, ctx: Any, moment: Moment) -> None:
        super().at_moment(ctx, moment)
        state = ctx.state
        data = self.data(state)
        if moment in (Moment.TURN_START, Moment.LEFTOVERS_BEFORE):
            self._missing(state, ctx.pos)
        if moment in (Moment.TURN_END, Moment.LEFTOVERS_BEFORE, Moment.SCORING_DONE):
            for name in list(data.pending):
                self._lay_default(state, name)
        if moment == Moment.LEFTOVERS_BEFORE:
            data.leftovers = {}
            for slot, kind in data.on_market.items():
                tile = state.market[slot]
                if isinstance(tile, TileKind):
                    data.leftovers[tile] = kind
        if moment == Moment.LEFTOVERS_DONE:
            # reading: a fruit goes with its tile in the leftover distribution as well
            for p in state.players:
                got = [t for _c, t in p.alhambra.items()] + list(p.reserve)
                for tile, kind in list(data.leftovers.items()):
                    if tile in got:
                        data.pending.setdefault(p.name, []).append(kind)
                        del data.leftovers[tile]
                self._lay_default(state, p.name)
            data.on_market.clear()

    # ------------------------------------------------------------------ scoring, view

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Am Ende des Spiels erhält der Spieler für jede komplett mit Früchten belegte
        Punktegruppe seines Tableaus die dort angegebenen Punkte. Jede verdeckte Frucht zählt
        dann 1 Siegpunkt." """
        from referee.scoring import ScoringParts

        if round_no != 3:
            return None
        data = self.data(state)

        def points(p: Any) -> tuple[int, str, str] | None:
            board = data.boards.get(p.name)
            if p.is_dirk or board is None:
                return None
            return orchard_points(board, data.fields.get(p.name, {}), data.face_down.get(p.name, 0))

        line = PointLine(ORCHARD, "orchard", "Obstgarten", S_SCORE, points, order=650)
        return ScoringParts(categories=(line,))

    view_terms_de: ClassVar[dict[str, str]] = {
        "fruits on the market": "Früchte am Bauhof",
        "fruits drawn": "gezogene Früchte",
        "board": "Tableau",
        "fields": "Felder",
        "points now": "Punkte jetzt",
        "groups": "Gruppen",
    }
    """German for the words of :meth:`view` (``show --lang de``)."""

    def view(self, state: GameState) -> dict[str, Any]:
        data = self.data(state)
        table = {
            "fruits on the market": " ".join(
                f"{Currency.of_field(s + 1).code}:fr:{k if k else '?'}"
                for s, k in sorted(data.on_market.items())
            )
            or "-",
            "fruits drawn": sum(data.drawn.values()),
        }
        players: dict[str, dict[str, Any]] = {}
        for p in state.players:
            board = data.boards.get(p.name)
            if board is None:
                continue
            f = data.fields.get(p.name, {})
            down = data.face_down.get(p.name, 0)
            pts, en, _de = orchard_points(board, f, down)
            players[p.name] = {
                "board": f"bd:{board}",
                "fields": " ".join(f"{n}:fr:{k}" for n, k in sorted(f.items())) or "-",
                "face down": down,
                "points now": f"{pts} ({en})",
            }
        return {
            "labels": {"en": self.title_en, "de": self.title_de},
            "table": table,
            "players": players,
        }

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        data = self.data(ctx.state)
        board = data.boards.get(player.name)
        held = [k for k in data.pending.get(player.name, []) if k is not None]
        if board is None or not held:
            return []
        kinds = board_fields(board)
        taken = data.fields.get(player.name, {})
        out: list[Any] = []
        for k in sorted(set(held)):
            free = [i + 1 for i, s in enumerate(kinds) if s == k and i + 1 not in taken]
            where: list[int | str] = list(free) if free else ["down"]
            for w in where:
                out.append(
                    ModuleAction(FRUIT, (GenericArg(ComponentRef(FR, str(k))), GenericArg(w)))
                )
        return out

    # ------------------------------------------------------------------ simulator

    def _pile(self, sim: Any) -> list[int]:
        def make() -> list[int]:
            pile = [k for k in range(1, KINDS + 1) for _ in range(PER_KIND)]
            sim.rng.shuffle(pile)
            return pile

        pile: list[int] = sim.mine(self, make)
        return pile

    def sim_setup(self, sim: Any) -> list[Any]:
        """Boards drawn at random; a fruit on each tile of the first market."""
        boards = sorted(BOARDS)
        sim.rng.shuffle(boards)
        args: list[GenericArg] = []
        for p, b in zip(sim.state.players, boards, strict=False):
            args += [GenericArg(p.name), GenericArg(ComponentRef(BD, str(b)))]
        out: list[Any] = [ModuleChance(ORCHARD, tuple(args))]
        out += self.sim_after_refill(sim)
        return out

    def sim_after_refill(self, sim: Any) -> list[Any]:
        """A fruit on every base building newly laid on the market."""
        data = self.data(sim.state)
        pile = self._pile(sim)
        args: list[GenericArg] = []
        for slot, tile in enumerate(sim.state.market):
            if isinstance(tile, TileKind) and slot not in data.on_market and pile:
                args += [
                    GenericArg(Currency.of_field(slot + 1).code),
                    GenericArg(ComponentRef(FR, str(pile.pop()))),
                ]
        return [ModuleChance(FRUIT, tuple(args))] if args else []

    # ------------------------------------------------------------------ helpers

    def _boards(self, state: GameState, event: ModuleChance) -> None:
        data = self.data(state)
        args = event.args
        if not args or len(args) % 2:
            state.flag("ORCHARD-BOARD", event.pos, reason="syntax")
            return
        for i in range(0, len(args), 2):
            who, what = args[i], args[i + 1]
            name = who.value.name if isinstance(who.value, PlayerRef) else str(who.value)
            p = state.player_named(name)
            if p is None:
                state.flag("ORCHARD-BOARD", who.pos or event.pos, reason="unknown", name=name)
                continue
            b = _board(what.value)
            if b is None:
                state.flag("ORCHARD-BOARD", what.pos or event.pos, reason="token", token=_tok(what))
                continue
            if p.name in data.boards:
                state.flag("ORCHARD-BOARD", who.pos or event.pos, reason="player", name=p.name)
                continue
            if b in data.boards.values():
                state.flag("ORCHARD-BOARD", what.pos or event.pos, reason="twice", board=b)
                continue
            data.boards[p.name] = b

    def _fruits(self, state: GameState, event: ModuleChance) -> None:
        data = self.data(state)
        args = event.args
        if not args or len(args) % 2:
            state.flag("FRUIT-DRAW", event.pos, reason="syntax")
            return
        for i in range(0, len(args), 2):
            where, what = args[i], args[i + 1]
            pos = where.pos or event.pos
            cur = _currency(where.value)
            kind = _fruit(what.value)
            if cur is None:
                state.flag("FRUIT-DRAW", pos, reason="syntax")
                continue
            if kind is None:
                state.flag("FRUIT-TOKEN", what.pos or pos, token=_tok(what))
                continue
            slot = cur.field - 1
            tile = state.market[slot] if 0 <= slot < len(state.market) else None
            if not isinstance(tile, TileKind):
                state.flag("FRUIT-DRAW", pos, reason="no-tile", field=cur.code)
                continue
            if data.on_market.get(slot) is not None:
                state.flag(
                    "FRUIT-DRAW", pos, reason="has-fruit", field=cur.code, kind=data.on_market[slot]
                )
                continue
            data.drawn[kind] += 1
            if data.drawn[kind] > PER_KIND:
                state.flag("FRUIT-SUPPLY", what.pos or pos, kind=kind)
            data.on_market[slot] = kind

    def _missing(self, state: GameState, pos: Any) -> None:
        data = self.data(state)
        if sum(data.drawn.values()) >= KINDS * PER_KIND:
            return  # the supply is used up
        for slot, tile in enumerate(state.market):
            if isinstance(tile, TileKind) and slot not in data.on_market:
                state.flag(
                    "FRUIT-MISSING",
                    pos or (state.turn.pos if state.turn is not None else NOWHERE),
                    tile=tile.full_code,
                    field=Currency.of_field(slot + 1).code,
                )
                data.on_market[slot] = None  # reported once; its fruit is unknown

    def _lay_default(self, state: GameState, name: str) -> None:
        """A fruit the record did not place lies on the first free matching field (reading),
        else face down."""
        data = self.data(state)
        held = data.pending.pop(name, [])
        board = data.boards.get(name)
        if board is None:
            return
        kinds = board_fields(board)
        taken = data.fields.setdefault(name, {})
        for k in held:
            free = _free_field(kinds, taken, k) if k is not None else None
            if free is not None and k is not None:
                taken[free] = k
            else:
                data.face_down[name] = data.face_down.get(name, 0) + 1


def _free_field(kinds: list[int], taken: dict[int, int], kind: int) -> int | None:
    return next((i + 1 for i, s in enumerate(kinds) if s == kind and i + 1 not in taken), None)


def _tok(arg: GenericArg) -> str:
    v = arg.value
    return f"{v.kind}:{v.name}" if isinstance(v, ComponentRef) else str(v)


def _fruit(value: object) -> int | None:
    if isinstance(value, ComponentRef) and value.kind.lower() == FR and value.name.isdigit():
        n = int(value.name)
        return n if 1 <= n <= KINDS else None
    return None


def _board(value: object) -> int | None:
    if isinstance(value, ComponentRef) and value.kind.lower() == BD and value.name.isdigit():
        n = int(value.name)
        return n if n in BOARDS else None
    return None


def _currency(value: object) -> Currency | None:
    return Currency.of_code(value)
