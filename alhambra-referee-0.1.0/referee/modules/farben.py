"""Frische Farben (fresh colours): overpaying a building takes, from the paid currency's column
of the project plan, its project, the top project of the stack or one of its colour offers;
the action "finish" returns a project's colour tiles; every scoring gives 2 points per building
of each type whose project is completed.

Rulebook: ``rulebook-bigbox-de-2019.txt`` § Marco Ruskowski & Marcel Süßelbeck: Frische
Farben (heading L3384-3385; text L3286-3383).

Notation (names, texts, the reconstructed columns and recipes: ``farben.yaml``; rulings:
``docs/modules/farben.md``):

* ``fc:p`` -- a colour tile (b blue, n brown, g green, p purple, r red, w white);
  ``fp:P`` -- a pavilion project, ``fp:Pbrr`` -- one whose recipe (blue, red, red) is noted.
* ``* projects Gu fp:Gbnw Di fp:T De fp:A Du fp:C`` -- the tiles laid on the project fields
  (at the setup; ``* projects Gu fp:S`` after a turn whose take emptied a field).
* ``* column Di gg r w`` -- a column's three offers stated (only the Gulden column is in the
  text; the others were pictured).
* ``14. Anna: buy Gu T9 pay Gu10, colour fc:p fc:p, place T9@1,0`` -- the overpayment takes
  two purple tiles from the Gulden column; ``colour fc:g fc:g drop fc:r fc:b`` lays down the
  surplus over 5; ``project fp:G`` takes the column's project, ``project stack fp:Pbrr`` the
  top tile of the stack.
* ``20. Anna: finish fp:P fc:b fc:r fc:r`` -- the action: one or two projects, then the
  colour tiles returned.
* position blocks: ``projects Gu fp:G ...`` and ``column Di gg r w`` (``column Di seen gg w``:
  the offers seen so far) outside the players;
  ``colour fc:p fc:b``, ``projects fp:S`` and ``projects done fp:C`` in a player's section.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from referee.catalogue import CURRENCIES, BuildingType, Currency
from referee.engine.actions.purchase import allowed_currencies, overpaid
from referee.engine.extensions import acts_at
from referee.engine.findings import Finding, problem, report
from referee.engine.fmt import fmt_ref, fmt_tile
from referee.engine.state import GameState, PlayerState
from referee.engine.turns import Moment, end_main_action, main_action_findings, start_main_action
from referee.engine.verbs import VerbSpec
from referee.messages import Text
from referee.modules.base import BundledModule, Scratch, bundled, module_data, section, token_text
from referee.record.model import (
    Buy,
    CardRef,
    ComponentRef,
    GenericArg,
    ModuleAction,
    ModuleChance,
    Pos,
    TileRef,
)
from referee.scoring import ScoringParts
from referee.scoring.categories import PointLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar

H = "FRISCHE FARBEN"
S_SCORE = section(H, "Wertungsänderungen")
COLOUR, PROJECT = "fc", "fp"
TAKE, PICK, FINISH = "colour", "project", "finish"
FIELDS, COLUMN = "projects", "column"
LETTERS = "bgnprw"  # the colour letters, in the order the record writes them
DROP, STACK, DONE, SEEN = "drop", "stack", "done", "seen"
# a moment inside a turn (a player's section): the turn's latest purchase a colour or project
# may follow, ``projects overpaid 2 Gu Di C5 [used]`` (``?``: unknown, ``none``: no building from
# a market field)
OVERPAID, USED = ("overpaid", "ueberzahlt", "überzahlt"), ("used", "genutzt")
NO_MARKET = ("none", "keiner")
FINISHING = Text("FARBEN-FINISH.action/finishing")
_TURN_END = Moment.TURN_END


_TYPES = {t.value: t for t in BuildingType}


def _data() -> dict[str, Any]:
    data: dict[str, Any] = module_data("farben")["components"]
    return data


@cache
def per_colour() -> int:
    return int(_data()["colours"]["per_colour"])


@cache
def max_held() -> int:
    return int(_data()["colours"]["max_held"])


@cache
def max_unfinished() -> int:
    return int(_data()["projects"]["max_unfinished"])


@cache
def per_type(players: int) -> int:
    """ "je 3x pro Gebäudeart"; with 2 or 3 players the tiles with a star are out (L3296)."""
    p = _data()["projects"]
    return int(p["per_type"]) - (int(p["starred_per_type"]) if players <= 3 else 0)


def recipes(kind: BuildingType) -> list[str]:
    """The reconstructed recipes of a type (unverified data)."""
    return [str(r) for r in _data()["projects"]["recipes"][kind.value]]


def column_data(cur: Currency) -> list[str]:
    return [str(o) for o in _data()["columns"][cur.code]]


def colour_word(letter: str, lang: str = "en") -> str:
    return str(_data()["colours"]["letters"][letter][lang])


def norm(letters: str) -> str:
    return "".join(sorted(letters.lower()))


def parse_colour(value: object) -> str | None:
    """``fc:p`` -> ``p``; None when it is no colour tile."""
    if not isinstance(value, ComponentRef) or value.kind.lower() != COLOUR:
        return None
    name = value.name.lower()
    return name if len(name) == 1 and name in LETTERS else None


@dataclass(frozen=True, slots=True)
class Project:
    """A project tile: its building type and its recipe (None: not noted)."""

    type: BuildingType
    recipe: str | None = None

    @property
    def code(self) -> str:
        return f"{PROJECT}:{self.type.value}{self.recipe or ''}"

    def ref(self) -> ComponentRef:
        return ComponentRef(PROJECT, f"{self.type.value}{self.recipe or ''}")


def parse_project(value: object) -> Project | None:
    """``fp:P`` / ``fp:Pbrr`` -> the project; None when it is no project token (a recipe of
    0 or more than 5 tiles is no project either)."""
    if not isinstance(value, ComponentRef) or value.kind.lower() != PROJECT:
        return None
    name = value.name
    kind = _TYPES.get(name[:1].upper()) if name else None
    rest = name[1:].lower()
    if kind is None or any(ch not in LETTERS for ch in rest) or len(rest) > max_held():
        return None
    return Project(kind, norm(rest) or None)


def _colours_text(held: Counter[str]) -> str:
    return " ".join(f"{COLOUR}:{c}" for c in sorted(held.elements())) or "-"


@dataclass
class Held:
    """A colour project a player holds, and whether it is done."""

    project: Project
    done: bool = False


@dataclass
class FarbenScratch(Scratch):
    """The module's own part of the game state (``state.modules``), copied with the state."""

    fields: dict[Currency, Project | None] = field(default_factory=dict)
    revealed: Counter[BuildingType] = field(default_factory=Counter)
    supply: Counter[str] = field(default_factory=Counter)  # colour tiles in the supply
    colours: dict[str, Counter[str]] = field(default_factory=dict)
    projects: dict[str, list[Held]] = field(default_factory=dict)
    offers: dict[Currency, set[str]] = field(default_factory=dict)  # offers seen per column
    stated: dict[Currency, tuple[str, ...]] = field(default_factory=dict)
    # the latest purchase of each player: line, overpaid (None: unknown), columns, tile, used
    pending: dict[str, tuple[int, int | None, frozenset[Currency], str, bool]] = field(
        default_factory=dict
    )
    missing_told: set[Currency] = field(default_factory=set)
    # every project field holds a tile (kept where a field changes; read by ``idle_at``)
    full: bool = field(default=False, repr=False, compare=False)
    # the idle answers kept for the engine (Module.kept_idle, ``idle_at``'s answers): at a
    # turn's end ``not pending``, at its start ``full and not pending``; set again wherever
    # ``pending`` or ``full`` changes
    idle_start: bool = field(default=False, repr=False, compare=False)
    idle_end: bool = field(default=True, repr=False, compare=False)


