"""The parts of the session service and the arrows between them, as bot/services/__init__.py's docstring draws
them: each part holds the parts it calls, and nothing else of the service."""
import re

import bot.services
from bot.services import Sessions


def drawn() -> dict[str, set[str]]:
    """The docstring's arrows: `a, b -> c, d` says that parts a and b each hold c and d."""
    arrows: dict[str, set[str]] = {}
    for line in (bot.services.__doc__ or "").splitlines():
        if (arrow := re.fullmatch(r"  ([\w, ]+) -> ([\w, ]+)", line)) is not None:
            for part in arrow[1].split(", "):
                arrows[part] = set(arrow[2].split(", "))
    return arrows


async def test_the_docstring_draws_each_part_on_the_parts_it_holds(store):
    sessions = Sessions(store)
    parts = {name: part for name, part in vars(sessions).items() if part is not store}
    named = {id(part): name for name, part in parts.items()} | {id(store): "store"}
    held = {name: {named[id(value)] for value in vars(part).values() if id(value) in named}
            for name, part in parts.items()}
    assert held == drawn()
