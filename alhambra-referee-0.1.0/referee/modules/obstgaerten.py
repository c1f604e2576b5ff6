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

from referee.catalogue import CURRENCIES, Currency, TileKind
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment
from referee.engine.verbs import VerbSpec
from referee.modules.base import (
    BundledModule,
    Scratch,
    bundled,
    field_under,
    follow_market,
    module_data,
    section,
    token_text,
)
from referee.record.model import (
    NOWHERE,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    PlayerRef,
)
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

H = "Emanuele Ornella: Die Obstgärten"
S_SCORE = section(H, "Wertungsänderung")
ORCHARD = "orchard"
FRUIT = "fruit"
FRUITBOARD = "fruitboard"
FR = "fr"
BD = "bd"
DOWN = ("down", "verdeckt")
# a moment inside a turn: the fruits that came with the buildings the turn bought and are not
# laid yet (a position's ``fruit ... bought fr:4 ?``)
BOUGHT = ("bought", "gekauft")
# after the game's end: the fruits drawn that are on no board (a position's ``fruit gone 1``)
GONE = "gone"

_DATA = module_data("obstgaerten")["components"]
KINDS = int(_DATA["fruits"]["kinds"])
PER_KIND = int(_DATA["fruits"]["per_kind"])
BOARDS: dict[int, list[tuple[int, list[int]]]] = {
    int(b): [(int(g["points"]), [int(k) for k in g["fields"]]) for g in groups]
    for b, groups in _DATA["boards"]["layouts"].items()
}


Layout = list[tuple[int, list[int]]]  # (points of a group, the fruit kind of each of its fields)


def board_fields(board: int, layout: Layout | None = None) -> list[int]:
    """The fruit kind of each field of ``board`` (field 1 first): of the stated ``layout``,
    else of the YAML's placeholder."""
    return [k for _pts, kinds in (layout or BOARDS[board]) for k in kinds]


def orchard_points(
    board: int, fields: dict[int, int], face_down: int, layout: Layout | None = None
) -> tuple[int, str, str]:
    """ "für jede komplett mit Früchten belegte Punktegruppe ... die dort angegebenen Punkte.
    Jede verdeckte Frucht zählt dann 1 Siegpunkt." -- with the explanation (EN, DE)."""
    full: list[int] = []
    i = 1
    has = fields.__contains__
    for pts, kinds in layout or BOARDS[board]:
        n = len(kinds)
        if all(map(has, range(i, i + n))):  # every field of the group taken, looked for in C
            full.append(pts)
        i += n
    total = sum(full) + face_down
    parts = "+".join(str(p) for p in full) or "0"
    en = f"groups {parts}, {face_down} face down"
    de = f"Gruppen {parts}, {face_down} verdeckt"
    return total, en, de


@dataclass
class _Lay:
    """The change a ``fruit`` line makes: the fruit taken from the bought ones (``False``:
    none; None: an unknown one), the board then used, face down, or the field it lies on."""

    take: int | bool | None = False
    board: int | None = None
    down: bool = False
    field: int | None = None
    kind: int = 0


@dataclass
class OrchardScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    boards: dict[str, int] = field(default_factory=dict)  # player -> board
    on_market: dict[int, int | None] = field(default_factory=dict)  # slot -> kind (None: ?)
    # the building each fruit lies on ("offen auf das Gebäudeplättchen gelegt", L3038-3041):
    # when market buildings change places (Handwerker's Mörtelmischer, L3138-3139) the fruit
    # goes with its building
    under: dict[int, object] = field(default_factory=dict)
    drawn: Counter[int] = field(default_factory=Counter)
    fields: dict[str, dict[int, int]] = field(default_factory=dict)  # player -> field -> kind
    face_down: dict[str, int] = field(default_factory=dict)
    pending: dict[str, list[int | None]] = field(default_factory=dict)  # bought, not laid
    leftovers: dict[TileKind, int | None] = field(default_factory=dict)
    layouts: dict[int, Layout] = field(default_factory=dict)  # board -> stated layout
    used: set[int] = field(default_factory=set)  # boards a fruit was laid on
    boards_checked: bool = False  # every player's board looked for when play began
    # the plan check_verb made: (the line, its player, the plan), for its action; cleared by
    # every step that changes what a plan reads (bought fruits, boards, layouts, fields)
    planned: tuple[ModuleAction, PlayerState, _Lay] | None = None
    followed: tuple[object, ...] = ()  # the market when its fruits last followed (data)
    # the idle answers kept for the engine (Module.kept_idle): at a turn's start a copy of the
    # market at which ``idle_at`` said yes (None: not known), set where the answer is worked
    # out (a refill's ``fruit`` line, the turn-start step) and cleared by every step of this
    # module that changes what it reads without a market change (a fruit leaving the market,
    # the fruits following their buildings); at a turn's end ``not pending``, kept by every
    # step that changes ``pending``
    idle_start: list[Any] | None = field(default=None, repr=False, compare=False)
    idle_end: bool = field(default=True, repr=False, compare=False)


