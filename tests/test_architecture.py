"""The engine in layers, and the narrator without circles or characters. Every import of the project's modules is read from their source — at the top,
inside functions, under TYPE_CHECKING alike — and the registry's loads of the characters are counted as imports:
no circle in engine/, each module importing only from its own layer or those below, nothing but engine/__init__
and the strategies importing engine.game; and nothing outside engine/state.py writes the village's state."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine.types", "engine.contract"),
    ("engine.order", "engine.table"),
    ("engine.state",),
    ("engine.role",),
    ("engine.playing",),
    ("engine.answers", "engine.deaths", "engine.votes", "engine.victory", "engine.sheriff", "engine.crier",
     "engine.village", "engine.variants", "engine.events"),
    ("engine.roles.*",),
    ("engine.roles", "engine.calls"),
    ("engine.game",),
    ("engine", "engine.strategy"),
)
"""types → table → state → role → playing → rules → roles → registry → game → the package and the strategies."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sources(*folders: str) -> dict[str, Path]:
    """Returns every module under ``folders`` by its dotted name."""
    found = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Returns the project's modules ``name`` imports, wherever in the file (functions, TYPE_CHECKING)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            stem = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            # "from . import deaths" imports the module engine.deaths; "from .roles import ROLES" the package.
            targets = [f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def engine_graph() -> dict[str, set[str]]:
    modules = sources("engine")
    known = set(modules)
    graph = {name: imports(name, path, known) for name, path in modules.items()}
    # The registry loads every character's module by listing its folder: an import all the same.
    graph["engine.roles"] |= {name for name in modules if name.startswith("engine.roles.")}
    return graph


def layer(name: str) -> int:
    for i, names in enumerate(LAYERS):
        if name in names or (name.startswith("engine.roles.") and "engine.roles.*" in names):
            return i
    raise AssertionError(f"{name} belongs to no layer: add it to LAYERS")


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Returns the strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_engine_has_no_import_circle() -> None:
    assert circles(engine_graph()) == []


def narrator_graph() -> dict[str, set[str]]:
    """Every narrator module's imports of the project's modules (the engine's by their module, a character's too)."""
    modules = sources("engine", "narrator")
    known = set(modules)
    return {name: imports(name, path, known) for name, path in modules.items() if name.startswith("narrator")}


def test_the_narrator_has_no_import_circle_lazy_imports_included() -> None:
    """A circle hidden behind an import inside a function is a circle all the same: the two modules cannot be
    read, tested or moved one without the other."""
    assert circles(narrator_graph()) == []


def test_the_narrator_imports_no_character() -> None:
    """What the narrator needs of a character comes through the engine's declared contract (facts, calls'
    traits, badges, what is revealed at the end, table keys), so that adding a character is its module and its
    lines: never a narrator module that names it."""
    characters = [f"{name} imports {target}" for name, targets in narrator_graph().items()
                  for target in sorted(targets) if target.startswith("engine.roles.")]
    assert characters == []


def test_only_the_command_line_reads_argparse() -> None:
    """Below the command line (cli.py and commands/), a module takes typed options (play.ResumeOptions,
    simulate.SimulateOptions), never the Namespace: what it is told is declared, and it can be called without a
    parser."""
    readers = []
    for name, path in sources("narrator").items():
        if name == "narrator.cli" or name.startswith("narrator.commands"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            readers += [name for target in targets if target.partition(".")[0] == "argparse"]
    assert readers == []


def test_the_circle_finder_finds_one() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_engine_module_imports_only_from_its_layer_or_below() -> None:
    upward = [f"{name} ({layer(name)}) imports {target} ({layer(target)})"
              for name, targets in engine_graph().items() for target in sorted(targets)
              if layer(target) > layer(name)]
    assert upward == []


def test_only_the_package_and_the_strategies_import_the_game() -> None:
    modules = sources("engine", "narrator", "scripts", "tests")
    known = set(modules)
    importers = sorted(name for name, path in modules.items() if "engine.game" in imports(name, path, known))
    assert importers == ["engine", "engine.strategy"]


def test_the_registry_is_counted_as_importing_every_character() -> None:
    graph = engine_graph()
    assert {"engine.roles.witch", "engine.roles.cupid"} <= graph["engine.roles"]
    assert "engine.roles" not in graph["engine.roles.thief"]  # a character never reads the registry


# -- one owner for the state -------------------------------------------------------------------------------------

BAGS = re.compile(r"\b(game|self|state|play)\.(used|links|counters|choices)\b|\btonight\s*(\[|\.get\()")
"""The string-keyed bags the state had before it was typed."""

WRITES = re.compile(
    r"\.alive\s*=[^=]|\.marks\s*(\.(add|discard|remove|clear|update|pop)\(|[|&-]?=[^=])|\bgame\._living\s*="
    r"|\.version\s*(\+|-)?=[^=]|\._sides_version|\.(sheriff|penalty|phase|number|night|tonight)\s*=[^=]"
    r"|\.(eliminated|centre|middle)\s*(\.(append|extend|pop|remove|clear)\(|\[[^]]*\]\s*=[^=])"
    r"|\.(tokens|spent|lent)\s*(\.(add|discard|pop|clear|update|setdefault)\(|\[[^]]*\]\s*=[^=])"
    r"|\._kept\b")
"""Direct writes to the village's state: the living set, the marks, the caches' counters, the offices, the night."""


def offenders(pattern: re.Pattern[str], folders: tuple[str, ...], allowed: tuple[str, ...]) -> list[str]:
    found = []
    for name, path in sources(*folders).items():
        if name in allowed:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if pattern.search(code) and not code.lstrip().startswith(('"', "'")):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_string_keyed_state_bag_is_left_outside_the_state() -> None:
    assert offenders(BAGS, ("engine", "narrator"), ("engine.state",)) == []


def test_nothing_outside_the_state_writes_it() -> None:
    assert offenders(WRITES, ("engine", "narrator", "scripts"), ("engine.state",)) == []


@pytest.mark.parametrize("line", [
    "game.players[2].alive = False", "player.marks.add('infected')", "game._living = None", "game.version += 1",
    "game.sheriff = 3", "game.tonight = {}", "game.eliminated.append(e)", "game.tokens[5] = 'vagabond'",
    "game.spent.add(seat)", "game.lent.clear()", "game.centre[0] = 'thief'", "game.penalty = True",
    "game._kept[Potions] = Potions()"])
def test_the_grep_catches_each_kind_of_write(line: str) -> None:
    assert WRITES.search(line)


@pytest.mark.parametrize("line", ["game.used.add('fox')", 'game.links["lovers"]', 'game.tonight["victim"] = 4',
                                  'game.tonight.get("pack", ())', "game.counters.pop('x')", "game.choices.get(k)"])
def test_the_grep_catches_each_bag(line: str) -> None:
    assert BAGS.search(line)


@pytest.mark.parametrize("line", ["if game.sheriff == seat:", "game.appoint(None)", "seat in game.tonight.doomed",
                                  "game.kept(Potions).heal", "alive = game.alive(seat)"])
def test_the_grep_lets_reads_and_the_states_methods_pass(line: str) -> None:
    assert not WRITES.search(line) and not BAGS.search(line)


# -- sizes a reader can hold -------------------------------------------------------------------------------------

MODULE_LINES = 600
CLASS_LINES = 400


def test_no_module_is_over_600_lines_and_no_class_over_400() -> None:
    """A module a reader takes in at one sitting: past these, it is several things in one file (the narrator's
    play.py, asking.py, cli.py and config.py were, until they were split by what they do; and scripts/bench_voice.py,
    whose parts are now in scripts/voicebench/)."""
    over = []
    for name, path in sources("engine", "narrator", "scripts").items():
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > MODULE_LINES:
            over.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                size = node.end_lineno - node.lineno + 1
                if size > CLASS_LINES:
                    over.append(f"{name}.{node.name}: {size} lines")
    assert over == []


def test_every_package_is_installed() -> None:
    """pyproject.toml lists the packages (setuptools does not look for them): one left out works in a checkout
    and is missing from an install."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    packages = {module_name(path.parent) for folder in ("engine", "narrator")
                for path in (ROOT / folder).rglob("__init__.py")}
    assert packages == listed

