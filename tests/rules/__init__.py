"""The rules files the tests cite (a copy of ../shared/rules, the rules owner's files).

The copy lets the tests that check rule IDs and board geometry run in any clone, CI included;
tests/repo/test_rules_copy.py fails when it differs from ../shared/rules wherever that folder exists.
"""
from pathlib import Path

RULES = Path(__file__).resolve().parent


def rules_text(name: str) -> str:
    """The text of one rules file, e.g. rules_text("pariti.md")."""
    return (RULES / name).read_text(encoding="utf-8")
