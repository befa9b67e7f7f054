"""Comments true where they stand: what a comment or docstring of bot/ and renderer/ names exists,
and it cites nothing a reader of the repository cannot open: no commit, no issue number, no folder outside the
repository (the rules are cited by their copy, tests/rules/, and their rule IDs), in the tests too.

Figures and the commits that measured them live in docs/performance.md; the design's principles are said in
words, since the repository holds no design document to number them.
"""
from __future__ import annotations

import importlib
import io
import re
import tokenize
from functools import cache
from pathlib import Path

import pytest

from tests.repo.test_layers import MODULES

# A module, function or class named by its dotted path: bot.domain.retelling.entries, renderer.layout.
DOTTED = re.compile(r"(?<![\w.-])((?:bot|renderer)(?:\.[A-Za-z_]\w*)+)")
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
ELSEWHERE = re.compile(r"design(?:\.md)? principle|principle \d|design card", re.IGNORECASE)
# An issue cited by its number, or a folder outside the repository (such as the rules owner's shared folder).
OUTSIDE = re.compile(r"\bissues? ?#?\d+|(?<![\w&])#\d+\b|\.\./shared|/work/", re.IGNORECASE)
REPO = Path(__file__).resolve().parents[2]
# The copy's own check names the folder it copies: that folder is its subject.
ABOUT_THE_COPY = {"tests/rules/__init__.py", "tests/repo/test_rules_copy.py"}


@cache   # tokenized once, for the two tests that read each module
def prose(name: str) -> tuple[tuple[int, str], ...]:
    """The comments and strings of a module, with their line numbers."""
    source = MODULES[name].read_text(encoding="utf-8")
    return tuple((token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
                 if token.type in (tokenize.COMMENT, tokenize.STRING))


def resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


@pytest.mark.parametrize("name", sorted(MODULES))
def test_what_a_comment_names_exists(name):
    wrong = [(line, dotted) for line, text in prose(name) for dotted in DOTTED.findall(text) if not resolves(dotted)]
    assert wrong == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_comments_cite_no_commit_and_no_numbered_principle(name):
    wrong = [(line, text.strip()[:80]) for line, text in prose(name) if text.startswith("#") or '"""' in text
             if COMMIT.search(text) or ELSEWHERE.search(text)]
    assert wrong == []


def comments_of(path: Path) -> list[tuple[int, str]]:
    source = path.read_text(encoding="utf-8")
    return [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT or token.type == tokenize.STRING and token.string.endswith('"""')]


@pytest.mark.parametrize("folder", ["bot", "renderer", "tests"])
def test_comments_cite_no_issue_number_and_no_folder_outside_the_repository(folder):
    wrong = [(str(path.relative_to(REPO)), line, text.strip()[:80])
             for path in sorted((REPO / folder).rglob("*.py")) if str(path.relative_to(REPO)) not in ABOUT_THE_COPY
             for line, text in comments_of(path) if OUTSIDE.search(text)]
    assert wrong == []