@bundled
class Obstgaerten(BundledModule):
    aliases = ("obstgärten", "orchards")
    # laid in the line of the purchase that brought the fruit: no action of its own
    verb_specs = (VerbSpec(FRUIT, kind="free"),)
    chance_verbs = (ORCHARD, FRUIT, FRUITBOARD)
    component_kinds = (FR, BD)
    scratch_type = OrchardScratch
    hears_component_purchases = True  # after_plain_purchase: any purchase it hears of

    def data(self, state: GameState) -> Any:
        """The module's state (an :class:`OrchardScratch`), its market fruits following their
        buildings."""
        data: OrchardScratch | None = state.modules.get(self.name)  # _kept, inline
        if data is None:
            data = self._kept(state)
        if data.under:
            # the same pieces on the same fields as when the fruits last followed the market:
            # no building moved since, and the module's own steps since laid fruits on
            # buildings where they lie (each runs this first), so following again would move
            # nothing (follow_market moves a fruit only to where its building lies now) and is
            # left out; a step that takes a fruit off the market clears ``followed`` (the fruit
            # of a building gone keeps its field for the hook: taken, another fruit may move
            # there) (tests/test_module_obstgaerten_fast.py holds the two equal)
            market = state.market
            now = tuple(market)
            if now != data.followed:
                under = data.under
                # (follow_market's first look: only a building a fruit lies on that is no
                # longer on its field, the same object, but still on the market (equal) can
                # make a fruit follow; without one the kit's look returns at once. A field
                # past the market's end takes the kit's look. A loop over the few fruits: a
                # chain of ``compress`` and ``map`` in C costs more to set up, issue 34)
                moved = False
                try:
                    for slot, tile in under.items():
                        if market[slot] is not tile and tile in market:
                            moved = True
                            break
                except IndexError:
                    moved = True
                if moved:
                    follow_market(market, data.on_market, under)
                data.followed = now
                data.idle_start = None  # (the kept answer read the former ``followed``)
        else:
            data.followed = ()  # no fruit to follow: the next fruits laid follow afresh
        return data

    def _kept(self, state: GameState) -> OrchardScratch:
        """The module's state as it lies, its market fruits not followed: for the steps that
        read neither ``on_market`` nor ``under`` (a ``fruit`` line's plan and change, a turn's
        end). Equal to :meth:`data` there: the fruits follow their buildings at the next
        access that reads them (the refill's ``fruit`` line, a purchase's or a claim's hook, the
        next turn's start), and following later gives what following now and again then
        gives, because every building leaves the market through such a hook, which follows
        first, and the base buildings a fruit lies on are distinct
        (tests/test_module_obstgaerten_follow.py holds the two equal over swaps,
        departures and refills; issue 34, seventh step)."""
        found = state.modules.get(self.name)  # BundledModule.data, its common case inline
        if found is None:
            found = super().data(state)
        return found

    # ------------------------------------------------------------------ lines

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        if event.verb == FRUIT:  # (the refill's line, as written mostly: no lower-casing)
            self._fruits(state, event)
            return []
        verb = event.verb.lower()
        if verb == ORCHARD:
            self._boards(state, event)
        elif verb == FRUITBOARD:
            self._layout_line(state, event)
        else:
            self._fruits(state, event)
        return []

    # ------------------------------------------------------------------ positions

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        """In a ``position`` block. Outside the player sections: ``fruit Gu fr:5 Di fr:3`` (the
        fruits lying on the market tiles), ``fruitboard bd:3 ...`` (a board's layout),
        ``orchard Anna bd:3`` (boards, as the setup line). In a player section: ``orchard
        bd:3`` (the player's board, optionally followed by its layout as in ``fruitboard``),
        ``fruit fr:2 17 fr:5 3 down 2`` (the fruits on fields 17 and 3, two fruits face
        down)."""
        verb = line.verb.lower()
        if player is None:
            if verb == ORCHARD:
                self._boards(state, line)
            elif verb == FRUITBOARD:
                self._layout_line(state, line)
            elif verb == FRUIT and line.args and line.args[0].value == GONE:
                self._position_gone(state, line)
            elif verb == FRUIT:
                self._fruits(state, line)
            else:
                return False
            return True
        if verb == ORCHARD:
            self._position_board(state, player, line)
            return True
        if verb == FRUIT:
            self._position_fruits(state, player, line)
            return True
        return False

    def _position_gone(self, state: GameState, line: ModuleAction) -> None:
        """``fruit gone N`` (after the game's end): N fruits drawn that are on no board and in
        nobody's hand (a leftover's fruit that left the market with its tile given to nobody,
        or not along with it). Counted as drawn, their kinds not stated (as fruits face down)."""
        n = line.args[1].value if len(line.args) == 2 else None
        if not isinstance(n, int) or n < 0:
            state.flag("FRUIT-TOKEN", line.pos, token=" ".join(token_text(a) for a in line.args))
            return
        self.data(state).drawn[0] += n

    def _gone(self, state: GameState) -> int:
        """The fruits drawn that no line of a block states (after the game's end only: then the
        market's fruits have left it, :meth:`at_moment` at ``LEFTOVERS_DONE``)."""
        data = self.data(state)
        if not state.game_over or data.on_market:
            return 0
        stated = sum(len(f) for f in data.fields.values()) + sum(data.face_down.values())
        stated += sum(1 for held in data.pending.values() for k in held if k is not None)
        return sum(data.drawn.values()) - stated

    def _position_board(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        data = self.data(state)
        args = line.args
        board = _board(args[0].value) if args else None
        if board is None:
            token = token_text(args[0]) if args else "-"
            state.flag("ORCHARD-BOARD", line.pos, player.name, reason="token", token=token)
            return
        if player.name in data.boards:
            state.flag("ORCHARD-BOARD", line.pos, player.name, reason="player", name=player.name)
            return
        if board in data.boards.values():
            state.flag("ORCHARD-BOARD", line.pos, player.name, reason="twice", board=board)
            return
        data.boards[player.name] = board
        data.planned = None
        if len(args) > 1:
            self._layout_line(state, line)

    def _position_fruits(self, state: GameState, player: PlayerState, line: ModuleAction) -> None:
        data = self.data(state)
        args = line.args
        board = data.boards.get(player.name)
        held = next(
            (
                i
                for i, a in enumerate(args)
                if isinstance(a.value, str) and a.value.lower() in BOUGHT
            ),
            len(args),
        )
        if not args or held % 2:
            state.flag(
                "FRUIT-TOKEN",
                line.pos,
                player.name,
                token=" ".join(token_text(a) for a in args) or "-",
            )
            return
        taken = data.fields.setdefault(player.name, {})
        data.planned = None
        for i in range(0, len(args), 2):
            first = args[i].value
            if isinstance(first, str) and first.lower() in BOUGHT:
                self._position_bought(state, player, args[i + 1 :], line.pos)
                break
            what, where = args[i], args[i + 1]
            apos = what.pos or line.pos
            if isinstance(what.value, str) and what.value.lower() in DOWN:
                n = where.value
                if not isinstance(n, int) or n < 0:
                    state.flag("FRUIT-TOKEN", apos, player.name, token=token_text(where))
                    continue
                data.face_down[player.name] = data.face_down.get(player.name, 0) + n
                data.drawn[0] += n  # face down: the kind is not stated
                continue
            kind = _fruit(what.value)
            if kind is None:
                state.flag("FRUIT-TOKEN", apos, player.name, token=token_text(what))
                continue
            data.drawn[kind] += 1
            if data.drawn[kind] > PER_KIND:
                state.flag("FRUIT-SUPPLY", apos, player.name, kind=kind)
            field_no = where.value
            if board is None:
                state.flag(
                    "FRUIT-FIELD", apos, player.name, reason="no-board", kind=kind, field=field_no
                )
                continue
            data.used.add(board)
            wrong = _field_problem(self.kinds(state, board), taken, kind, field_no, board)
            if wrong is not None:
                state.flag("FRUIT-FIELD", apos, player.name, **wrong)
            elif isinstance(field_no, int):
                taken[field_no] = kind

    def _position_bought(self, state: GameState, player: PlayerState, args: Any, pos: Any) -> None:
        """``bought fr:4 ?`` at the end of a player's ``fruit`` line (a moment inside the open
        turn): the fruits that came with the buildings the turn bought ("bekommt er neben dem
        Gebäude auch die Frucht", L3043-3046) and are not laid yet (``?``: a fruit of unknown
        kind); laid by the turn's ``fruit`` lines or at its end."""
        data = self.data(state)
        held = data.pending.setdefault(player.name, [])
        for a in args:
            if a.value == "?":
                held.append(None)
                continue
            kind = _fruit(a.value)
            if kind is None:
                state.flag("FRUIT-TOKEN", a.pos or pos, player.name, token=token_text(a))
                continue
            held.append(kind)
            data.drawn[kind] += 1
            if data.drawn[kind] > PER_KIND:
                state.flag("FRUIT-SUPPLY", a.pos or pos, player.name, kind=kind)
        if not held:
            del data.pending[player.name]
        data.idle_end = not data.pending
        data.planned = None

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        """The lines :meth:`position_line` reads: the market's fruits and the layouts stated
        for boards nobody holds; per player the board (with its layout where one was stated)
        and the fruits on it and face down, and those bought and not laid yet (``bought``)."""
        data = self.data(state)
        if player is None:
            out: list[ModuleAction] = []
            held = set(data.boards.values())
            for board, layout in sorted(data.layouts.items()):
                if board not in held:
                    out.append(ModuleAction(FRUITBOARD, _layout_args(board, layout)))
            market: list[GenericArg] = []
            for slot, kind in sorted(data.on_market.items()):
                if kind is not None:
                    market += [
                        GenericArg(Currency.of_field(slot + 1).code),
                        GenericArg(ComponentRef(FR, str(kind))),
                    ]
            if market:
                out.append(ModuleAction(FRUIT, tuple(market)))
            gone = self._gone(state)
            if gone > 0:
                out.append(ModuleAction(FRUIT, (GenericArg(GONE), GenericArg(gone))))
            return out
        board = data.boards.get(player.name)
        if board is None:
            return []
        stated = data.layouts.get(board)
        lines = [
            ModuleAction(
                ORCHARD,
                _layout_args(board, stated)
                if stated is not None
                else (GenericArg(ComponentRef(BD, str(board))),),
            )
        ]
        fruits: list[GenericArg] = []
        for n, kind in sorted(data.fields.get(player.name, {}).items()):
            fruits += [GenericArg(ComponentRef(FR, str(kind))), GenericArg(n)]
        down = data.face_down.get(player.name, 0)
        if down:
            fruits += [GenericArg("down"), GenericArg(down)]
        held = data.pending.get(player.name)
        if held:
            fruits.append(GenericArg("bought"))
            fruits += [GenericArg("?" if k is None else ComponentRef(FR, str(k))) for k in held]
        if fruits:
            lines.append(ModuleAction(FRUIT, tuple(fruits)))
        return lines

    def position_scoring(self, ctx: Any, round_no: int) -> None:
        """The orchards score at the end only; a player of the position without a board is
        reported (``ORCHARD-POSITION``)."""
        if round_no != 3:
            return
        data = self.data(ctx.state)
        for p in ctx.state.players:
            if p.name not in data.boards:
                ctx.flag("ORCHARD-POSITION", ctx.pos, p.name, name=p.name)

    def layout(self, state: GameState, board: int) -> Layout:
        """The layout of ``board``: as a ``fruitboard`` line stated it, else the YAML's
        placeholder (not verified)."""
        return self.data(state).layouts.get(board) or BOARDS[board]

    def kinds(self, state: GameState, board: int) -> list[int]:
        return _kinds_of(self.data(state), board)

    def _layout_line(self, state: GameState, line: ModuleChance | ModuleAction) -> None:
        """``fruitboard bd:3 1 fr:3 2 fr:4 fr:5 ...``: the printed layout of board 3, each
        group's points followed by the fruit of each of its fields (fields numbered in this
        order). Checked against the supply ("je 8 in 7 Sorten"), against an earlier statement
        of the same board, and against fruits laid on it already."""
        data = self.data(state)
        args = list(line.args)
        pos = line.pos
        board = _board(args[0].value) if args else None
        if board is None:
            detail2 = token_text(args[0]) if args else "-"
            state.flag("ORCHARD-LAYOUT", pos, reason="form", detail2=f"{detail2} is no board")
            return
        layout: Layout = []
        for arg in args[1:]:
            v = arg.value
            kind = _fruit(v)
            if isinstance(v, int) and not isinstance(v, bool):
                if v < 1:
                    state.flag(
                        "ORCHARD-LAYOUT", arg.pos or pos, reason="points", board=board, points=v
                    )
                    return
                layout.append((v, []))
            elif kind is not None and layout:
                layout[-1][1].append(kind)
            else:
                state.flag(
                    "ORCHARD-LAYOUT",
                    arg.pos or pos,
                    reason="form",
                    detail2=f"{token_text(arg)} is neither a group's points nor a fruit "
                    f"fr:1-fr:{KINDS} after a group's points",
                )
                return
        if not layout or any(not kinds for _p, kinds in layout):
            state.flag(
                "ORCHARD-LAYOUT",
                pos,
                reason="form",
                detail2="every group needs its points and at least one field",
            )
            return
        counts = Counter(k for _p, kinds in layout for k in kinds)
        for kind, n in sorted(counts.items()):
            if n > PER_KIND:
                state.flag(
                    "ORCHARD-LAYOUT",
                    pos,
                    reason="supply",
                    board=board,
                    n=n,
                    kind=kind,
                    per_kind=PER_KIND,
                )
        known = data.layouts.get(board)
        if known is not None and known != layout:
            state.flag(
                "ORCHARD-LAYOUT",
                pos,
                reason="differs",
                board=board,
                stated=layout_text(layout),
                known=layout_text(known),
            )
            return
        if known is None and board in data.used:
            state.flag(
                "ORCHARD-LAYOUT", pos, reason="late", board=board, known=layout_text(BOARDS[board])
            )
            return
        data.layouts[board] = layout
        data.planned = None

    def _plan(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> tuple[list[Finding], _Lay]:
        """What a ``fruit fr:4 5`` (onto field 5) or ``fruit fr:4 down`` (face down) line does,
        and what is wrong with it (pure: :meth:`check_verb` reports the findings, :meth:`action`
        makes the change, so a trusted replay ends the same)."""
        data = state.modules.get(self.name) or self._kept(state)  # (reads no market fruits)
        args, pos, who = action.args, action.pos, player.name
        if len(args) != 2:
            return [
                problem("FRUIT-TOKEN", pos, who, token=" ".join(token_text(a) for a in args))
            ], _Lay()
        value = args[0].value
        # a fruit as mostly written (``fr:4``) by one look-up, else as _fruit reads it
        kind = (
            _FRUIT_OF.get(value.name) if type(value) is ComponentRef and value.kind == FR else None
        )
        if kind is None:
            kind = _fruit(value)
            if kind is None:
                return [
                    problem("FRUIT-TOKEN", args[0].pos or pos, who, token=token_text(args[0]))
                ], _Lay()
        held = data.pending.get(who, ())
        if kind in held:
            take: int | bool | None = kind
        elif None in held:
            take = None
        else:
            shown = " ".join(f"fr:{k}" for k in held if k) or "-"
            return [problem("FRUIT-NOT-HELD", pos, who, kind=kind, held=shown)], _Lay(False)
        where = args[1].value
        board = data.boards.get(who)
        if board is None:
            return [
                problem("FRUIT-FIELD", pos, who, reason="no-board", kind=kind, field=where)
            ], _Lay(take)
        out: list[Finding] = []
        layouts = data.layouts
        if board not in data.used and board not in layouts and self.option("boards") == "stated":
            out.append(problem("ORCHARD-LAYOUT", pos, who, reason="missing", board=board, name=who))
        taken = data.fields.get(who, _NO_FIELDS)
        layout = layouts.get(board)  # _kinds_of, inline
        kinds = board_fields(board, layout) if layout else _PRINTED_KINDS[board]
        if isinstance(where, int):
            # a free field showing the fruit: what _field_problem lets through, told inline
            if 0 < where <= len(kinds) and kinds[where - 1] == kind and where not in taken:
                return out, _Lay(take, board, False, where, kind)
        elif isinstance(where, str) and where.lower() in DOWN:
            free = _free_field(kinds, taken, kind)
            if free is not None:
                out.append(problem("FRUIT-FACEDOWN", pos, who, kind=kind, free=free))
            return out, _Lay(take, board, True)
        wrong = _field_problem(kinds, taken, kind, where, board)
        if wrong is not None:
            out.append(problem("FRUIT-FIELD", pos, who, **wrong))
        elif isinstance(where, int):
            return out, _Lay(take, board, False, where, kind)
        return out, _Lay(take, board)

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        state = ctx.state
        found, lay = self._plan(state, player, action)
        # kept for the change that follows at once (core.module_action: the check, then the
        # action, nothing between): the same line of the same player plans the same while
        # what a plan reads is unchanged (each step changing it clears ``planned``)
        (state.modules.get(self.name) or self._kept(state)).planned = (action, player, lay)
        return found

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        """The fruit leaves the player's bought fruits and lies on its field or face down."""
        data = state.modules.get(self.name) or self._kept(state)
        kept = data.planned
        data.planned = None
        if kept is not None and kept[0] is action and kept[1] is player:
            lay = kept[2]  # planned by check_verb for this line, nothing changed since
        else:
            lay = self._plan(state, player, action)[1]
        name = player.name
        # (``setdefault(name, [])`` and ``setdefault(name, {})`` told by a look-up first: the
        # same entries in the same order, without a new list or table made at every call)
        if lay.take is not False:
            pending = data.pending
            held = pending.get(name)
            if held is None:
                held = pending[name] = []
            held.remove(lay.take)
            if not held:
                # [issue 34] what the next step laying the bought fruits (a turn's end ...)
                # does with a list its lines emptied (``_lay_default``), done here: the entry
                # goes, the player with a board has a (maybe empty) table of fields; then that
                # step has nothing to do (``idle_at``) and is left out
                del pending[name]
                data.idle_end = not pending
                if data.boards.get(name) is not None and name not in data.fields:
                    data.fields[name] = {}
        if lay.board is not None:
            data.used.add(lay.board)
        if lay.down:
            data.face_down[name] = data.face_down.get(name, 0) + 1
        if lay.field is not None:
            fields = data.fields.get(name)
            if fields is None:
                fields = data.fields[name] = {}
            fields[lay.field] = lay.kind
        return []

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """ "Erwirbt ein Spieler nun eines dieser Gebäude, bekommt er neben dem Gebäude auch die
        Frucht" -- also into the reserve, also by the vizier."""
        slot = purchase.slot
        if slot is None:
            return
        data = _taken_from(self, ctx.state, slot, purchase.tile)
        if data.under.get(slot) is not purchase.tile:  # (else field_under's answer: slot)
            slot = field_under(data.on_market, data.under, slot, purchase.tile)
        data.under.pop(slot, None)
        data.followed = ()  # (a fruit left: one waiting for it may follow now, see data)
        data.idle_start = None
        if slot in data.on_market:
            fruit = data.on_market.pop(slot)
            data.pending.setdefault(purchase.player.name, []).append(fruit)
            data.planned = None
            data.idle_end = False

    leaves_plain_purchases = True  # its leaves_plain_purchase: yes to every plain purchase

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        return True  # no purchase rule; the fruit goes along in after_plain_purchase

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass (a piece beside the market,
        ``slot`` None, lay on no field and carries no fruit)."""
        slot, tile = buy.slot, buy.tile
        if slot is None:
            return
        data: OrchardScratch | None = state.modules.get(self.name)  # _taken_from, inline
        if data is None or data.under.get(slot) is not tile:
            data = self.data(state)
            if data.under.get(slot) is not tile:  # (its fruit on its field: field_under's)
                slot = field_under(data.on_market, data.under, slot, tile)
        data.under.pop(slot, None)
        data.followed = ()  # (a fruit left: one waiting for it may follow now, see data)
        data.idle_start = None
        fruit = data.on_market.pop(slot, _NO_FRUIT)  # (one look-up: ``in``, then ``pop``)
        if fruit is not _NO_FRUIT:
            name = buy.player.name
            pending = data.pending
            held = pending.get(name)
            if held is None:
                pending[name] = [fruit]
            else:
                held.append(fruit)
            data.planned = None
            data.idle_end = False

    def market_taken(self, state: GameState, slot: int, piece: Any, player: PlayerState) -> None:
        """A building taken from its field without a purchase: a claim while the market is
        refilled (Sultan: "Wird ein Gebäudeplättchen beim Auffüllen des Bauhofes gezogen ...,
        darf ein Spieler mit einer Sultankarte ... das Plättchen kostenlos nehmen"; only
        "Möchte kein Spieler ... das Gebäude haben, wird es auf den Bauhof gelegt"). It was
        never laid on the market, so it never got a fruit ("Wenn ein Gebäude des Grundspiels
        auf den Bauhof gelegt wird, wird sofort eine Frucht ... gezogen"): a fruit the record
        stated for it before the claim (the refill is one chance line) was not drawn; it stays
        in the supply and the claimer gets none."""
        data = _taken_from(self, state, slot, piece)
        if data.under.get(slot) is not piece:  # (else field_under's answer: slot)
            slot = field_under(data.on_market, data.under, slot, piece)
        data.under.pop(slot, None)
        data.followed = ()  # (a fruit left: one waiting for it may follow now, see data)
        data.idle_start = None
        if slot not in data.on_market:
            return
        kind = data.on_market.pop(slot)
        if kind is not None and data.drawn[kind] > 0:
            data.drawn[kind] -= 1

    @acts_at(
        Moment.TURN_START,
        Moment.TURN_END,
        Moment.SCORING_DONE,
        Moment.LEFTOVERS_BEFORE,
        Moment.LEFTOVERS_DONE,
    )
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        state = ctx.state
        if moment is _TURN_END:  # the steps below at a turn's end (the kit's: none)
            # (laying fruits reads no market fruits: the part as it lies, _kept inline)
            data = state.modules.get(self.name) or self._kept(state)
            if data.pending:
                for name in list(data.pending):
                    self._lay_default(state, name, data)
            return
        if moment is _TURN_START:
            data = self.data(state)  # (the fruits follow only a market that changed: data)
            if data.boards_checked:  # the same: the steps below
                self._missing(state, ctx.pos, data)
                self._keep_idle_start(state, data)
                return
        else:
            data = self.data(state)
        super().at_moment(ctx, moment)
        if moment == Moment.TURN_START and not data.boards_checked:
            # "Jedem Spieler wird eine Früchtetafel zugelost": every board known when play begins
            data.boards_checked = True
            lacking = [p.name for p in state.players if p.name not in data.boards]
            if lacking:
                where = ctx.pos or (state.turn.pos if state.turn is not None else NOWHERE)
                state.flag("ORCHARD-BOARD", where, reason="missing", names=", ".join(lacking))
        if moment in (Moment.TURN_START, Moment.LEFTOVERS_BEFORE):
            self._missing(state, ctx.pos, data)
        if moment == Moment.TURN_START:
            self._keep_idle_start(state, data)
        if moment in (Moment.TURN_END, Moment.LEFTOVERS_BEFORE, Moment.SCORING_DONE):
            for name in list(data.pending):
                self._lay_default(state, name, data)
        if moment == Moment.LEFTOVERS_BEFORE:
            data.leftovers = {}
            for slot, kind in data.on_market.items():
                tile = state.market[slot]
                if isinstance(tile, TileKind):
                    data.leftovers[tile] = kind
        if moment == Moment.LEFTOVERS_DONE:
            # reading: a fruit goes with its tile in the leftover distribution as well
            # (option leftovers=none: it does not)
            if self.option("leftovers") == "none":
                data.leftovers.clear()
            for p in state.players:
                got = [t for _c, t in p.alhambra.items()] + list(p.reserve)
                for tile, kind in list(data.leftovers.items()):
                    if tile in got:
                        data.pending.setdefault(p.name, []).append(kind)
                        data.planned = None
                        data.idle_end = False
                        del data.leftovers[tile]
                self._lay_default(state, p.name, data)
            data.on_market.clear()
            data.under.clear()
            data.idle_start = None

    # ------------------------------------------------------------------ scoring, view

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        """ "Am Ende des Spiels erhält der Spieler für jede komplett mit Früchten belegte
        Punktegruppe seines Tableaus die dort angegebenen Punkte. Jede verdeckte Frucht zählt
        dann 1 Siegpunkt." """
        if round_no != 3:
            return None
        data = self.data(state)

        def points(p: Any) -> tuple[int, str, str] | None:
            board = data.boards.get(p.name)
            if p.is_dirk or board is None:
                return None
            return orchard_points(
                board,
                data.fields.get(p.name, {}),
                data.face_down.get(p.name, 0),
                self.layout(state, board),
            )

        line = PointLine(ORCHARD, "orchard", "Obstgarten", S_SCORE, points, order=650)
        return ScoringParts(categories=(line,))

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
            pts, en, _de = orchard_points(board, f, down, self.layout(state, board))
            players[p.name] = {
                "board": f"bd:{board}"
                + ("" if board in data.layouts else " (placeholder layout, not verified)"),
                "fields": " ".join(f"{n}:fr:{k}" for n, k in sorted(f.items())) or "-",
                "face down": down,
                "points now": f"{pts} ({en})",
            }
        return self.shown(table, players)

    # ------------------------------------------------------------------ legal moves

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        data = self.data(ctx.state)
        board = data.boards.get(player.name)
        held = [k for k in data.pending.get(player.name, []) if k is not None]
        if board is None or not held:
            return []
        kinds = self.kinds(ctx.state, board)
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
        if not pile:
            # a fruit whose building left the market before it was bought goes back to the
            # supply (``market_taken``): the pile runs dry before the supply does; what the
            # engine still counts in the supply joins the pile again (as Die Menagerie's)
            drawn = self.data(sim.state).drawn
            back = [k for k in range(1, KINDS + 1) for _ in range(PER_KIND - drawn.get(k, 0))]
            sim.rng.shuffle(back)
            pile[:0] = back
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

    def _boards(self, state: GameState, event: ModuleChance | ModuleAction) -> None:
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
                state.flag(
                    "ORCHARD-BOARD", what.pos or event.pos, reason="token", token=token_text(what)
                )
                continue
            if p.name in data.boards:
                state.flag("ORCHARD-BOARD", who.pos or event.pos, reason="player", name=p.name)
                continue
            if b in data.boards.values():
                state.flag("ORCHARD-BOARD", what.pos or event.pos, reason="twice", board=b)
                continue
            data.boards[p.name] = b
            data.planned = None

    def _fruits(self, state: GameState, event: ModuleChance | ModuleAction) -> None:
        data = self.data(state)
        args = event.args
        if not args or len(args) % 2:
            state.flag("FRUIT-DRAW", event.pos, reason="syntax")
            return
        market = state.market
        on_market, under, drawn = data.on_market, data.under, data.drawn
        # the pairs by index (a line lays one fruit or two: ``zip`` over one iterator, with
        # its keyword, costs more to set up than the loop it saves, issue 34)
        for i in range(0, len(args), 2):
            where, what = args[i], args[i + 1]
            # a field's code and a fruit as mostly written (``Gu``, ``fr:4``) by one look-up
            # each, else as _currency and _fruit read them (the same answers)
            value = where.value
            slot = _SLOT_OF_CODE.get(value) if type(value) is str else None
            if slot is None:
                cur = _currency(value)
                slot = None if cur is None else _SLOT[cur]  # cur.field - 1
            value = what.value
            kind = (
                _FRUIT_OF.get(value.name)
                if type(value) is ComponentRef and value.kind == FR
                else None
            )
            if kind is None:
                kind = _fruit(value)
            if slot is None:
                state.flag("FRUIT-DRAW", where.pos or event.pos, reason="syntax")
                continue
            if kind is None:
                pos = where.pos or event.pos
                state.flag("FRUIT-TOKEN", what.pos or pos, token=token_text(what))
                continue
            try:
                tile = market[slot]
            except IndexError:  # (a field past the market's end)
                tile = None
            if not isinstance(tile, TileKind):
                pos = where.pos or event.pos
                state.flag("FRUIT-DRAW", pos, reason="no-tile", field=_CODES[slot])
                continue
            if on_market.get(slot) is not None:
                pos = where.pos or event.pos
                state.flag(
                    "FRUIT-DRAW", pos, reason="has-fruit", field=_CODES[slot], kind=on_market[slot]
                )
                continue
            n = drawn.get(kind, 0) + 1  # (drawn[kind] += 1 without Counter.__missing__)
            drawn[kind] = n
            if n > PER_KIND:
                state.flag("FRUIT-SUPPLY", what.pos or where.pos or event.pos, kind=kind)
            on_market[slot] = kind
            under[slot] = tile
        self._keep_idle_start(state, data)  # (the refill's last change, mostly: kept)

    def _missing(self, state: GameState, pos: Any, data: OrchardScratch) -> None:
        """Every building on the market without a fruit stated for it: reported once."""
        on_market = data.on_market
        market = state.market
        n = len(market)
        fields = _FIELDS.get(n) or _FIELDS.setdefault(n, frozenset(range(n)))
        if on_market.keys() >= fields:
            return  # every field has its fruit (or was reported): the loop below finds none
        # only a field without a fruit stated holding a building can be reported (else a
        # module's piece lies there): the loop below finds none else
        for slot in fields - on_market.keys():
            if isinstance(market[slot], TileKind):
                break
        else:
            return
        if sum(data.drawn.values()) >= KINDS * PER_KIND:
            return  # the supply is used up
        for slot, tile in enumerate(state.market):
            if isinstance(tile, TileKind) and slot not in on_market:
                state.flag(
                    "FRUIT-MISSING",
                    pos or (state.turn.pos if state.turn is not None else NOWHERE),
                    tile=tile.full_code,
                    field=Currency.of_field(slot + 1).code,
                )
                data.on_market[slot] = None  # reported once; its fruit is unknown
                data.under[slot] = tile
                data.idle_start = None

    def _lay_default(self, state: GameState, name: str, data: OrchardScratch) -> None:
        """A fruit the record did not place lies on the first free matching field (reading),
        else face down (``data``: the module's state, its market fruits followed)."""
        held = data.pending.pop(name, None)  # (None: none held; no list made for it)
        data.planned = None
        data.idle_end = not data.pending
        board = data.boards.get(name)
        if board is None:
            return
        fields = data.fields
        if not held:  # (every fruit laid by its line: the steps below lay none)
            if name not in fields:  # (setdefault(name, {}) without a table made each call)
                fields[name] = {}
            return
        layout = data.layouts.get(board)  # _kinds_of, inline
        kinds = board_fields(board, layout) if layout else _PRINTED_KINDS[board]
        data.used.add(board)
        taken = fields.get(name)
        if taken is None:
            taken = fields[name] = {}
        index = kinds.index
        for k in held:
            if k is not None:
                # _free_field(kinds, taken, k), inline (a fruit bought in a game where nobody
                # lays one: laid here at every purchase's turn end, issue 34): the first field
                # showing ``k`` and not taken, numbered from 1; 0: none
                number = 0
                try:
                    while True:
                        number = index(k, number) + 1
                        if number not in taken:
                            break
                except ValueError:  # no further field shows it
                    number = 0
                if number:
                    taken[number] = k
                    continue
            data.face_down[name] = data.face_down.get(name, 0) + 1

    # ------------------------------------------------------------ idle moments

    kept_idle = frozenset({Moment.TURN_START, Moment.TURN_END})  # (idle_start, idle_end)

    def _keep_idle_start(self, state: GameState, data: OrchardScratch) -> None:
        """Keep :meth:`idle_at`'s answer at a turn's start for the market as it lies now
        (``idle_start``, read by the engine without a call: :attr:`Module.kept_idle`). Called
        after :meth:`data` with the market unchanged since (the refill's ``fruit`` line, the
        turn-start step), which left ``followed`` equal to the market when a fruit lay on a
        building, else empty (a fruit laid since has not followed the market yet): so
        ``idle_at``'s comparison of the two is told without building the market's tuple
        (tests/test_speed14_modbuy.py holds the answers equal)."""
        if data.boards_checked and (not data.under or data.followed):
            market = state.market
            n = len(market)
            if data.on_market.keys() >= (_FIELDS.get(n) or frozenset(range(n))) or (
                _all_fruited(market, data)
            ):
                data.idle_start = market.copy()
                return
        data.idle_start = None

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """[dispatch, issue 34] Nothing to do at a turn's end with no bought fruit waiting to be
        laid (``pending`` empty); nor at a turn's start once the boards were looked for, when
        the market fruits need not follow their buildings (the market as when they last
        followed, or no fruit lies on a building) and every building on the market has its
        fruit stated or reported (or the supply is used up: ``_missing`` would report none).
        The module's part must exist (the step would make it)."""
        data: OrchardScratch | None = state.modules.get(self.name)
        if data is None:
            return False
        if moment is _TURN_END:
            return not data.pending
        if moment is not _TURN_START or not data.boards_checked:
            return False
        market = state.market
        if data.under and data.followed != tuple(market):
            return False
        n = len(market)
        if data.on_market.keys() >= (_FIELDS.get(n) or frozenset(range(n))):
            return True
        return _all_fruited(market, data)


_PRINTED_KINDS = {board: board_fields(board) for board in BOARDS}
_SLOT = {c: c.field - 1 for c in CURRENCIES}  # the market field index of each currency
_CODES = tuple(c.code for c in CURRENCIES)  # each market field's currency code, by index
# the market field index of a currency code as mostly written (``Gu``, ``gu``, ``GU``):
# Currency.of_code's answer for these strings
_SLOT_OF_CODE = {
    text: _SLOT[c] for c in CURRENCIES for text in (c.code, c.code.lower(), c.code.upper())
}
_FRUIT_OF = {str(n): n for n in range(1, KINDS + 1)}  # a fruit kind by its number as printed
_TURN_START, _TURN_END = Moment.TURN_START, Moment.TURN_END
_FIELDS: dict[int, frozenset[int]] = {}  # the market's field indices, by its number of fields
_NO_FRUIT: Any = object()  # no fruit on a field (a fruit may be None: stated, kind unknown)
_NO_FIELDS: dict[int, int] = {}  # a player without fruits on his board (read only, never filled)


def _all_fruited(market: list[Any], data: OrchardScratch) -> bool:
    """Whether every building on ``market`` has its fruit stated or reported, or the supply
    is used up (``_missing`` would report none). Asked when a field lacks its fruit (the
    callers test the full cover first, in C): only the fields without a fruit stated are
    looked at (mostly a module's piece lies there: a set difference in C, then one look
    each); the supply is counted only when one of them holds a building."""
    n = len(market)
    fields = _FIELDS.get(n) or _FIELDS.setdefault(n, frozenset(range(n)))
    for slot in fields - data.on_market.keys():
        if isinstance(market[slot], TileKind):
            return sum(data.drawn.values()) >= KINDS * PER_KIND
    return True


def _taken_from(module: Obstgaerten, state: GameState, slot: int, piece: object) -> OrchardScratch:
    """The module's state for a hook of a building taken from market field ``slot``
    (a purchase, a claim): when a fruit lies on that very building on that field (``under``),
    the state as it lies, without following the market first; else :meth:`Obstgaerten.data`
    (the fruits follow their buildings, then :func:`field_under` finds the building's fruit).

    Following first would change nothing for the building taken: its fruit lies on its field,
    and no other fruit moves onto that field (the follow moves a fruit only onto a field
    holding its building, and the field holds this building, or nothing once it was taken;
    the buildings a fruit lies on are distinct). The other fruits follow at the next access
    that reads them (the hook clears ``followed``), which ends the same as following now: a
    building that left its field since is found there through ``data`` by the hook that
    takes it (its fruit does not lie under it on its field then)
    (tests/test_speed14_modbuy.py holds the two equal)."""
    data: OrchardScratch | None = state.modules.get(module.name)
    if data is None or data.under.get(slot) is not piece:
        return module.data(state)
    return data


def _kinds_of(data: OrchardScratch, board: int) -> list[int]:
    """The fruit kind of each field of ``board`` (read only): of its stated layout, else of the
    YAML's placeholder (made once)."""
    layout = data.layouts.get(board)
    return board_fields(board, layout) if layout else _PRINTED_KINDS[board]


def _field_problem(
    kinds: list[int], taken: dict[int, int], kind: int, where: object, board: int
) -> dict[str, Any] | None:
    """Why fruit ``kind`` may not lie on field ``where`` of ``board`` ("auf ein passendes Feld
    seiner Früchtetafel"): the reason and data of FRUIT-FIELD, or None when it may."""
    if not isinstance(where, int) or not 1 <= where <= len(kinds):
        return {"reason": "no-field", "kind": kind, "field": where, "board": board}
    if kinds[where - 1] != kind:
        return {"reason": "kind", "kind": kind, "field": where, "shows": kinds[where - 1]}
    if where in taken:
        return {"reason": "taken", "kind": kind, "field": where}
    return None


def _layout_args(board: int, layout: Layout) -> tuple[GenericArg, ...]:
    args = [GenericArg(ComponentRef(BD, str(board)))]
    for pts, kinds in layout:
        args.append(GenericArg(pts))
        args += [GenericArg(ComponentRef(FR, str(k))) for k in kinds]
    return tuple(args)


def layout_text(layout: Layout) -> str:
    """``1 fr:3 2 fr:4 fr:5``: a layout as a ``fruitboard`` line writes it."""
    return " ".join(f"{pts} " + " ".join(f"fr:{k}" for k in kinds) for pts, kinds in layout)


def _free_field(kinds: list[int], taken: dict[int, int], kind: int) -> int | None:
    """The first field (numbered from 1) of ``kinds`` showing ``kind`` and not ``taken``:
    ``next((i + 1 for i, s in enumerate(kinds) if s == kind and i + 1 not in taken), None)``,
    each next field of that kind found in C by ``list.index``
    (tests/test_module_obstgaerten_fast.py)."""
    number = 0
    index = kinds.index
    try:
        while True:
            number = index(kind, number) + 1  # the next field showing ``kind``, numbered from 1
            if number not in taken:
                return number
    except ValueError:  # no further field shows it
        return None


def _fruit(value: object) -> int | None:
    if not (isinstance(value, ComponentRef) and value.kind.lower() == FR):
        return None
    found = _FRUIT_OF.get(value.name)  # a fruit written as printed: one look-up
    if found is not None:
        return found
    if value.name.isdigit():  # (another spelling of a number: ``fr:01``)
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
