"""docs/architecture.md, the newcomer's map: its layout sketch names every package folder, every `file:symbol` it
names resolves to a function, class or method of that file, and no sentence runs over 40 words."""
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SYMBOL = re.compile(r"`((?:bot|renderer)/[\w/]+\.py):([\w.]+)`")
MAX_WORDS = 40


def _module(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def test_every_file_and_symbol_the_page_names_exists():
    named = SYMBOL.findall(PAGE)
    assert len(named) >= 20, "the hops name their file:function"
    missing = []
    for path, qualified in named:
        assert (ROOT / path).is_file(), path
        found: object = importlib.import_module(_module(path))
        for part in qualified.split("."):
            found = getattr(found, part, None)
        if not callable(found):
            missing.append(f"{path}:{qualified}")
    assert missing == []


def test_the_hops_of_a_click_and_of_a_deadline_are_numbered_and_pictured():
    for title in ("## The hops of a click", "## The hops of a deadline"):
        section = PAGE[PAGE.index(title):].split("\n## ", 1)[0]
        steps = re.findall(r"^(\d+)\. .*`(?:bot|renderer)/", section, flags=re.M)
        assert [int(n) for n in steps] == list(range(1, len(steps) + 1)) and len(steps) >= 5, title
        assert "```mermaid\nsequenceDiagram" in section, title


def test_the_layout_sketch_has_one_line_per_package_folder():
    sketch = PAGE[PAGE.index("## The layout"):].split("```text\n", 1)[1].split("```", 1)[0]
    folders = {line.split()[0].rstrip(",") for line in sketch.splitlines() if line.strip()}
    packages = {f"{p.parent.relative_to(ROOT).as_posix()}/" for root in ("bot", "renderer")
                for p in (ROOT / root).rglob("__init__.py")} - {"bot/"}
    assert packages - folders == set()


def test_no_sentence_is_over_40_words():
    prose = re.sub(r"```.*?```", "", PAGE, flags=re.S)
    sentences = [s for line in prose.splitlines() for s in re.split(r"(?<=[.:;!?])\s+(?=[A-Z`(])", line)]
    long = [s for s in sentences if len(s.split()) > MAX_WORDS]
    assert long == []
