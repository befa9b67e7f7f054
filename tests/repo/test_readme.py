"""The README a newcomer reads in five minutes: at most 200 lines, opening with what the bot does and the two
commands (after the Python version and a virtual environment), then a picture of a board, the games, a table of
every slash command and option, the settings and a table of layers; the long notes live in docs/, and every link
and path the README and docs/ name exists."""
import re
from pathlib import Path

import pytest

from bot.cogs.commands.game import GameCog
from bot.cogs.commands.stats import StatsCog

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end if end != -1 else len(README)]


def test_the_readme_is_read_in_five_minutes():
    assert README.count("\n") <= 200


def test_the_readme_opens_with_the_bot_the_two_commands_then_a_picture_and_the_commands():
    opening = README[:README.index("## ")]
    run, test = opening.index("python -m pip install -e . && python -m bot"), opening.index("python -m pytest")
    assert opening.index("Discord bot") < run < test
    assert "Python 3.11" in opening and opening.index("-m venv") < run, "the virtual environment comes first"
    picture = re.search(r"!\[[^\]]+\]\((docs/board\.png)\)", README)
    assert picture and len(opening) < picture.start() and (ROOT / picture.group(1)).is_file()
    assert README.index("## Commands") > picture.end()


@pytest.mark.parametrize("cog", [GameCog, StatsCog])
def test_every_slash_command_and_option_is_in_the_commands_table(cog):
    """The slash-command surface is a contract: each command has a row of the table naming it, and that row
    names each of its options as `option:`."""
    rows = [line.split(" | ")[0] for line in section("Commands").splitlines() if line.startswith("| `/")]
    group = getattr(cog, "__cog_group_name__", None) if getattr(cog, "__cog_is_app_commands_group__", False) else None
    for command in cog.__cog_app_commands__:
        name = f"/{group} {command.name}" if group else f"/{command.name}"
        row = [r for r in rows if re.search(re.escape(name) + r"[ `]", r)]
        assert len(row) == 1, f"{name}: {len(row)} rows of the README's Commands table name it"
        missing = [p.name for p in command.parameters if f"{p.name}:" not in row[0]]
        assert missing == [], f"{name}: the table names no {missing}"


def test_the_commands_table_cells_are_one_or_two_sentences():
    for line in section("Commands").splitlines():
        if line.startswith("| `/"):
            said = re.sub(r"`[^`]*`|\([^)]*\)", "", line.split(" | ", 1)[1].rstrip(" |"))
            assert said.count(". ") + 1 <= 2, line


def test_the_layer_table_names_every_package_and_only_files_that_exist():
    """The architecture is a table of layers, not a hand-kept tree of modules: every package of bot/ (and the
    renderer) has its row, and each path a row names exists."""
    rows = [line.split(" | ")[1] for line in section("Architecture").splitlines() if line.startswith("| ")][1:]
    named = re.findall(r"`([^`]+)`", " ".join(rows))
    assert named and all((ROOT / path).exists() for path in named if "…" not in path), named
    packages = {f"{p.parent.relative_to(ROOT)}/" for p in (ROOT / "bot").glob("*/__init__.py")} | {"renderer/"}
    assert packages <= set(named)
    assert "tests/repo/test_layers.py" in section("Architecture") and "```" not in section("Architecture")


def test_every_registered_game_has_its_row_in_the_games_table():
    """docs/adding-a-game.md, step 8: each game in GAMES has a row naming its id, and only those."""
    from bot.games import GAME_IDS
    named = re.findall(r"^\| [^|]+\(`([a-z-]+)`\) \|", section("The games"), flags=re.M)
    assert named == list(GAME_IDS)


def test_performance_figures_are_in_docs_behind_a_link():
    assert "docs/performance.md" in README
    notes = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "## Headline figures" in notes
    assert "python -m tests.benchmarks" in notes and "ludopy" in notes


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_and_path_a_page_names_exists(page):
    text = page.read_text(encoding="utf-8")
    links = [m.split("#")[0] for m in re.findall(r"\]\(([^)\s]+)\)", text)]
    missing = [link for link in links if link and not link.startswith(("http://", "https://"))
               and not (page.parent / link).exists()]
    paths = [p.split(":")[0].rstrip(".,:") for p in re.findall(r"`((?:bot|renderer|tests|docs|data)/[^`\s<*]*)`", text)]
    missing += [path for path in paths if not (ROOT / path).exists()]
    assert missing == []