@bundled
class Farben(BundledModule):
    """Project plan, project tiles and colour tiles; names and texts: the YAML."""

    verb_specs = (
        VerbSpec(TAKE, kind="free", aliases=("farbe",)),
        VerbSpec(PICK, kind="free", aliases=("projekt",)),
        VerbSpec(FINISH, kind="main", aliases=("abschliessen",)),
    )
    chance_verbs = (FIELDS, COLUMN)
    component_kinds = (COLOUR, PROJECT)
    scratch_type = FarbenScratch
    piece_words: ClassVar[dict[str, tuple[str, str]]] = {
        COLOUR: ("colour tile", "Farbplättchen"),
        PROJECT: ("project tile", "Projektplättchen"),
    }
    verb_words: ClassVar[dict[str, tuple[str, str]]] = {
        TAKE: ("takes colour tiles", "nimmt Farbplättchen"),
        PICK: ("takes a project", "nimmt ein Projekt"),
        FINISH: ("completes projects", "schließt Projekte ab"),
        FIELDS: ("the project fields", "die Projektfelder"),
        COLUMN: ("a column of colour tiles", "eine Spalte Farbplättchen"),
    }

    def init_scratch(self, state: GameState, scratch: Any) -> None:
        scratch.fields = dict.fromkeys(CURRENCIES)
        scratch.supply = Counter(dict.fromkeys(LETTERS, per_colour()))
        scratch.colours = {p.name: Counter() for p in state.players}
        scratch.projects = {p.name: [] for p in state.players}

    # ------------------------------------------------------------------ accessors

    def colours_of(self, state: GameState, player: PlayerState) -> Counter[str]:
        got: Counter[str] = self.data(state).colours.setdefault(player.name, Counter())
        return got

    def projects_of(self, state: GameState, player: PlayerState) -> list[Held]:
        got: list[Held] = self.data(state).projects.setdefault(player.name, [])
        return got

    def in_play(self, state: GameState) -> int:
        return per_type(len(state.players)) * len(BuildingType)

    def stack_left(self, state: GameState) -> int:
        return max(0, self.in_play(state) - sum(self.data(state).revealed.values()))

    def _projects_text(self, state: GameState, player: PlayerState) -> str:
        return " ".join(h.project.code for h in self.projects_of(state, player)) or "-"

    # ------------------------------------------------------------------ revealing tiles

    def _reveal(
        self, state: GameState, project: Project, pos: Pos, who: str | None
    ) -> list[Finding]:
        """A project tile leaves the face-down stack: checked against the supply and the
        recipes (switch recipes)."""
        data = self.data(state)
        out: list[Finding] = []
        n = per_type(len(state.players))
        if sum(data.revealed.values()) >= self.in_play(state):
            out.append(
                problem(
                    "FARBEN-SUPPLY",
                    pos,
                    who,
                    reason="stack",
                    token=project.code,
                    n=self.in_play(state),
                )
            )
        elif data.revealed[project.type] >= n:
            out.append(problem("FARBEN-SUPPLY", pos, who, reason="type", token=project.code, n=n))
        out.extend(self._recipe_findings(project, pos, who))
        data.revealed[project.type] += 1
        return out

    def _recipe_findings(self, project: Project, pos: Pos, who: str | None) -> list[Finding]:
        if project.recipe is None or self.option("recipes") != "data":
            return []
        known = [norm(r) for r in recipes(project.type)]
        if project.recipe in known:
            return []
        shown = " ".join(f"{PROJECT}:{project.type.value}{r}" for r in known)
        return [problem("FARBEN-TOKEN", pos, who, reason="data", token=project.code, known=shown)]

    def _fields_line(
        self, state: GameState, args: tuple[GenericArg, ...], pos: Pos, position: bool
    ) -> None:
        """``* projects Gu fp:G Di fp:T ...``: tiles laid on the project fields."""
        data = self.data(state)
        found: list[Finding] = []
        items = list(args)
        i = 0
        while i < len(items):
            arg = items[i]
            apos = arg.pos or pos
            cur = Currency.of_code(arg.value) if isinstance(arg.value, str) else None
            nxt = items[i + 1] if i + 1 < len(items) else None
            project = parse_project(nxt.value) if nxt is not None else None
            if cur is None or project is None:
                shown = token_text(arg.value) if cur is None else cur.code
                found.append(problem("FARBEN-FIELD", apos, reason="form", field=shown))
                i += 1 if cur is None else 2
                continue
            i += 2
            held = data.fields.get(cur)
            if held is not None:
                found.append(
                    problem("FARBEN-FIELD", apos, reason="occupied", field=cur.code, held=held.code)
                )
                continue
            if not position and state.turn_no > 0 and self.option("refill") == "none":
                found.append(problem("FARBEN-FIELD", apos, reason="no-refill", field=cur.code))
            found.extend(self._reveal(state, project, nxt.pos or apos if nxt else apos, None))
            data.fields[cur] = project
            data.missing_told.discard(cur)
            data.full = all(p is not None for p in data.fields.values())
            data.idle_start = data.full and not data.pending
        report(state, found)

    def _column_line(self, state: GameState, args: tuple[GenericArg, ...], pos: Pos) -> None:
        """``* column Di gg r w``: a column's three offers, stated once."""
        data = self.data(state)
        cur = Currency.of_code(args[0].value) if args and isinstance(args[0].value, str) else None
        if cur is not None and len(args) > 1 and str(args[1].value).lower() == SEEN:
            # a position: the offers the record's takes showed so far (not a statement)
            seen = {norm(str(a.value)) for a in args[2:]}
            if len(seen) > 3 or not all(_offer_form(o) for o in seen):
                token = " ".join(str(a.value) for a in args)
                state.flag("FARBEN-COLUMN", pos, reason="form", token=token, column=cur.code)
                return
            data.offers.setdefault(cur, set()).update(seen)
            return
        offers = tuple(norm(str(a.value)) for a in args[1:])
        token = " ".join(str(a.value) for a in args) or "-"
        if cur is None or any(not _offer_form(o) for o in offers):
            state.flag(
                "FARBEN-COLUMN", pos, reason="form", token=token, column=cur.code if cur else "?"
            )
            return
        if len(offers) != int(_data()["columns"]["offers_per_column"]):
            state.flag(
                "FARBEN-COLUMN", pos, reason="count", token=token, column=cur.code, n=len(offers)
            )
            return
        before = data.stated.get(cur)
        if cur is Currency.GULDEN and set(offers) != {norm(o) for o in column_data(cur)}:
            shown = " ".join(column_data(cur))
            state.flag(
                "FARBEN-COLUMN",
                pos,
                reason="offers",
                token=token,
                column=cur.code,
                offers=shown,
                source=Text("FARBEN-COLUMN.source/text"),
            )
            return
        if before is not None and set(before) != set(offers):
            state.flag(
                "FARBEN-COLUMN",
                pos,
                reason="stated",
                token=token,
                column=cur.code,
                offers=" ".join(before),
            )
            return
        seen = data.offers.get(cur, set())
        if not seen <= set(offers):
            state.flag(
                "FARBEN-COLUMN",
                pos,
                reason="fourth",
                token=token,
                column=cur.code,
                offers=" ".join(sorted(seen)),
            )
            return
        data.stated[cur] = offers

    def chance(self, state: GameState, event: ModuleChance) -> list[Any]:
        if event.verb.lower() == COLUMN:
            self._column_line(state, event.args, event.pos)
        else:
            self._fields_line(state, event.args, event.pos, position=False)
        return []

    @acts_at(Moment.TURN_START, Moment.TURN_END)
    def at_moment(self, ctx: Any, moment: Moment) -> None:
        state = ctx.state
        if moment is _TURN_END:  # the steps below at a turn's end (the kit's: none)
            data = state.modules.get(self.name)  # (self.data, its common case inline)
            if data is None:
                data = self.data(state)
            if data.pending:
                data.pending.clear()  # a take belongs to its purchase's line
            data.idle_end = True
            data.idle_start = data.full
            return
        super().at_moment(ctx, moment)
        data = self.data(state)
        if moment == Moment.TURN_START:
            if data.pending:
                data.pending.clear()
            data.idle_end = True
            data.idle_start = data.full
        if moment == Moment.TURN_START and state.checking and self.option("refill") == "stack":
            left = self.stack_left(state)
            for cur in CURRENCIES:
                if data.fields.get(cur) is None and left > 0 and cur not in data.missing_told:
                    where = ctx.pos if ctx.pos is not None else state.turn.pos
                    state.flag("FARBEN-MISSING", where, field=cur.code, n=left)
                    data.missing_told.add(cur)

    def idle_at(self, state: GameState, moment: Any) -> bool:
        """Yes while the module's part exists and no purchase is pending (the turn's end then
        clears nothing) and, at a turn's start, every project field holds a tile (no field to
        report missing): the usual turn of a game where nobody overpays for a colour or a
        project. Else no (the step runs; it may change nothing)."""
        data = state.modules.get(self.name)
        if data is None or data.pending:
            return False
        if moment is _TURN_END:
            return True
        full: bool = data.full  # (every project field holds a tile: kept where one changes)
        return full

    idle_moments = frozenset({Moment.TURN_START, Moment.TURN_END})  # (where idle_at may say yes)
    kept_idle = idle_moments  # (its part's idle_start, idle_end: kept where they change)

    # ------------------------------------------------------------------ the overpayment

    def on_purchase(self, ctx: Any, purchase: Any) -> None:
        """Kept for a ``colour``/``project`` on the line: how much it overpaid and from which
        columns (switch column) it may take."""
        data = self.data(ctx.state)
        player = purchase.player
        tile = (
            fmt_tile(purchase.tile) if purchase.tile is not None else fmt_ref(purchase.action.tile)
        )
        over: int | None = -1  # no building from a market field
        columns: frozenset[Currency] = frozenset()
        if purchase.slot is not None and purchase.field is not None:
            over = overpaid(ctx, purchase)
            cols = {purchase.field}
            if self.option("column") == "paid":
                allowed = allowed_currencies(ctx, purchase)
                cols |= {c.currency for c in purchase.cards_paid if c.currency in allowed}
            columns = frozenset(cols)
        data.pending[player.name] = (purchase.action.pos.line, over, columns, tile, False)
        data.idle_start = data.idle_end = False

    leaves_plain_purchases = True  # its leaves_plain_purchase: yes to every plain purchase

    def leaves_plain_purchase(self, state: GameState, player: PlayerState, field: int) -> bool:
        return True  # no purchase rule; the overpayment is kept in after_plain_purchase

    def after_plain_purchase(self, state: GameState, buy: Any) -> None:
        """:meth:`on_purchase` for a purchase made in one pass (a building from a market field,
        money cards only). (Heard at every purchase of a game where nobody takes a colour:
        the option read without :meth:`option`'s call, the one column's set made once per
        currency, ``buy.overpaid``, ``fmt_tile`` and :meth:`data`'s common case inline:
        the same note, issue 34.)"""
        field = buy.field
        if self.settings.get("column", _COLUMN_DEFAULT) == "paid":  # self.option("column")
            columns = frozenset(
                {field} | {c.currency for c in buy.cards if c.currency in buy.allowed}
            )
        else:
            columns = _ONE_COLUMN[field]
        tile = buy.tile
        data = state.modules.get(self.name)
        if data is None:
            data = self.data(state)
        data.pending[buy.player.name] = (
            buy.action.pos.line,
            0 if buy.exact else max(0, buy.total - buy.price),  # buy.overpaid
            columns,
            "?" if tile is None else tile.code,  # fmt_tile(tile)
            False,
        )
        data.idle_start = data.idle_end = False

    def _pending(
        self, state: GameState, player: PlayerState, action: ModuleAction, token: str, pos: Pos
    ) -> tuple[list[Finding], frozenset[Currency]]:
        """The purchase of the line a take belongs to, or why there is none."""
        pending = self.data(state).pending.get(player.name)
        who = player.name
        if pending is None:  # the latest purchase of the turn (cleared when a turn starts or ends)
            return [
                problem("FARBEN-NO-OVERPAY", pos, who, reason="no-purchase", token=token)
            ], frozenset()
        _line, over, columns, tile, used = pending
        if over is not None and over < 0:
            return [
                problem("FARBEN-NO-OVERPAY", pos, who, reason="no-building", token=token, tile=tile)
            ], frozenset()
        if over == 0:
            return [
                problem("FARBEN-NO-OVERPAY", pos, who, reason="exact", token=token, tile=tile)
            ], frozenset()
        if used:
            return [
                problem("FARBEN-NO-OVERPAY", pos, who, reason="twice", token=token, tile=tile)
            ], columns
        return [], columns

    def _use(self, state: GameState, player: PlayerState) -> None:
        data = self.data(state)
        pending = data.pending.get(player.name)
        if pending is not None:
            data.pending[player.name] = (*pending[:4], True)

    # ------------------------------------------------------------------ colour takes

    def _read_take(self, action: ModuleAction) -> tuple[list[str], list[str], list[GenericArg]]:
        """The colours taken, the colours dropped, and the arguments that are neither."""
        taken: list[str] = []
        dropped: list[str] = []
        bad: list[GenericArg] = []
        into = taken
        for arg in action.args:
            if isinstance(arg.value, str) and arg.value.lower() in (DROP, "ablegen"):
                into = dropped
                continue
            c = parse_colour(arg.value)
            if c is None:
                bad.append(arg)
            else:
                into.append(c)
        return taken, dropped, bad

    def offers_known(self, state: GameState, cur: Currency) -> tuple[set[str] | None, object]:
        """The offers a column is known to show and where that is from (None: not known)."""
        data = self.data(state)
        if cur in data.stated:
            return set(data.stated[cur]), Text("FARBEN-COLUMN.source/stated")
        if cur is Currency.GULDEN:
            return {norm(o) for o in column_data(cur)}, Text("FARBEN-COLUMN.source/text")
        if self.option("columns") == "data":
            return {norm(o) for o in column_data(cur)}, Text("FARBEN-COLUMN.source/data")
        return None, None

    def _column_findings(
        self,
        state: GameState,
        who: str,
        offer: str,
        columns: frozenset[Currency],
        pos: Pos,
        token: str,
    ) -> tuple[list[Finding], Currency | None]:
        """The column the offer comes from (the first of ``columns`` that shows it)."""
        if not _offer_form(offer):
            return [
                problem(
                    "FARBEN-COLUMN",
                    pos,
                    who,
                    reason="form",
                    token=token,
                    column="/".join(c.code for c in sorted(columns, key=lambda c: c.field)) or "?",
                )
            ], None
        data = self.data(state)
        first: list[Finding] = []
        for cur in sorted(columns, key=lambda c: c.field):
            known, source = self.offers_known(state, cur)
            if known is not None:
                if offer in known:
                    return [], cur
                if not first:
                    first.append(
                        problem(
                            "FARBEN-COLUMN",
                            pos,
                            who,
                            reason="offers",
                            token=token,
                            column=cur.code,
                            offers=" ".join(sorted(known)),
                            source=source,
                        )
                    )
                continue
            seen = data.offers.get(cur, set())
            if offer in seen or len(seen) < int(_data()["columns"]["offers_per_column"]):
                return [], cur
            if not first:
                first.append(
                    problem(
                        "FARBEN-COLUMN",
                        pos,
                        who,
                        reason="fourth",
                        token=token,
                        column=cur.code,
                        offers=" ".join(sorted(seen)),
                    )
                )
        return first, None

    def check_verb(self, ctx: Any, player: PlayerState, action: ModuleAction) -> list[Finding]:
        verb = self.verb_of(action)
        if verb == FINISH:
            return self._check_finish(ctx.state, player, action)
        if verb == PICK:
            return self._check_pick(ctx.state, player, action)
        return self._check_take(ctx.state, player, action)

    def verb_of(self, action: ModuleAction) -> str:
        v = action.verb.lower()
        return {"farbe": TAKE, "projekt": PICK, "abschliessen": FINISH}.get(v, v)

    def _check_take(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        """ "eine der drei abgebildeten Farbplättchen/Farbplättchenpaare nehmen" (L3307-3312);
        at most 5 held, the surplus laid down (L3318-3321)."""
        who, pos = player.name, action.pos
        taken, dropped, bad = self._read_take(action)
        out: list[Finding] = []
        for arg in bad:
            out.append(
                problem(
                    "FARBEN-TOKEN",
                    arg.pos or pos,
                    who,
                    reason="colour",
                    token=token_text(arg.value),
                )
            )
        token = " ".join(f"{COLOUR}:{c}" for c in taken) or "-"
        found, columns = self._pending(state, player, action, token, pos)
        out.extend(found)
        if not taken:
            out.append(problem("FARBEN-COLUMN", pos, who, reason="form", token=token, column="?"))
            return out
        if columns and not found:
            more, _cur = self._column_findings(
                state, who, norm("".join(taken)), columns, pos, token
            )
            out.extend(more)
        supply = self.data(state).supply
        for c, n in Counter(taken).items():
            if supply[c] < n:
                out.append(
                    problem("FARBEN-SUPPLY", pos, who, reason="colour", token=f"{COLOUR}:{c}")
                )
        out.extend(self._drop_findings(state, player, taken, dropped, pos))
        return out

    def _drop_findings(
        self, state: GameState, player: PlayerState, taken: list[str], dropped: list[str], pos: Pos
    ) -> list[Finding]:
        who = player.name
        held = self.colours_of(state, player) + Counter(taken)
        out: list[Finding] = []
        after = held.copy()
        for c in dropped:
            token = f"{COLOUR}:{c}"
            if after[c] <= 0:
                out.append(
                    problem(
                        "FARBEN-DROP",
                        pos,
                        who,
                        reason="not-held",
                        token=token,
                        held=_colours_text(after),
                    )
                )
                continue
            if after.total() <= max_held():
                out.append(
                    problem(
                        "FARBEN-DROP",
                        pos,
                        who,
                        reason="not-surplus",
                        token=token,
                        n=after.total() - 1,
                    )
                )
            after[c] -= 1
        if after.total() > max_held():
            out.append(
                problem(
                    "FARBEN-OVER-5",
                    pos,
                    who,
                    reason="over",
                    n=after.total(),
                    held=_colours_text(after),
                )
            )
        return out

    # ------------------------------------------------------------------ project takes

    def _read_pick(self, action: ModuleAction) -> tuple[bool, Project | None]:
        args = list(action.args)
        from_stack = (
            bool(args)
            and isinstance(args[0].value, str)
            and args[0].value.lower() in (STACK, "stapel")
        )
        if from_stack:
            args = args[1:]
        if len(args) != 1:
            return from_stack, None
        return from_stack, parse_project(args[0].value)

    def _check_pick(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        """ "entweder das Projektplättchen der zugehörigen Währung oder das oberste
        Projektplättchen vom Stapel" (L3307-3312); one per type, at most 2 unfinished
        (L3323-3326)."""
        who, pos = player.name, action.pos
        from_stack, project = self._read_pick(action)
        shown = " ".join(token_text(a.value) for a in action.args) or "-"
        if project is None:
            bad = [
                a
                for a in action.args
                if isinstance(a.value, ComponentRef) and a.value.kind.lower() == PROJECT
            ]
            if bad:
                return [
                    problem(
                        "FARBEN-TOKEN",
                        bad[0].pos or pos,
                        who,
                        reason="project",
                        token=token_text(bad[0].value),
                    )
                ]
            return [problem("FARBEN-PROJECT", pos, who, reason="form", token=shown)]
        token = project.code
        out, columns = self._pending(state, player, action, token, pos)
        data = self.data(state)
        if from_stack:
            if self.stack_left(state) <= 0:
                out.append(
                    problem(
                        "FARBEN-SUPPLY",
                        pos,
                        who,
                        reason="stack",
                        token=token,
                        n=self.in_play(state),
                    )
                )
            elif data.revealed[project.type] >= per_type(len(state.players)):
                out.append(
                    problem(
                        "FARBEN-SUPPLY",
                        pos,
                        who,
                        reason="type",
                        token=token,
                        n=per_type(len(state.players)),
                    )
                )
            out.extend(self._recipe_findings(project, pos, who))
        elif columns and not out:
            ok = [c for c in columns if _same(data.fields.get(c), project)]
            if not ok:
                cur = min(columns, key=lambda c: c.field)
                held = data.fields.get(cur)
                out.append(
                    problem(
                        "FARBEN-PROJECT",
                        pos,
                        who,
                        reason="field",
                        token=token,
                        column=cur.code,
                        held=held.code if held else Text("FARBEN-PROJECT.word/empty"),
                    )
                )
        mine = self.projects_of(state, player)
        same = [h for h in mine if h.project.type is project.type]
        if same:
            out.append(
                problem("FARBEN-PROJECT-TYPE", pos, who, token=token, held=same[0].project.code)
            )
        open_ = [h for h in mine if not h.done]
        if len(open_) >= max_unfinished():
            out.append(
                problem(
                    "FARBEN-PROJECT-LIMIT",
                    pos,
                    who,
                    token=token,
                    held=" ".join(h.project.code for h in open_),
                )
            )
        return out

    # ------------------------------------------------------------------ finishing

    def _read_finish(
        self, action: ModuleAction
    ) -> tuple[list[tuple[Project, GenericArg]], list[str], list[GenericArg]]:
        projects: list[tuple[Project, GenericArg]] = []
        colours: list[str] = []
        bad: list[GenericArg] = []
        for arg in action.args:
            p = parse_project(arg.value)
            c = parse_colour(arg.value)
            if p is not None and not colours:
                projects.append((p, arg))
            elif c is not None:
                colours.append(c)
            else:
                bad.append(arg)
        return projects, colours, bad

    def _match_held(self, state: GameState, player: PlayerState, project: Project) -> Held | None:
        for h in self.projects_of(state, player):
            if h.project.type is project.type:
                return h
        return None

    def _check_finish(
        self, state: GameState, player: PlayerState, action: ModuleAction
    ) -> list[Finding]:
        """ "legt die erforderlichen Farbplättchen für ein oder zwei unvollendete
        Projektplättchen zurück in den Vorrat" (L3330-3333)."""
        who, pos = player.name, action.pos
        projects, colours, bad = self._read_finish(action)
        token = " ".join(p.code for p, _a in projects) or "-"
        out: list[Finding] = main_action_findings(state, pos, player, FINISHING)
        if bad or not 1 <= len(projects) <= 2 or not colours:
            return [*out, problem("FARBEN-FINISH", pos, who, reason="form", token=token)]
        need: Counter[str] = Counter()
        unknown = 0
        seen: set[BuildingType] = set()
        for p, arg in projects:
            h = self._match_held(state, player, p)
            apos = arg.pos or pos
            if h is None or p.type in seen:
                out.append(
                    problem(
                        "FARBEN-FINISH",
                        apos,
                        who,
                        reason="not-held",
                        token=p.code,
                        held=self._projects_text(state, player),
                    )
                )
                continue
            seen.add(p.type)
            if h.done:
                out.append(problem("FARBEN-FINISH", apos, who, reason="done", token=p.code))
                continue
            recipe = h.project.recipe or p.recipe
            if h.project.recipe and p.recipe and h.project.recipe != p.recipe:
                out.append(
                    problem(
                        "FARBEN-FINISH",
                        apos,
                        who,
                        reason="not-held",
                        token=p.code,
                        held=self._projects_text(state, player),
                    )
                )
                continue
            if recipe is None:
                unknown += 1
            else:
                need += Counter(recipe)
        if any(f.code == "FARBEN-FINISH" for f in out):
            return out
        given = Counter(colours)
        held = self.colours_of(state, player)
        if any(held[c] < n for c, n in given.items()):
            out.append(
                problem(
                    "FARBEN-FINISH",
                    pos,
                    who,
                    reason="colours",
                    token=token,
                    held=_colours_text(held),
                )
            )
        rest = given - need
        short = need - given
        if short or (unknown == 0 and rest) or (unknown and rest.total() < unknown):
            if unknown and not short and rest.total() < unknown:
                out.append(problem("FARBEN-FINISH", pos, who, reason="few", token=token))
            else:
                out.append(
                    problem(
                        "FARBEN-FINISH",
                        pos,
                        who,
                        reason="recipe",
                        token=token,
                        need=_colours_text(need) + (" + ?" if unknown else ""),
                        given=_colours_text(given),
                    )
                )
        return out

    # ------------------------------------------------------------------ the changes

    def action(self, state: GameState, player: PlayerState, action: ModuleAction) -> list[Any]:
        verb = self.verb_of(action)
        data = self.data(state)
        if verb == TAKE:
            taken, dropped, _bad = self._read_take(action)
            pending = data.pending.get(player.name)
            if pending is not None and taken:
                offer = norm("".join(taken))
                for cur in sorted(pending[2], key=lambda c: c.field):
                    known, _src = self.offers_known(state, cur)
                    seen = data.offers.setdefault(cur, set())
                    if (known is not None and offer in known) or (
                        known is None and (offer in seen or len(seen) < 3)
                    ):
                        seen.add(offer)
                        break
            self._use(state, player)
            mine = self.colours_of(state, player)
            for c in taken:
                if data.supply[c] > 0:
                    data.supply[c] -= 1
                    mine[c] += 1
            for c in dropped:
                if mine[c] > 0:
                    mine[c] -= 1
                    data.supply[c] += 1
            return []
        if verb == PICK:
            from_stack, project = self._read_pick(action)
            if project is None:
                return []
            self._use(state, player)
            if from_stack:
                data.revealed[project.type] += 1
            else:
                pending = data.pending.get(player.name)
                cols = pending[2] if pending is not None else frozenset()
                for cur in sorted(cols, key=lambda c: c.field):
                    lying = data.fields.get(cur)
                    if _same(lying, project):
                        assert lying is not None
                        if lying.recipe and not project.recipe:
                            project = lying
                        data.fields[cur] = None
                        data.full = data.idle_start = False
                        break
            if self._match_held(state, player, project) is None:
                held = self.projects_of(state, player)
                held.append(Held(project))
                held.sort(key=_type_order)
            return []
        start_main_action(state)
        end_main_action(state, FINISHING)
        projects, colours, _bad = self._read_finish(action)
        mine = self.colours_of(state, player)
        given = Counter(colours)
        need: Counter[str] = Counter()
        todo: list[Held] = []
        for p, _arg in projects:
            h = self._match_held(state, player, p)
            if h is None or h.done:
                continue
            if h.project.recipe is None and p.recipe is not None:
                h.project = p
            if h.project.recipe is not None:
                need += Counter(h.project.recipe)
            todo.append(h)
        rest = given - need
        unknown = [g for g in todo if g.project.recipe is None]
        for h in todo:
            if h.project.recipe is None and len(unknown) == 1 and rest:
                h.project = Project(h.project.type, norm("".join(rest.elements())))
            h.done = True
        for c, n in given.items():
            k = min(n, mine[c])
            mine[c] -= k
            data.supply[c] += k
        return []

    # ------------------------------------------------------------------ scoring

    def project_points(self, state: GameState, player: PlayerState) -> tuple[int, str, str]:
        """ "Für jeden Gebäudetyp in der eigenen Alhambra, zu dem der Spieler ein passendes
        vollendetes Projektplättchen besitzt, erhält er je Gebäude 2 Punkte" (L3357-3363)."""
        counts: Any = player.counts if player.counts is not None else player.alhambra.counts()
        total = 0
        en: list[str] = []
        de: list[str] = []
        for h in self.projects_of(state, player):
            if not h.done:
                continue
            n = int(counts.get(h.project.type, 0))
            total += 2 * n
            en.append(f"{n} {h.project.type.value}")
            de.append(f"{n} {h.project.type.value}")
        return total, "2 × (" + " + ".join(en) + ")", "2 × (" + " + ".join(de) + ")"

    def _any_done(self, state: GameState) -> bool:
        """Whether some player holds a completed project. A player without one has no
        ``projects`` line in a scoring (``points`` below): with none, the module adds no
        category and the scoring keeps the base game's path (its rows are the same). Each
        player's list is asked as ``points`` asks it (``projects_of`` makes it)."""
        projects_of = self.projects_of
        return any(any(h.done for h in projects_of(state, p)) for p in state.players)

    def scoring_parts(self, state: GameState, round_no: int) -> Any:
        if not self._any_done(state):  # no line for anyone
            return None

        def points(p: Any) -> tuple[int, str, str] | None:
            player = state.player_named(p.name)
            if player is None or not any(h.done for h in self.projects_of(state, player)):
                return None
            return self.project_points(state, player)

        return ScoringParts(
            categories=(PointLine("projects", "projects", "Projekte", S_SCORE, points, order=640),)
        )

    # ------------------------------------------------------------------ positions

    def position_lines(self, state: GameState, player: PlayerState | None) -> list[ModuleAction]:
        data = self.data(state)
        if player is None:
            out: list[ModuleAction] = []
            args: list[GenericArg] = []
            for cur in CURRENCIES:
                p = data.fields.get(cur)
                if p is not None:
                    args += [GenericArg(cur.code), GenericArg(p.ref())]
            if args:
                out.append(ModuleAction(FIELDS, tuple(args)))
            for cur in CURRENCIES:
                if cur in data.stated:
                    out.append(
                        ModuleAction(
                            COLUMN,
                            (GenericArg(cur.code), *(GenericArg(o) for o in data.stated[cur])),
                        )
                    )
                elif data.offers.get(cur):
                    seen = (GenericArg(o) for o in sorted(data.offers[cur]))
                    out.append(
                        ModuleAction(COLUMN, (GenericArg(cur.code), GenericArg(SEEN), *seen))
                    )
            return out
        lines: list[ModuleAction] = []
        held = self.colours_of(state, player)
        if held.total():
            lines.append(
                ModuleAction(
                    TAKE,
                    tuple(GenericArg(ComponentRef(COLOUR, c)) for c in sorted(held.elements())),
                )
            )
        mine = self.projects_of(state, player)
        open_ = [GenericArg(h.project.ref()) for h in mine if not h.done]
        done = [GenericArg(h.project.ref()) for h in mine if h.done]
        if open_:
            lines.append(ModuleAction(FIELDS, tuple(open_)))
        if done:
            lines.append(ModuleAction(FIELDS, (GenericArg(DONE), *done)))
        pending = data.pending.get(player.name) if state.turn is not None else None
        if pending is not None:
            _line, over, columns, tile, used = pending
            args = [GenericArg("overpaid"), GenericArg("?" if over is None else max(over, -1))]
            if over is not None and over < 0:
                args[1] = GenericArg("none")
            args += [GenericArg(c.code) for c in sorted(columns, key=lambda c: c.field)]
            args.append(GenericArg(tile))
            if used:
                args.append(GenericArg("used"))
            lines.append(ModuleAction(FIELDS, tuple(args)))
        return lines

    def _position_overpaid(
        self, state: GameState, player: PlayerState, args: list[GenericArg], pos: Pos
    ) -> None:
        """``projects overpaid N COLUMN ... TILE [used]`` (a moment inside a turn): the turn's
        latest purchase, what it overpaid (``?`` unknown, ``none`` no building from a market field),
        the columns a colour tile may come from, the building and whether its overpayment was
        used ("Wenn ein Spieler die Aktion: Gebäudeplättchen kaufen wählt und das Gebäude
        überbezahlt, darf er aus der Spalte der bezahlten Währung ... nehmen", Big Box
        L3305-3311)."""
        vals = [a.value for a in args]
        used = bool(vals) and isinstance(vals[-1], str) and vals[-1].lower() in USED
        if used:
            vals = vals[:-1]
        first = vals[0] if vals else None
        none = isinstance(first, str) and first.lower() in NO_MARKET
        over = -1 if none else first if isinstance(first, int) else None
        cols = [Currency.of_code(v) if isinstance(v, str) else None for v in vals[1:-1]]
        tile = vals[-1] if len(vals) >= 2 else None
        if (
            state.turn is None
            or len(vals) < 2
            or (over is None and first != "?")
            or any(c is None for c in cols)
        ):
            form = "'projects overpaid N|?|none COLUMN ... TILE [used]' after a 'turn' line"
            state.flag("POSITION-INVALID", pos, player.name, reason="turn-state", form=form)
            return
        text = fmt_ref(tile) if isinstance(tile, TileRef) else token_text(tile)
        columns = frozenset(c for c in cols if c is not None)
        data = self.data(state)
        data.pending[player.name] = (pos.line, over, columns, text, used)
        data.idle_start = data.idle_end = False

    def position_line(
        self, state: GameState, player: PlayerState | None, line: ModuleAction
    ) -> bool:
        verb = line.verb.lower()
        if player is None:
            if verb == FIELDS:
                self._fields_line(state, line.args, line.pos, position=True)
                return True
            if verb == COLUMN:
                self._column_line(state, line.args, line.pos)
                return True
            return False
        if verb == TAKE or verb == "farbe":
            data = self.data(state)
            mine = self.colours_of(state, player)
            for arg in line.args:
                c = parse_colour(arg.value)
                if c is None:
                    state.flag(
                        "FARBEN-TOKEN",
                        arg.pos or line.pos,
                        player.name,
                        reason="colour",
                        token=token_text(arg.value),
                    )
                elif data.supply[c] <= 0:
                    state.flag(
                        "FARBEN-SUPPLY",
                        arg.pos or line.pos,
                        player.name,
                        reason="colour",
                        token=f"{COLOUR}:{c}",
                    )
                else:
                    data.supply[c] -= 1
                    mine[c] += 1
            if mine.total() > max_held():
                state.flag(
                    "FARBEN-OVER-5",
                    line.pos,
                    player.name,
                    reason="over",
                    n=mine.total(),
                    held=_colours_text(mine),
                )
            return True
        if verb != FIELDS:
            return False
        args = list(line.args)
        done = (
            bool(args)
            and isinstance(args[0].value, str)
            and args[0].value.lower() in (DONE, "fertig")
        )
        if done:
            args = args[1:]
        if args and isinstance(args[0].value, str) and args[0].value.lower() in OVERPAID:
            self._position_overpaid(state, player, args[1:], line.pos)
            return True
        owned = self.projects_of(state, player)
        for arg in args:
            apos = arg.pos or line.pos
            p = parse_project(arg.value)
            if p is None:
                state.flag(
                    "FARBEN-POSITION", apos, player.name, reason="form", token=token_text(arg.value)
                )
                continue
            if any(h.project.type is p.type for h in owned):
                held = next(h.project.code for h in owned if h.project.type is p.type)
                state.flag("FARBEN-PROJECT-TYPE", apos, player.name, token=p.code, held=held)
                continue
            if not done and sum(1 for h in owned if not h.done) >= max_unfinished():
                held = " ".join(h.project.code for h in owned if not h.done)
                state.flag("FARBEN-PROJECT-LIMIT", apos, player.name, token=p.code, held=held)
                continue
            report(state, self._reveal(state, p, apos, player.name))
            owned.append(Held(p, done))
            owned.sort(key=_type_order)
        return True

    # ------------------------------------------------------------------ view

    def view(self, state: GameState) -> dict[str, Any]:
        """The project fields, the stack, the supply, the columns seen; each player's colour
        tiles and projects, and the points they bring now."""
        data = self.data(state)
        fields = " ".join(
            f"{cur.code} {p.code if (p := data.fields.get(cur)) else '-'}" for cur in CURRENCIES
        )
        supply = ", ".join(f"{data.supply[c]} {colour_word(c)}" for c in LETTERS)
        supply_de = ", ".join(f"{data.supply[c]} {colour_word(c, 'de')}" for c in LETTERS)
        seen = "; ".join(
            f"{cur.code} "
            + " ".join(sorted(data.stated.get(cur, ()) or data.offers.get(cur, set())))
            for cur in CURRENCIES
            if data.stated.get(cur) or data.offers.get(cur)
        )
        players: dict[str, dict[str, object]] = {}
        for p in state.players:
            held = self.colours_of(state, p)
            mine = self.projects_of(state, p)
            if not held.total() and not mine:
                continue
            row: dict[str, object] = {}
            if held.total():
                row["colour tiles"] = {
                    "en": _colours_words(held, "en"),
                    "de": _colours_words(held, "de"),
                }
            if mine:
                row["projects"] = {
                    "en": ", ".join(_project_words(h, "en") for h in mine),
                    "de": ", ".join(_project_words(h, "de") for h in mine),
                }
                row["project points now"] = str(self.project_points(state, p)[0])
            players[p.name] = row
        return self.shown(
            {
                "project fields": fields,
                "projects in the stack": str(self.stack_left(state)),
                "colour tiles in the supply": {"en": supply, "de": supply_de},
                "columns seen": seen or "-",
            },
            players,
        )

    def player_area(self, state: GameState, player: PlayerState) -> list[tuple[str, str]]:
        """The colour tiles and projects in front of the player, in words (terminal, SVG)."""
        held = self.colours_of(state, player)
        mine = self.projects_of(state, player)
        if not held.total() and not mine:
            return []
        out: dict[str, str] = {}
        for lang, title, tiles, projects in (
            ("en", self.title_en, "colour tiles", "projects"),
            ("de", self.title_de, "Farbplättchen", "Projekte"),
        ):
            parts = []
            if held.total():
                parts.append(f"{tiles} {_colours_words(held, lang)}")
            if mine:
                parts.append(f"{projects} " + ", ".join(_project_short(h, lang) for h in mine))
            out[lang] = f"{title}: " + "; ".join(parts)
        return [(out["en"], out["de"])]

    # ------------------------------------------------------------------ legal moves

    def _drops(self, state: GameState, player: PlayerState, taken: str) -> list[str]:
        """The surplus over 5 to lay down: tiles no unfinished recipe needs first."""
        after = self.colours_of(state, player) + Counter(taken)
        over = after.total() - max_held()
        if over <= 0:
            return []
        need: Counter[str] = Counter()
        for h in self.projects_of(state, player):
            if not h.done and h.project.recipe:
                need += Counter(h.project.recipe)
        spare = list((after - need).elements()) + list((after & need).elements())
        return spare[:over]

    def legal_actions(self, ctx: Any, player: PlayerState) -> list[Any]:
        """After an overpaid building: each offer of the column (with the surplus laid down)
        and the column's project when it may be taken; and each project whose recipe the
        player's colour tiles hold completed, alone or with another."""
        state = ctx.state
        data = self.data(state)
        out: list[Any] = []
        pending = data.pending.get(player.name)
        if pending is not None and pending[1] is not None and pending[1] > 0 and not pending[4]:
            for cur in sorted(pending[2], key=lambda c: c.field):
                known, _src = self.offers_known(state, cur)
                for offer in sorted(
                    known if known is not None else {norm(o) for o in column_data(cur)}
                ):
                    if any(data.supply[c] < n for c, n in Counter(offer).items()):
                        continue
                    args = [GenericArg(ComponentRef(COLOUR, c)) for c in offer]
                    drops = self._drops(state, player, offer)
                    if drops:
                        args += [
                            GenericArg(DROP),
                            *(GenericArg(ComponentRef(COLOUR, c)) for c in drops),
                        ]
                    out.append(ModuleAction(TAKE, tuple(args)))
                lying = data.fields.get(cur)
                mine = self.projects_of(state, player)
                if (
                    lying is not None
                    and not any(h.project.type is lying.type for h in mine)
                    and sum(1 for h in mine if not h.done) < max_unfinished()
                ):
                    out.append(ModuleAction(PICK, (GenericArg(lying.ref()),)))
        t = state.turn
        if t is not None and t.interrupt is not None:
            return out
        held = self.colours_of(state, player)
        ready = [
            h
            for h in self.projects_of(state, player)
            if not h.done and h.project.recipe and not (Counter(h.project.recipe) - held)
        ]
        for i, h in enumerate(ready):
            assert h.project.recipe is not None
            out.append(
                ModuleAction(
                    FINISH,
                    (
                        GenericArg(h.project.ref()),
                        *(GenericArg(ComponentRef(COLOUR, c)) for c in h.project.recipe),
                    ),
                )
            )
            for g in ready[i + 1 :]:
                assert g.project.recipe is not None
                both = norm(h.project.recipe + g.project.recipe)
                if not (Counter(both) - held):
                    out.append(
                        ModuleAction(
                            FINISH,
                            (
                                GenericArg(h.project.ref()),
                                GenericArg(g.project.ref()),
                                *(GenericArg(ComponentRef(COLOUR, c)) for c in both),
                            ),
                        )
                    )
        return out

    # ------------------------------------------------------------------ simulator

    def _pile(self, sim: Any) -> list[Project]:
        def make() -> list[Project]:
            n = per_type(len(sim.state.players))
            pile = [Project(k, norm(r)) for k in BuildingType for r in recipes(k)[:n]]
            sim.rng.shuffle(pile)
            return pile

        pile: list[Project] = sim.mine(self, make)
        return pile

    def sim_setup(self, sim: Any) -> list[Any]:
        return self.sim_after_refill(sim)

    def sim_after_refill(self, sim: Any) -> list[Any]:
        """The empty project fields filled from the top of the stack."""
        if self.option("refill") == "none" and sim.state.turn_no > 0:
            return []
        data = self.data(sim.state)
        pile = self._pile(sim)
        args: list[GenericArg] = []
        for cur in CURRENCIES:
            if data.fields.get(cur) is None and pile:
                args += [GenericArg(cur.code), GenericArg(pile.pop().ref())]
        return [ModuleChance(FIELDS, tuple(args))] if args else []

    def sim_prefers(self, sim: Any, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Completing a project whenever it can; after an overpayment a project while fewer
        than two are open, else the colours its open projects need most."""
        mine = [a for a in actions if isinstance(a, ModuleAction) and a.verb in (TAKE, PICK)]
        done = [a for a in actions if isinstance(a, ModuleAction) and a.verb == FINISH]
        if done:
            return done
        state = sim.state
        if not mine and any(isinstance(a, Buy) for a in actions):
            done = self._sim_finishes(sim, player)
            if done:
                return done  # completing a project is worth more than a purchase
        if not mine:
            return self._sim_overpays(state, player, actions) if sim.rng.random() < 0.7 else []
        projects = self.projects_of(state, player)
        picks = [a for a in mine if a.verb == PICK]
        if picks and sum(1 for h in projects if not h.done) < max_unfinished():
            return picks
        need: Counter[str] = Counter()
        for h in projects:
            if not h.done and h.project.recipe:
                need += Counter(h.project.recipe)
        need -= self.colours_of(state, player)

        def gain(a: ModuleAction) -> int:
            taken, _dropped, _bad = self._read_take(a)
            return sum((Counter(taken) & need).values())

        takes = [a for a in mine if a.verb == TAKE]
        best = max((gain(a) for a in takes), default=0)
        return [a for a in takes if gain(a) == best] or mine

    def _sim_finishes(self, sim: Any, player: PlayerState) -> list[Any]:
        """The legal ``finish`` actions now, while a main action is open."""
        from referee.engine.context import Context
        from referee.engine.legal import main_actions_open

        state = sim.state
        if not main_actions_open(state):
            return []
        return [
            a
            for a in self.legal_actions(Context(state), player)
            if isinstance(a, ModuleAction) and a.verb == FINISH
        ]

    def _sim_overpays(self, state: GameState, player: PlayerState, actions: list[Any]) -> list[Any]:
        """Purchases from the market overpaid by one or two whose column gives something
        useful: a project while fewer than two are open, else a colour an open one needs."""
        data = self.data(state)
        projects = self.projects_of(state, player)
        open_ = [h for h in projects if not h.done]
        need: Counter[str] = Counter()
        for h in open_:
            if h.project.recipe:
                need += Counter(h.project.recipe)
        need -= self.colours_of(state, player)

        def useful(cur: Currency) -> bool:
            lying = data.fields.get(cur)
            if (
                lying is not None
                and len(open_) < max_unfinished()
                and not any(h.project.type is lying.type for h in projects)
            ):
                return True
            known, _src = self.offers_known(state, cur)
            offers = known if known is not None else {norm(o) for o in column_data(cur)}
            return any(Counter(o) & need for o in offers)

        out = []
        for a in actions:
            if not isinstance(a, Buy) or a.field is None or not useful(a.field):
                continue
            price = getattr(a.tile, "price", None)
            cards = [r for r in a.paid if isinstance(r, CardRef) and r.card is not None]
            paid = sum(r.card.value for r in cards if r.card is not None)
            if isinstance(price, int) and 1 <= paid - price <= 2 and len(cards) == len(a.paid):
                out.append(a)
        return out


_COLUMN_DEFAULT = Farben.options["column"][0]
_ONE_COLUMN = {cur: frozenset({cur}) for cur in CURRENCIES}  # a purchase's one column, by field


def _type_order(h: Held) -> int:
    """Projects are listed in the order of the building types (P S A C G T)."""
    return list(BuildingType).index(h.project.type)


def _offer_form(offer: str) -> bool:
    """An offer is one colour tile or a pair of one colour."""
    return len(offer) in (1, 2) and len(set(offer)) == 1 and offer[0] in LETTERS


def _same(lying: Project | None, project: Project) -> bool:
    if lying is None or lying.type is not project.type:
        return False
    return lying.recipe is None or project.recipe is None or lying.recipe == project.recipe


def _colours_words(held: Counter[str], lang: str) -> str:
    return ", ".join(f"{held[c]} {colour_word(c, lang)}" for c in LETTERS if held[c])


def _project_short(h: Held, lang: str) -> str:
    done = (
        ("vollendet" if h.done else "unvollendet")
        if lang == "de"
        else ("finished" if h.done else "unfinished")
    )
    return f"{h.project.code} ({done})"


def _project_words(h: Held, lang: str) -> str:
    state = (
        ("vollendet" if h.done else "unvollendet")
        if lang == "de"
        else ("finished" if h.done else "unfinished")
    )
    recipe = (
        " + ".join(colour_word(c, lang) for c in h.project.recipe)
        if h.project.recipe
        else ("Rezept unbekannt" if lang == "de" else "recipe unknown")
    )
    return f"{h.project.code} ({state}; {recipe})"


__all__ = ["Farben", "Project", "parse_colour", "parse_project"]
