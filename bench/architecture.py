"""The import graph and size of the apps: cyclic components, imports inside functions, upward imports, lines.

    .venv/bin/python bench/architecture.py [-v]

The same method as the figures of issue 13: imports inside functions count (they are imports all the same);
upward means league importing matches or web, matches importing web, or engine importing anything of ours
that is not engine. Lines: the .py and .html files of league/, matches/, web/, engine/, config/, templates/
and static/, migrations left out. Run from the repository's root.
"""

from __future__ import annotations

import ast
import pathlib
import sys

ROOTS = ("league", "matches", "engine", "config", "web", "site_pages")
LOWER = {"engine": ("engine",), "league": ("engine", "league"), "matches": ("engine", "league", "matches")}


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in pathlib.Path(".").rglob("*.py"):
        if path.parts[0] in ROOTS and "migrations" not in path.parts:
            name = ".".join(path.with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def graph(mods: dict[str, pathlib.Path]) -> tuple[dict[str, set[str]], list[tuple[str, int, str]]]:
    def resolve(name: str) -> str:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name

    edges: dict[str, set[str]] = {m: set() for m in mods}
    inner = []
    for m, path in mods.items():
        package = m if path.name == "__init__.py" else m.rpartition(".")[0]
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                inner += [(str(path), n.lineno, ast.unparse(n)) for n in ast.walk(func)
                          if isinstance(n, ast.Import | ast.ImportFrom)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            else:
                continue
            for target in targets:
                r = resolve(target)
                if r and r != m and not r.startswith(m + "."):
                    edges[m].add(r)
    return edges, inner


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def main() -> None:
    verbose = "-v" in sys.argv
    mods = modules()
    edges, inner = graph(mods)
    print("modules", len(mods))
    found = cycles(edges)
    print("cyclic components", len(found))
    for component in found:
        print("  ", len(component), component)
    print("imports inside functions", len(inner))
    if verbose:
        for item in inner:
            print("  ", *item)
    upward = [(m, t) for m, ts in edges.items() for t in ts
              if m.split(".")[0] in LOWER and t.split(".")[0] not in LOWER[m.split(".")[0]]]
    print("upward imports", len(upward))
    for item in upward:
        print("  ", item)
    lines = 0
    for folder in ("league", "matches", "web", "engine", "config", "templates", "static"):
        for path in pathlib.Path(folder).rglob("*"):
            if path.suffix in (".py", ".html") and "migrations" not in path.parts:
                lines += len(path.read_text().splitlines())
    print("lines", lines)


if __name__ == "__main__":
    main()
