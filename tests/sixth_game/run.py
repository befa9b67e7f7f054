"""`python -m tests.sixth_game.run ARGS`: `python -m bot ARGS` with Line race registered before the bot reads its
games (the menus are built from GAMES as their modules load).

Registered at import, not under `__main__`: the computer players' worker processes (bot/ai/pool.py, started by
multiprocessing's spawn) import the program's main module again, as `__mp_main__`, and so know the game too.
"""
import sys

from tests.sixth_game import register

register()

if __name__ == "__main__":
    from bot.__main__ import main

    sys.exit(main())
