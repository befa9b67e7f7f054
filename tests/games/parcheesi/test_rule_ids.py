"""Every rule and example ID of the Parcheesi rules files is cited by a test."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.rules import rules_text

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("rules_file,prefix,tests", [
    ("parcheesi-mundijeux.md", "PM", ("test_mundijeux.py", "test_mundijeux_properties.py")),
    ("parcheesi-classic.md", "PC", ("test_classic.py", "test_classic_properties.py")),
])
def test_every_rule_and_example_is_cited(rules_file, prefix, tests):
    ids = set(re.findall(rf"\*\*({prefix}-(?:\d+\.\d+|EX-\d+))\b", rules_text(rules_file)))
    assert len(ids) > 30 and any("EX" in i for i in ids)
    cited = "\n".join((HERE / name).read_text(encoding="utf-8") for name in tests)
    missing = sorted(i for i in ids if not re.search(re.escape(i) + r"(?![\d.]\d)", cited))
    assert not missing, f"rule IDs cited by no test: {missing}"
