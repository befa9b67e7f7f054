"""Barricade (Malefiz): board geometry, state and rules (tests/rules/barricade.md)."""
from bot.games.barricade.rules import Barricade

__all__ = ["Barricade"]
