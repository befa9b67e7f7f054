"""The board PNG with its legend, and the animated GIF of a finished game: CPU-bound and discord-free.

Boards are drawn one at a time in ONE thread (`draw`): the drawing holds the GIL most of the time, and
each thread that wants it takes turns with the event loop (5 ms each), so a pool of drawing threads
would leave the loop a fraction of the CPU and acknowledgements would wait behind it.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bot.core.game_records import GameRecord, LoggedAction
from bot.domain import timeline
from bot.domain.positions import position, ruleset_of
from bot.present.words import seat_name
from renderer import PlayerTag, render_png
from renderer.animation import animate

_drawing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-picture")


async def draw(record: GameRecord, locale: str | None = None, focus: str | None = None,
               traced: Sequence[Any] = ()) -> bytes:
    """`picture` in the drawing thread, so the event loop keeps answering."""
    return await asyncio.get_running_loop().run_in_executor(_drawing, picture, record, locale, focus, traced)


def picture(record: GameRecord, locale: str | None = None, focus: str | None = None,
            traced: Sequence[Any] = ()) -> bytes:
    """The board PNG with its legend (the bot calls it through `draw`, the terminal directly).
    `traced`: the positions since the player to move last played (Timelines.since_turn), whose moves
    are traced."""
    loc = locale or record.locale
    ruleset, state = position(record)
    return render_png(ruleset, state, players_of(record, loc), loc, focus, traced)


def players_of(record: GameRecord, locale: str) -> list[PlayerTag]:
    """The seats as the picture names them (in `locale`), the player to move marked."""
    ruleset, state = position(record)
    to_move = ruleset.to_move(state) if record.status == "active" else None
    colours = ruleset.seat_colours(len(record.seats), record.options)
    return [PlayerTag(seat_name(record, i, locale), colours[i], to_move == i) for i in range(len(record.seats))]


def animation_gif(record: GameRecord, actions: list[LoggedAction], stop: Callable[[], bool]) -> bytes:
    """The animation of the whole game (slow: call it in a thread); renderer.animation.Stopped once `stop()`
    says so."""
    ruleset = ruleset_of(record)
    states = [timeline.setup(ruleset, record)] + [s.after for s in timeline.steps(ruleset, record, actions)]
    names = [seat_name(record, i, record.locale) for i in range(len(record.seats))]
    colours = ruleset.seat_colours(len(record.seats), record.options)
    return animate(ruleset, states, names, colours, record.locale, stop=stop)
