"""Front-end-neutral words: what a message says and which controls it offers, in the reader's language
(through bot/domain/i18n.py), and the pictures that go with it. The Discord layer (bot/cogs/) and the terminal
(bot/console/game.py) both show these; nothing here imports discord. Each module says in its docstring what it holds.
"""
