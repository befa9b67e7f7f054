"""The fair-dice announcements and the animation, after every publish (bot/cogs/messages/publisher.py).

The seed's commitment goes out when a game starts, the seed itself when the game is over, and then the animation
(a GIF) is added to the final board, built in a thread. It is optional: a stop (SIGTERM) leaves it undrawn rather
than wait for it (`stop_animations`); the final board, already stored and shown, stays as it is.
"""
from __future__ import annotations

import asyncio
import logging
import threading

import discord

from bot.cogs.messages.components import png_file
from bot.cogs.messages.delivery import Via
from bot.domain.session_results import Outcome
from bot.domain.verify import OVER
from bot.present.alt_text import animation_alt, board_alt
from bot.present.history import fair_dice_text
from bot.present.picture import animation_gif, draw
from bot.services import GameRecord, Sessions
from renderer.animation import Stopped

log = logging.getLogger(__name__)


class Announcer:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self._animations: set[asyncio.Task[None]] = set()   # running builds (a task needs a strong reference)
        self._stopping = threading.Event()   # read by the drawing thread between frames

    async def announce(self, outcome: Outcome, via: Via) -> None:
        """The commitment when the game starts; the seed and the animation once it is over (through `via`, as
        the board)."""
        record = outcome.record
        if record.state is None:
            return
        quiet = discord.AllowedMentions.none()
        if any(event.key == "game.started" for event in outcome.events):
            await via.send(fair_dice_text(record, over=False), files=[], mentions=quiet)
        elif record.status in OVER:
            await via.send(fair_dice_text(record, over=True), files=[], mentions=quiet)
            task = asyncio.create_task(self._add_animation(record, via))
            self._animations.add(task)
            task.add_done_callback(self._animations.discard)

    def stop_animations(self) -> set[asyncio.Task[None]]:
        """The bot stops: the animations being drawn end at their next frame (left undrawn), and no other
        starts. Seconds of CPU each, they would otherwise hold the exit (the loop waits for its threads).
        The tasks still ending."""
        self._stopping.set()
        return set(self._animations)

    async def _add_animation(self, record: GameRecord, via: Via) -> None:
        """Attach the animation to the final board (next to its picture), through the token of the
        interaction that showed it while it lasts."""
        if self._stopping.is_set():   # a game that ended while the bot stops (its last interactions answered)
            return
        try:
            actions = await self.sessions.records.actions(record.id)
            board_id = await self.sessions.boards.message(record.id)
            if not actions or board_id is None:
                return
            log.info("drawing the animation of game %s (%d actions)", record.id, len(actions))
            gif = await asyncio.to_thread(animation_gif, record, actions, self._stopping.is_set)
            board = await draw(record)
            await via.edit(board_id, attachments=[png_file(board, board_alt(record)),
                                                  png_file(gif, animation_alt(record, len(actions)), "replay.gif")])
        except Stopped:
            log.info("the animation of game %s is left undrawn: the bot is stopping", record.id)
        except Exception:
            log.exception("could not add the animation of game %s", record.id)
