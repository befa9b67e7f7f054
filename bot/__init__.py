"""Tablero: a Discord bot for asynchronous board games among friends."""
