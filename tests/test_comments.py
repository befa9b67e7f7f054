"""Comments true where they stand (issue 27): what a comment or docstring of bot/ and renderer/ names exists,
and it cites nothing a reader of the repository cannot open.

Figures and the commits that measured them live in docs/performance.md; the design's principles are said in
words, since the repository holds no design document to number them.
"""
from __future__ import annotations

import importlib
import io
import re
import tokenize

import pytest

from tests.test_layers import MODULES

# A module, function or class named by its dotted path: bot.history.entries, renderer.layout.
DOTTED = re.compile(r"(?<![\w.-])((?:bot|renderer)(?:\.[A-Za-z_]\w*)+)")
COMMIT = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
ELSEWHERE = re.compile(r"design(?:\.md)? principle|principle \d|design card", re.IGNORECASE)


def prose(name: str) -> list[tuple[int, str]]:
    """The comments and strings of a module, with their line numbers."""
    source = MODULES[name].read_text(encoding="utf-8")
    return [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type in (tokenize.COMMENT, tokenize.STRING)]


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
