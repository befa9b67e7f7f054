"""The layers a newcomer reads in the README, checked from the code's own imports (standard library `ast`).

Every `import` and `from ... import` counts, at module level, inside a function, or under
`if TYPE_CHECKING:` (such an import never runs, but a reader and the type checker still follow it; none
is needed today). A package's __init__ is not counted as imported when one of its submodules is: only
the module an import statement names.
"""
from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "renderer")
# What may not appear below the front ends: network, databases, threads of the event loop, pictures.
IO_AND_DISCORD = ("discord", "aiosqlite", "sqlite3", "asyncpg", "sqlalchemy", "asyncio", "socket", "http",
                  "urllib", "aiohttp", "subprocess", "multiprocessing", "PIL")


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for package in PACKAGES for p in sorted((REPO / package).rglob("*.py"))}


def _imports(tree: ast.AST, package: str) -> list[str]:
    """Names imported anywhere in `tree`, resolved against `package`."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:   # relative: from the importing module's package
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from bot.domain import dice` imports the module bot.domain.dice;
            # `from bot.games.base import msg` bot.games.base.
            found += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    return found


@cache   # parsed once per session: the graph and each test read the same modules
def imports_of(name: str) -> frozenset[str]:
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return frozenset(_imports(ast.parse(path.read_text(encoding="utf-8")), package))


GRAPH = {name: {i for i in imports_of(name) if i in MODULES} for name in MODULES}


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_import_graph_has_no_cycle():
    state: dict[str, str] = {}   # "open" while on the path, "done" once all it imports is explored
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = "open"
        path.append(name)
        for target in sorted(GRAPH[name]):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[name] = "done"
        return None

    for name in sorted(GRAPH):
        if name not in state:
            cycle = visit(name)
            assert cycle is None, " -> ".join(cycle)


# The README's layer table, top to bottom, as the folders that hold each layer (test_the_table_is_the_readmes
# checks that the README says the same). A module belongs to the layer of the longest folder that holds it.
LAYERS = (
    ("Start-up", ("bot/__main__.py", "bot/app.py")),
    ("Operators' tools", ("bot/operations/", "bot/tools/")),
    ("Front ends", ("bot/cogs/", "bot/console/")),
    ("Words", ("bot/present/",)),
    ("Services", ("bot/services/",)),
    ("Computer players", ("bot/ai/",)),
    ("Pictures", ("renderer/",)),
    ("Domain helpers", ("bot/domain/",)),
    ("Rules", ("bot/games/",)),
    ("Store", ("bot/store/",)),
    ("Records and leaves", ("bot/core/",)),
)
# Arrows up the table that the README's "What it may import" column allows, each by name: the final board's
# result sentence, in words (bot/present/results.py), and renderer/sample.py, which draws docs/'s pictures with
# the words players read.
UPWARD = {("renderer", "bot.present.results"), ("renderer.sample", "bot.present")}
# No module over this many lines: a longer one holds several things, each worth a module of its own.
MAX_LINES = 400
# The rulesets' tables (data more than code) may be longer: none is today.
TABLES: tuple[str, ...] = ()


def _folder_module(folder: str) -> str:
    return folder.removesuffix("/").removesuffix(".py").replace("/", ".")


def layer_of(name: str) -> int:
    """The index in LAYERS of the layer `name` belongs to (the package `bot` itself: start-up's)."""
    found = [(len(folder), rank) for rank, (_, folders) in enumerate(LAYERS) for folder in folders
             if _within(name, _folder_module(folder))]
    return max(found)[1] if found else 0 if name == "bot" else -1


def test_every_module_belongs_to_a_layer():
    assert [name for name in MODULES if layer_of(name) < 0] == []


def test_the_table_is_the_readmes():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("\n## Architecture\n"):].split("\n## ", 2)[1]
    rows = [line.split(" | ") for line in table.splitlines() if line.startswith("| ")][1:]   # after the heading
    assert [row[0].removeprefix("| ") for row in rows] == [name for name, _ in LAYERS]
    for row, (name, folders) in zip(rows, LAYERS):
        assert all(f"`{folder}`" in row[1] for folder in folders), (name, row[1])


def test_each_layer_imports_only_its_own_and_lower_layers():
    """The README's table read from the top: a module imports modules of its own layer or of the layers below,
    never above (but for UPWARD's arrows)."""
    wrong = [(name, target) for name in MODULES for target in GRAPH[name]
             if layer_of(target) < layer_of(name)
             and not any(_within(name, low) and _within(target, high) for low, high in UPWARD)]
    assert wrong == []


def test_no_module_is_over_400_lines():
    over = {name: lines for name, path in MODULES.items()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES and name not in TABLES}
    assert over == {}


def test_nothing_imports_the_discord_layer_but_start_up():
    wrong = [(name, target) for name in MODULES if not _within(name, "bot.cogs") and name != "bot.app"
             for target in imports_of(name) if _within(target, "bot.cogs")]
    assert wrong == []


def test_only_start_up_wires_in_the_operators_tools():
    """bot/operations (the listener, health, what is watched of Discord, logs, `check`) is wired in by start-up
    alone; the layers count through bot.core.metrics, a leaf."""
    start_up = ("bot.app", "bot.__main__")
    wrong = [(name, target) for name in MODULES if not _within(name, "bot.operations") and name not in start_up
             for target in imports_of(name) if _within(target, "bot.operations")]
    assert wrong == []


