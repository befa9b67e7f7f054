"""tests/rules/ is the rules owner's ../shared/rules, word for word."""
from pathlib import Path

import pytest

from tests.rules import RULES

SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules"


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is not on this machine (the copy stands in for it)")
def test_the_copy_of_the_rules_files_is_up_to_date():
    shared = {p.name: p.read_text(encoding="utf-8") for p in SHARED.glob("*.md")}
    copied = {p.name: p.read_text(encoding="utf-8") for p in RULES.glob("*.md")}
    assert copied == shared, "copy ../shared/rules/*.md into tests/rules/"
