"""The tasks answering interactions, each registered by our own entry points: the command tree's check, which
runs first in the task that runs a slash command, and the controls' listener (GameEvents.on_interaction). Shutdown
(bot/app.py) waits for them, through public means only (asyncio.current_task, the tree's interaction_check)."""
from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands


class Answering:
    """The tasks answering interactions now."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def track_current(self) -> None:
        """The running task answers an interaction: kept until it ends."""
        task = asyncio.current_task()
        if task is not None and task not in self._tasks:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def pending(self) -> list[asyncio.Task[Any]]:
        return [task for task in self._tasks if not task.done()]


class AnsweringTree(app_commands.CommandTree[Any]):
    """The command tree, counting each command's task among those answering interactions (`answering`)."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        self.answering = Answering()

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        self.answering.track_current()
        return True
