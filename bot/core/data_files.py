"""The files shipped with the bot: the repository's data/ folder (boards, fonts, translations),
installed as the package `tablero_data` (setup.py) and read through importlib.resources, so that
a checkout, an editable install and a wheel find them alike."""
from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable


def data_file(*parts: str) -> Traversable:
    """data/<parts...>, e.g. data_file("boards", "cross68.json")."""
    found = files("tablero_data")
    for part in parts:
        found = found / part
    return found
