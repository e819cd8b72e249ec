"""The Pacific Battles package imports in layers: no module imports itself back through
others, whether at the top or late (inside a function, to dodge the cycle at load time)."""

from __future__ import annotations

import ast
from pathlib import Path

import engine.games.pacific_battles as package

PACKAGE = package.__name__
ROOT = Path(package.__file__).parent


def _modules() -> dict[str, Path]:
    return {(f"{PACKAGE}.{p.stem}" if p.stem != "__init__" else PACKAGE): p for p in sorted(ROOT.glob("*.py"))}


def _imported(tree: ast.AST, here: str, modules: set[str]) -> set[str]:
    """The package's modules that ``here`` imports, at any depth of its code."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the package
                base = PACKAGE if node.level == 1 else PACKAGE.rsplit(".", node.level - 1)[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in modules and name.startswith(PACKAGE):
                name = name.rsplit(".", 1)[0]  # engine.games.pacific_battles.x.y -> its module
            if name in modules and name != here:
                out.add(name)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(ast.parse(path.read_text(), str(path)), name, set(modules))
            for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected group of modules (Tarjan), as a path
    that ends where it starts."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_path(graph, set(g)) for g in groups]


def _path(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle through the first module of ``group`` (breadth first)."""
    start = min(group)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & group):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [*reversed(path), start]
                if w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no cycle through {start}")  # cannot happen in a strongly connected group


def _short(name: str) -> str:
    return name.removeprefix(f"{PACKAGE}.")


def test_the_package_has_no_import_cycles() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(_short(m) for m in c) for c in found)


def test_the_checker_sees_late_imports_and_names_the_cycle() -> None:
    source = ("from engine.games.pacific_battles import b\n"
              "def f():\n    from engine.games.pacific_battles.a import x\n")
    mods = {f"{PACKAGE}.a", f"{PACKAGE}.b", PACKAGE}
    graph = {f"{PACKAGE}.a": _imported(ast.parse("import engine.games.pacific_battles.b.c"), f"{PACKAGE}.a", mods),
             f"{PACKAGE}.b": _imported(ast.parse(source), f"{PACKAGE}.b", mods), PACKAGE: set()}
    assert graph[f"{PACKAGE}.b"] == {f"{PACKAGE}.a"} and graph[f"{PACKAGE}.a"] == {f"{PACKAGE}.b"}
    assert [[_short(m) for m in c] for c in cycles(graph)] == [["a", "b", "a"]]
    graph[f"{PACKAGE}.b"] = set()
    assert cycles(graph) == []
