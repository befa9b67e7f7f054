"""The README opens with what the bot does and the two commands, then the Python version and a
virtual environment, a picture of a board and the commands; the performance notes live in
docs/performance.md behind a short table."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_opens_with_the_bot_the_two_commands_then_a_picture_and_the_commands():
    opening = README[:README.index("## ")]
    run, test = opening.index("python -m pip install -e . && python -m bot"), opening.index("python -m pytest")
    assert opening.index("Discord bot") < run < test
    assert "Python 3.11" in opening and opening.index("-m venv") < run, "the virtual environment comes first"
    picture = re.search(r"!\[[^\]]+\]\((docs/board\.png)\)", opening)
    assert picture and test < picture.start() and (ROOT / picture.group(1)).is_file()
    assert README.index("## Commands") > picture.end()


def test_performance_notes_are_in_docs_behind_a_short_table():
    section = README[README.index("## Performance"):]
    assert "docs/performance.md" in section and section.count("\n|") <= 8
    notes = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    assert "python -m tests.benchmarks" in notes and "ludopy" in notes
