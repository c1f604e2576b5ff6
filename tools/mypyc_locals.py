"""Find local names that the compiled build types from their first assignment and that later
hold a value of another type (issue 34, nineteenth step).

mypyc gives a local name of a function one type: the type mypy infers from its first
assignment. A later assignment of a value whose type mypy only knows as ``Any`` (an attribute
of a module object, a dict of ``Any`` ...) passes mypy, and the compiled code checks it at run
time: ``TypeError`` where the pure package runs on (the eighteenth step's ``idle`` in
``core._turn``: a tuple of modules first, later ``Module.idle_start``'s bool or None read
through ``Any``). CI builds only the pure package, so this script looks for the pattern in the
modules of setup.py's ``MYPYC_MODULES`` with mypy's own build API (the types mypy gives every
expression): a local whose first assignment's type is neither ``Any`` nor ``object`` and that
a later assignment gives ``Any`` or a type that is not a subtype of the first (mypy reports
the latter itself unless it is hidden by an ignore). Names of loops and ``with``, and the parts
of a tuple assignment, count as assignments (a ``with`` name's value is not typed here: only
as a first assignment); assignment expressions (``:=``) and ``except ... as`` names do not.

Run from the project root: ``python tools/mypyc_locals.py`` (or with file paths to check
other files under the same rule). Prints ``path:line: name first-type <- later-type`` for each
finding and exits 1 when there is one. A finding is mended by a name of its own for the later
value, or by a declared type wide enough for both (``x: object``; then the compiled code checks
nothing). A mypy run without a cache: about a minute of cpu.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

from mypy import build
from mypy.nodes import (
    LDEF,
    AssignmentStmt,
    Block,
    ClassDef,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    ListExpr,
    MatchStmt,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.options import Options
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    Instance,
    NoneType,
    TupleType,
    Type,
    UnionType,
    get_proper_type,
)

ROOT = Path(__file__).resolve().parents[1]


def compiled_modules() -> list[str]:
    """setup.py's ``MYPYC_MODULES`` (read without running setup)."""
    sys.path.insert(0, str(ROOT))
    try:
        import setup  # (the one place the list lives; its setup() runs only as a script)

        return list(setup.MYPYC_MODULES)
    finally:
        sys.path.pop(0)


# the builtin types that compiled code keeps in a native form, so that a value assigned to a
# name of such a type is checked at run time (mypyc's primitive types)
_CHECKED_BUILTINS = frozenset(
    f"builtins.{n}"
    for n in ("int", "bool", "float", "str", "bytes", "list", "dict", "set", "tuple")
)


def _checked(t: Type | None, native: frozenset[str]) -> bool:
    """Whether compiled code checks a value assigned to a name of type ``t`` at run time: a
    primitive (:data:`_CHECKED_BUILTINS`, a tuple type), a class of a compiled module
    (``native``: their names), or an optional or union of these. ``Any``, ``object``, a
    callable, a protocol and a class of a module left Python are kept as any object."""
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return True
    if isinstance(p, Instance):
        name = p.type.fullname
        return name in _CHECKED_BUILTINS or (
            not p.type.is_protocol and p.type.module_name in native
        )
    if isinstance(p, UnionType):
        items = [get_proper_type(i) for i in p.items]
        kept = [i for i in items if not isinstance(i, NoneType)]
        return bool(kept) and all(_checked(i, native) for i in kept)
    return False


def _functions(body: list[Statement]) -> Iterator[FuncDef]:
    """Every function defined in ``body`` (methods and functions inside functions too)."""
    for st in body:
        if isinstance(st, Decorator):
            st = st.func
        if isinstance(st, OverloadedFuncDef):
            for item in st.items:
                yield from _functions([item])
            continue
        if isinstance(st, FuncDef):
            yield st
        for block in _blocks(st):
            yield from _functions(block.body)


def _blocks(st: Statement) -> list[Block]:
    """The blocks of statements directly inside ``st`` (a class's and a function's body too)."""
    if isinstance(st, (FuncDef, ClassDef)):
        return [st.body] if isinstance(st, FuncDef) else [st.defs]
    if isinstance(st, Block):
        return [st]
    if isinstance(st, IfStmt):
        return [*st.body, *([st.else_body] if st.else_body else [])]
    if isinstance(st, (ForStmt, WhileStmt)):
        return [st.body, *([st.else_body] if st.else_body else [])]
    if isinstance(st, WithStmt):
        return [st.body]
    if isinstance(st, TryStmt):
        extra = [b for b in (st.else_body, st.finally_body) if b is not None]
        return [st.body, *st.handlers, *extra]
    if isinstance(st, MatchStmt):
        return list(st.bodies)
    return []


