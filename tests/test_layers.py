"""The architecture, checked: layers without cycles, and one write path per change.

* ``engine`` <- ``league`` <- ``matches`` <- ``web`` <- ``config``: imports only go down (from a higher app to a
  lower one), there is no import cycle between modules of league/, matches/, web/ or config/, and an import
  inside a function needs a reason (listed below). Built here with ``ast`` (imports inside functions count),
  and with the import-linter contracts of pyproject.toml (``lint-imports``).
* Views, API views, serializers, forms, the admin, template tags and management commands never write rows
  themselves (``save``, ``create``, ``update``, ``delete``... on a model, a queryset or a relation) nor bump the
  cache (``tournament_changed``): they call the services.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("engine", "league", "matches", "web", "config")  # lowest first
RANK = {app: rank for rank, app in enumerate(APPS)}
CHECKED_FOR_CYCLES = ("engine", "league", "matches", "web", "config")

# Imports inside functions that are there for a reason other than hiding a cycle.
ALLOWED_INNER_IMPORTS = {
    # An AppConfig's ready() runs once the models are loaded: the module itself is imported before that.
    ("league/apps.py", "league"),
    ("matches/apps.py", "league"),
    ("matches/apps.py", "matches"),
}


def _modules() -> dict[str, Path]:
    modules = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    return modules


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str, path: Path) -> list[tuple[str, bool, int]]:
    """(imported module of ours, inside a function?, line) for every import statement of a module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    inner = {id(node) for func in ast.walk(tree) if isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef)
             for node in ast.walk(func)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            resolved = _resolve(target)
            if resolved and resolved != module and not resolved.startswith(module + "."):
                found.append((resolved, id(node) in inner, node.lineno))
    return found


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def _app(module: str) -> str:
    return module.split(".")[0]


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_in_the_apps():
    graph = {m: {t for t, _inner, _line in GRAPH[m] if _app(t) in CHECKED_FOR_CYCLES}
             for m in MODULES if _app(m) in CHECKED_FOR_CYCLES}
    assert _cycles(graph) == []


def test_imports_only_go_down_the_layers():
    upward = [f"{MODULES[m].relative_to(ROOT)}:{line} imports {t}" for m, imports in GRAPH.items()
              for t, _inner, line in imports if RANK[_app(t)] > RANK[_app(m)]]
    assert upward == [], "engine <- league <- matches <- web <- config"


def test_imports_inside_functions_have_a_reason():
    inner = [(str(MODULES[m].relative_to(ROOT)), t, line) for m, imports in GRAPH.items()
             for t, is_inner, line in imports if is_inner]
    unexplained = [f"{path}:{line} imports {t}" for path, t, line in inner
                   if (path, _app(t)) not in ALLOWED_INNER_IMPORTS]
    assert unexplained == [], "import at the top of the module (a cycle is a design problem, not hidden)"


def test_import_linter_contracts():
    pytest.importorskip("importlinter")
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert command, "import-linter is in requirements/test.txt"
    run = subprocess.run([command, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


# -- one write path ------------------------------------------------------------------------------------------

# Modules that take input and must hand every write to a service.
ENTRY_POINTS = [
    "league/views.py", "league/api.py", "league/serializers.py", "league/forms.py", "league/admin.py",
    "league/event_api.py", "league/event_forms.py",
    "league/pages.py", "league/templatetags", "league/management",
    "matches/views.py", "matches/api.py", "matches/simulation_api.py", "matches/simulation_views.py",
    "matches/forms.py", "matches/admin.py", "matches/templatetags", "matches/management",
    "web", "config",
]
# Methods that write: on anything (``x.save()``), or on a manager, queryset or relation (``X.objects.create``).
ALWAYS_WRITES = {"save", "delete", "bulk_create", "bulk_update", "get_or_create", "update_or_create"}
MANAGER_WRITES = {"create", "update", "add", "set", "remove", "clear"}
QUERYSET_HINTS = ("objects", "filter(", "exclude(", "all(", "organisers", "entries", "fixtures", "pools",
                  "seats", "actions", "_set")
CACHE_BUMPS = {"tournament_changed", "forget_tournament"}
# Receivers that are not rows: the cache, the session, files.
NOT_ROWS = ("cache", "session", "response", "self.stdout")


def _entry_files() -> list[Path]:
    files = []
    for entry in ENTRY_POINTS:
        path = ROOT / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [f for f in files if "migrations" not in f.parts]


def _writes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in CACHE_BUMPS:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}()")
            continue
        if not isinstance(func, ast.Attribute):
            continue
        receiver = ast.unparse(func.value)
        if any(receiver == r or receiver.endswith("." + r) for r in NOT_ROWS):
            continue
        if name in ALWAYS_WRITES or (name in MANAGER_WRITES and any(h in receiver for h in QUERYSET_HINTS)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {receiver}.{name}()")
    return found


def test_views_api_admin_and_commands_write_only_through_services():
    writes = [w for path in _entry_files() for w in _writes(path)]
    assert writes == [], "call a service (league.services, matches.services, matches.simulation) instead"


def test_the_write_check_sees_writes():
    source = ("def view(request, t):\n    t.save()\n    Tournament.objects.filter(pk=1).update(name='x')\n"
              "    t.organisers.add(request.user)\n    tournament_changed(t)\n    cache.delete('k')\n"
              "    data.update(x=1)\n")
    path = ROOT / "var" / "write_check_sample.py"
    path.parent.mkdir(exist_ok=True)
    path.write_text(source)
    try:
        assert [w.split(" ", 1)[1] for w in _writes(path)] == [
            "t.save()", "Tournament.objects.filter(pk=1).update()", "t.organisers.add()", "tournament_changed()"]
    finally:
        path.unlink()