# The front ends and the layers under them, from the top: what the session service and bot/present/ both
# read of a game (its ruleset and position, what a player sends, what a session call returns) lies below both.
FRONT_ENDS = ("bot.app", "bot.__main__", "bot.cogs", "bot.console")
ABOVE_THE_RECORDS = FRONT_ENDS + ("bot.present", "bot.services", "bot.store", "bot.store.schema")
BELOW_PRESENT_AND_SERVICES = ("bot.domain.positions", "bot.domain.player_actions", "bot.domain.session_results",
                              "bot.domain.retelling")


@pytest.mark.parametrize("package, forbidden", [
    ("bot.cogs", ("bot.store",)),                                   # the Discord layer calls services
    # The Discord layer's shared infrastructure (messages going out, events coming in) serves the commands and
    # never reaches up into one of them (nor, for the messages, into the parts that wire the commands in).
    ("bot.cogs.messages", ("bot.cogs.commands", "bot.cogs.parts")),
    ("bot.cogs.events", ("bot.cogs.commands",)),
    # Words for every front end, from the records the services return: neither the services nor the store.
    ("bot.present", ("discord",) + FRONT_ENDS + ("bot.services", "bot.store", "bot.store.schema")),
    ("bot.services", ("discord", "bot.cogs", "bot.present", "bot.console")),
    *((module, IO_AND_DISCORD + ABOVE_THE_RECORDS) for module in BELOW_PRESENT_AND_SERVICES),
    # Computer players think in worker processes (asyncio and multiprocessing allowed) over the rules alone: of
    # the bot's own modules, test_a_lower_layer_imports_only_the_modules_below_it says which.
    ("bot.ai", ("discord", "aiosqlite", "sqlite3", "asyncpg", "sqlalchemy", "PIL", "socket", "http", "aiohttp")),
    ("bot.games", IO_AND_DISCORD + ("bot.store", "bot.services", "bot.ai", "renderer")),
    ("renderer", ("discord", "bot.cogs", "bot.services", "bot.store")),
    ("bot.core.game_records", IO_AND_DISCORD + ("bot.store", "bot.store.schema", "bot.services")),   # plain data
    ("bot.core.metrics", IO_AND_DISCORD + ("bot", "renderer")),   # counted into by every layer: knows none
])
def test_a_layer_does_not_import_what_it_must_not_know(package, forbidden):
    # bot/games reads its static tables (board geometry) from files shipped with it: pathlib and json
    # are allowed there; a database, the network or discord are not.
    wrong = [(name, target) for name in MODULES if _within(name, package)
             for target in imports_of(name) if any(_within(target, f) for f in forbidden)]
    assert wrong == []


@pytest.mark.parametrize("package, allowed", [
    # Computer players: the rules, and the metrics they count into.
    ("bot.ai", ("bot.games", "bot.core.metrics")),
    # The store keeps records and knows no game: its tables, the records, the database out of reach (the one
    # error it raises), which shard a guild is on, the metrics. Nothing above it, nor the rules.
    ("bot.store", ("bot.core.game_records", "bot.core.outages", "bot.core.shards", "bot.core.metrics")),
    ("bot.store.schema", ()),
    # Records and leaves: the bottom of the house, reading nothing of it.
    ("bot.core", ()),
])
def test_a_lower_layer_imports_only_the_modules_below_it(package, allowed):
    """Of the bot's own modules, a lower layer imports only those listed (and its own): a new arrow up or
    sideways is a decision to make here, not a line slipped into an import block."""
    wrong = [(name, target) for name in MODULES if _within(name, package)
             for target in GRAPH[name] if not any(_within(target, a) for a in (package, *allowed))]
    assert wrong == []


def test_each_game_is_found_through_its_one_registration():
    """A game's ruleset class, listed once in bot.games.GAMES, names its board family and heuristic: the
    renderer and the computer players find them there."""
    import renderer
    from bot.ai.heuristics import GENERIC, Heuristic, heuristic_for, load
    from bot.games import GAMES, UnknownGame, get_ruleset

    for game in GAMES:
        ruleset = get_ruleset(game.id)
        assert type(ruleset) is game
        assert _within(game.board_family, "renderer") and game.board_family in MODULES, game.id
        plan = renderer.layout(ruleset, ruleset.new_game(game.min_players, {}, 1),
                               [renderer.PlayerTag(f"P{i}", c) for i, c in enumerate(ruleset.seat_colours(
                                   game.min_players, {}))])
        assert plan.of("piece"), game.id
        assert isinstance(heuristic_for(ruleset), Heuristic) and heuristic_for(ruleset) is not GENERIC, game.id
        assert heuristic_for(ruleset) is load(game.heuristic)
        # The computer players' deeper search and the call-out judge, where the game names them.
        for named in (game.hard_search, game.call_judge):
            assert named is None or callable(load(named)), (game.id, named)
        assert (game.call_judge is not None) == game.allows_cheating, game.id
    with pytest.raises(UnknownGame):
        get_ruleset("chess")


def test_no_table_outside_the_registration_is_keyed_by_game():
    """Nothing but bot/games keeps a dict keyed by game ids or a set of them (a second table to keep in step
    with the first when a game is added)."""
    from bot.games import GAME_IDS

    def names_games(node: ast.AST) -> bool:
        if isinstance(node, ast.Dict):   # one game's entry makes a table
            return any(isinstance(k, ast.Constant) and k.value in GAME_IDS for k in node.keys)
        if isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            return sum(isinstance(e, ast.Constant) and e.value in GAME_IDS for e in node.elts) >= 2
        return False

    wrong = [(name, node.lineno) for name, path in MODULES.items() if not _within(name, "bot.games")
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if names_games(node)]
    assert wrong == []