class _Locals:
    """Every assignment to a local name of one function (not of the functions inside it),
    with the type of the value assigned, in source order."""

    def __init__(self, types: dict[Expression, Type]) -> None:
        self.types = types
        self.seen: list[tuple[Var, int, Type | None]] = []

    def walk(self, body: list[Statement]) -> None:
        for st in body:
            if isinstance(st, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)):
                continue  # checked on its own
            if isinstance(st, AssignmentStmt):
                value = self.types.get(st.rvalue)
                for lvalue in st.lvalues:
                    self._bind(lvalue, value, st.rvalue)
            elif isinstance(st, ForStmt):
                self._bind(st.index, st.inferred_item_type, None)
            elif isinstance(st, WithStmt):
                for target in st.target:  # (the value's type is __enter__'s: not looked at)
                    if target is not None:
                        self._bind(target, None, None)
            for block in _blocks(st):
                self.walk(block.body)

    def _bind(self, lvalue: Expression, value: Type | None, rvalue: Expression | None) -> None:
        if isinstance(lvalue, NameExpr):
            if lvalue.kind == LDEF and isinstance(lvalue.node, Var):
                self.seen.append((lvalue.node, lvalue.line, value))
        elif isinstance(lvalue, StarExpr):
            self._bind(lvalue.expr, None, None)
        elif isinstance(lvalue, (TupleExpr, ListExpr)):
            p = get_proper_type(value)
            items = rvalue.items if isinstance(rvalue, (TupleExpr, ListExpr)) else None
            for i, item in enumerate(lvalue.items):
                sub: Type | None = None
                part: Expression | None = None
                if items is not None and len(items) == len(lvalue.items):
                    part = items[i]
                    sub = self.types.get(part)
                elif isinstance(p, TupleType) and len(p.items) == len(lvalue.items):
                    sub = p.items[i]
                elif isinstance(p, AnyType):
                    sub = p
                self._bind(item, sub, part)


def findings(
    tree: MypyFile, types: dict[Expression, Type], native: frozenset[str]
) -> Iterator[tuple[int, str, str, str]]:
    """(line, function, name, text) of each local of ``tree``'s functions that compiled code checks
    (:func:`_checked`; ``native``: the compiled modules' names) assigned a value of another
    type than its first assignment's (``Any`` included)."""
    for func in _functions(tree.defs):
        walk = _Locals(types)
        walk.walk(func.body.body)
        first: dict[Var, Type | None] = {}
        for var, line, value in sorted(walk.seen, key=lambda s: s[1]):
            if var not in first:
                first[var] = var.type if var.type is not None else value
                continue
            declared = first[var]
            if value is None or not _checked(declared, native):
                continue
            p = get_proper_type(value)
            if isinstance(p, AnyType) or not is_subtype(value, declared):  # type: ignore[arg-type]
                yield (
                    line,
                    func.name,
                    var.name,
                    f"{var.name} {declared} <- {value} (in {func.name})",
                )


def check(paths: list[str], root: Path = ROOT) -> list[tuple[str, int, str, str, str]]:
    """(path, line, function, name, text) of each finding in the files ``paths`` (relative to
    ``root``, which holds their packages), in order; the classes of these files are taken as
    the compiled ones."""
    options = Options()
    options.python_version = (3, 11)
    options.check_untyped_defs = True
    options.export_types = True
    options.preserve_asts = True
    options.incremental = False
    options.cache_dir = os.devnull
    options.ignore_missing_imports = True
    options.follow_imports = "silent"
    sources = [
        build.BuildSource(str(root / p), p.removesuffix(".py").replace("/", ".")) for p in paths
    ]
    old = os.getcwd()
    os.chdir(root)
    try:
        result = build.build(sources, options)
    finally:
        os.chdir(old)
    out: list[tuple[str, int, str, str, str]] = []
    wanted = {str(root / p) for p in paths}
    native = frozenset(s.module for s in sources if s.module)
    for state in result.graph.values():
        if state.tree is None or state.xpath not in wanted:
            continue
        rel = os.path.relpath(state.xpath, root)
        out += [(rel, *found) for found in findings(state.tree, result.types, native)]
    return sorted(out)


# findings read and found sound (the value is always of the first assignment's type; the
# compiled build's tests run them): (path, function, name) -> why
ACCEPTED = {
    ("referee/engine/core.py", "_occupied", "found"): "each display.occupied refinement "
    "answers an int (Ruleset.occupied)",
    ("referee/engine/ruleset.py", "place_problems", "found"): "the geometry rules' "
    "placement_problems answers a list, as swap_problems does",
    ("referee/engine/stages.py", "legal_stage_lines", "who"): "Stage.players is a list",
    ("referee/notation/fast.py", "_walk", "items"): "x is a tuple there (type(x) is tuple)",
}


def main(argv: list[str]) -> int:
    """Print the findings not in :data:`ACCEPTED` (every one with ``--all``); 1 if any."""
    every = "--all" in argv
    paths = [a for a in argv if a != "--all"] or compiled_modules()
    left = 0
    for path, line, func, name, text in check(paths):
        why = ACCEPTED.get((path, func, name))
        if why is None:
            left += 1
            print(f"{path}:{line}: {text}")
        elif every:
            print(f"{path}:{line}: {text} [accepted: {why}]")
    return 1 if left else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
