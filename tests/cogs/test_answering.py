"""Shutdown waits for the tasks answering interactions, which register themselves (bot/cogs/events/answering.py):
no name of discord.py's own tasks is relied on."""
import asyncio

from bot.app import _answered
from bot.cogs.events.answering import Answering


async def test_shutdown_waits_for_the_answers_under_way_and_those_that_start_meanwhile():
    answering, finished = Answering(), []

    async def answer(name: str, seconds: float, then=None) -> None:
        answering.track_current()
        await asyncio.sleep(seconds)
        if then is not None:   # a second interaction arrives while the first is answered
            asyncio.get_running_loop().create_task(then)
        await asyncio.sleep(0)
        finished.append(name)

    asyncio.get_running_loop().create_task(answer("click", 0.02, answer("command", 0.02)))
    await asyncio.sleep(0)   # the click's task has started
    assert len(answering.pending()) == 1
    await _answered(answering, timeout=5)
    assert finished == ["click", "command"] and answering.pending() == []


async def test_shutdown_gives_up_on_an_answer_that_outlasts_the_drain():
    answering = Answering()

    async def hang() -> None:
        answering.track_current()
        await asyncio.Event().wait()

    task = asyncio.get_running_loop().create_task(hang())
    await asyncio.sleep(0)
    await _answered(answering, timeout=0.01)
    assert not task.done()
    task.cancel()
